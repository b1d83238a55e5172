/* SPDX-License-Identifier: MIT */
/* md, mw: memory of the interrupted system. */
#include "commands.h"

#include "console.h"
#include "memdump.h"
#include "parse.h"
#include "platform.h"
#if FIQMON_AARCH64 && FIQMON_LINUX
#include "kmem.h"
#include "vmcoreinfo.h"
#endif

static bool physical;     /* this command's -p */
static int kernel_found; /* this command's search for the kernel: 0 not yet, 1 found, -1 not */

#if FIQMON_AARCH64 && FIQMON_LINUX
/* An arm64 kernel's address that the live tables do not map: KPTI (forced on by KASLR)
 * leaves TTBR1 with only the entry trampoline while user space runs. The kernel's own
 * tables (kmem.h) map it: its physical address, if they do. */
static bool kernel_tables(target_addr_t addr, target_addr_t *pa)
{
    uint64_t p;

    if (physical || !(addr >> 63))
        return false;
    if (!kernel_found)
        kernel_found = kernel_vmcoreinfo(true) ? 1 : -1;
    if (kernel_found < 0 || !kmem_kernel_phys(addr, &p))
        return false;
    *pa = (target_addr_t)p;
    return true;
}
#else
static bool kernel_tables(target_addr_t addr, target_addr_t *pa)
{
    (void)addr;
    (void)pa;
    return false;
}
#endif

/* A read or write at a physical address, in the middle of a virtual command. */
static bool phys_read(target_addr_t pa, unsigned width, uint32_t *v)
{
    bool ok;

    port_mem_space(PORT_MEM_PHYSICAL);
    ok = port_mem_read(pa, width, v);
    port_mem_space(PORT_MEM_VIRTUAL);
    return ok;
}

static bool md_read(target_addr_t addr, unsigned width, uint32_t *v)
{
    target_addr_t pa;

    return port_mem_read(addr, width, v) ||
           (kernel_tables(addr, &pa) && phys_read(pa, width, v));
}

static int parse_width(const char *s, unsigned *width)
{
    *width = memdump_width(s);
    if (!*width)
        return con_error("bad width '%s' (b, h or w)", s);
    return 0;
}

/* One message for one cause, whichever command meets it. */
static int check_wrap(target_addr_t addr, uint32_t len)
{
    if (addr + (len - 1) < addr)
        return con_error("range wraps past 0x" TARGET_ADDR_FMT, (unsigned long)TARGET_ADDR_MAX);
    return 0;
}

/* A leading -p: the address is physical. Returns the argument shift (0 or 1). */
static int physical_flag(int argc, char **argv)
{
    bool p = argc > 1 && argv[1][0] == '-' && argv[1][1] == 'p' && !argv[1][2];

    port_mem_space(p ? PORT_MEM_PHYSICAL : PORT_MEM_VIRTUAL);
    physical = p;
    kernel_found = 0;
    return p;
}

static int md(int argc, char **argv)
{
    target_addr_t addr;
    uint32_t len = 0x40;
    unsigned width = 4;
    bool have_len = false, have_width = false;

    if (argc < 2 || argc > 4)
        return con_error("usage: md [-p] ADDR [LEN] [b|h|w]");
    if (cmd_parse_address(argv[1], &addr))
        return -1;
    for (int i = 2; i < argc; i++) {
        unsigned w = memdump_width(argv[i]);
        if (w && !have_width) {
            width = w;
            have_width = true;
        } else if (!w && !have_len) {
            if (cmd_parse_number("length", argv[i], &len))
                return -1;
            have_len = true;
        } else if (w) { /* a second width: which one was meant? */
            return con_error("usage: md [-p] ADDR [LEN] [b|h|w]");
        } else {
            return parse_width(argv[i], &width);
        }
    }
    if (len == 0 || len > MEMDUMP_MAX_LEN)
        return con_error("length 0x%x out of range (1 to 0x%x)", (unsigned)len,
                         MEMDUMP_MAX_LEN);
    /* memdump reads whole elements: a length that is not whole ones would be rounded */
    if (len & (width - 1))
        return con_error("length 0x%x is not a multiple of the width (%u bytes)",
                         (unsigned)len, width);
    if (check_wrap(addr, len))
        return -1;
    return memdump(addr, len, width, md_read);
}

int cmd_md(int argc, char **argv)
{
    int shift = physical_flag(argc, argv);
    int rc = md(argc - shift, argv + shift);

    port_mem_space(PORT_MEM_VIRTUAL);
    return rc;
}

/* -1: the write faulted; 1: memory that reads back otherwise (flash and ROM take a write
 * without complaint: say so rather than report success); 0: written. A device register is
 * never read back (a read may pop a FIFO or clear a status). */
static int write_checked(target_addr_t addr, unsigned width, uint32_t value, uint32_t *back)
{
    if (!port_mem_write(addr, width, value))
        return -1;
    return port_mem_is_memory(addr) && port_mem_read(addr, width, back) && *back != value;
}

static int mw(int argc, char **argv)
{
    target_addr_t addr, pa;
    uint32_t value, back = 0;
    unsigned width = 4;
    int rc;

    if (argc < 3 || argc > 4)
        return con_error("usage: mw [-p] ADDR VALUE [b|h|w]");
    if (cmd_parse_address(argv[1], &addr) || cmd_parse_number("value", argv[2], &value))
        return -1;
    if (argc == 4 && parse_width(argv[3], &width))
        return -1;
    if (width < 4 && value >> (8 * width))
        return con_error("value 0x%x does not fit in %u byte%s", (unsigned)value, width,
                         width > 1 ? "s" : "");
    if (check_wrap(addr, width))
        return -1;
    rc = write_checked(addr, width, value, &back);
    if (rc < 0 && kernel_tables(addr, &pa)) {
        port_mem_space(PORT_MEM_PHYSICAL);
        rc = write_checked(pa, width, value, &back);
        port_mem_space(PORT_MEM_VIRTUAL);
    }
    if (rc < 0)
        return con_error("fault at 0x" TARGET_ADDR_FMT, (unsigned long)addr);
    if (rc)
        return con_error("0x" TARGET_ADDR_FMT " reads back 0x%x after writing 0x%x (flash or ROM?)",
                         (unsigned long)addr, (unsigned)back, (unsigned)value);
    return 0;
}

int cmd_mw(int argc, char **argv)
{
    int shift = physical_flag(argc, argv);
    int rc = mw(argc - shift, argv + shift);

    port_mem_space(PORT_MEM_VIRTUAL);
    return rc;
}
