/* SPDX-License-Identifier: MIT */
/* md, mw: memory of the interrupted system. */
#include "commands.h"

#include "console.h"
#include "memdump.h"
#include "parse.h"
#include "platform.h"

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
    return memdump(addr, len, width);
}

int cmd_md(int argc, char **argv)
{
    int shift = physical_flag(argc, argv);
    int rc = md(argc - shift, argv + shift);

    port_mem_space(PORT_MEM_VIRTUAL);
    return rc;
}

static int mw(int argc, char **argv)
{
    target_addr_t addr;
    uint32_t value, back;
    unsigned width = 4;

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
    if (!port_mem_write(addr, width, value))
        return con_error("fault at 0x" TARGET_ADDR_FMT, (unsigned long)addr);
    /* flash and ROM take a write without complaint: say so rather than report success.
     * A device register is never read back (a read may pop a FIFO or clear a status). */
    if (port_mem_is_memory(addr) && port_mem_read(addr, width, &back) && back != value)
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
