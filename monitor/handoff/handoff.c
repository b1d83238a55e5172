/* SPDX-License-Identifier: MIT */
#include "handoff.h"

#include "build_options.h"

#include <string.h>

#include "console.h"
#include "crc32.h"
#include "fdt.h"
#include "monitor.h"
#include "platform.h"

static bool read32(uint32_t addr, uint32_t *v)
{
    return port_mem_read(addr, 4, v);
}

bool fdt_read_be32(uint32_t addr, uint32_t *v)
{
    uint32_t x;

    if (!read32(addr, &x))
        return false;
    *v = (x >> 24) | ((x >> 8) & 0xff00u) | ((x << 8) & 0xff0000u) | (x << 24);
    return true;
}

bool fdt_write_be32(uint32_t addr, uint32_t v)
{
    return port_mem_write(addr, 4,
                          (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24));
}

bool boot_mem_move(uint32_t dst, uint32_t src, uint32_t len)
{
    unsigned step = ((dst | src | len) & 3u) ? 1u : 4u;
    uint32_t v;

    if (dst == src || len == 0)
        return true;
    if (dst < src) {
        for (uint32_t i = 0; i < len; i += step)
            if (!port_mem_read(src + i, step, &v) || !port_mem_write(dst + i, step, v))
                return false;
    } else {
        for (uint32_t i = len; i; i -= step)
            if (!port_mem_read(src + i - step, step, &v) ||
                !port_mem_write(dst + i - step, step, v))
                return false;
    }
    return true;
}

static bool mem_crc32(uint32_t addr, uint32_t len, uint32_t *crc)
{
    uint32_t c = 0;

    for (uint32_t i = 0; i < len; i++) {
        uint32_t v;
        uint8_t b;
        if (!port_mem_read(addr + i, 1, &v))
            return false;
        b = (uint8_t)v;
        c = crc32_update(c, &b, 1);
    }
    *crc = c;
    return true;
}

static bool overlaps(uint32_t a, uint32_t alen, uint32_t b, uint32_t blen)
{
    return a < b + blen && b < a + alen;
}

static bool inside(uint32_t a, uint32_t alen, uint32_t base, uint32_t size)
{
    return a >= base && alen <= size && a - base <= size - alen;
}

const char *payload_check(uint32_t addr, struct payload_header *h, bool check_data)
{
    const struct boot_target *t = port_boot_target();
    uint32_t *w = (uint32_t *)h;
    uint32_t crc;

    for (unsigned i = 0; i < PAYLOAD_HEADER_SIZE / 4; i++)
        if (!read32(addr + 4 * i, &w[i]))
            return "header unreadable";
    if (h->magic != PAYLOAD_MAGIC)
        return "no payload";
    if (crc32_update(0, (const uint8_t *)h, PAYLOAD_HEADER_SIZE - 4) != h->header_crc)
        return "header CRC mismatch";
    if (h->version != PAYLOAD_VERSION || h->header_size != PAYLOAD_HEADER_SIZE)
        return "unsupported header version";
    if (h->kind != PAYLOAD_BARE && h->kind != PAYLOAD_LINUX)
        return "unknown payload kind";
    if (h->image_size == 0)
        return "empty image";
    if (h->image_size > t->ram_size || h->dtb_size > t->dtb_max ||
        h->cmdline_size > BOOT_CMDLINE_MAX)
        return "oversized payload";
    if (!inside(h->load_addr, h->image_size, t->ram_base, t->ram_size) ||
        overlaps(h->load_addr, h->image_size, t->reserved_base, t->reserved_size))
        return "image does not fit in RAM outside fiqmon's region";
    if (h->entry - h->load_addr >= h->image_size)
        return "entry outside the image";
    if (h->kind == PAYLOAD_LINUX &&
        (overlaps(h->load_addr, h->image_size, t->atags_addr, 0x400) ||
         (h->dtb_size && overlaps(h->load_addr, h->image_size, t->dtb_addr, t->dtb_max))))
        return "image overlaps the boot arguments";
    if (addr + payload_total_size(h) < addr)
        return "oversized payload"; /* it would wrap the address space */
    if (check_data) {
        if (!mem_crc32(addr + PAYLOAD_HEADER_SIZE, payload_total_size(h) - PAYLOAD_HEADER_SIZE,
                       &crc))
            return "data unreadable";
        if (crc != h->data_crc)
            return "data CRC mismatch";
    }
    return NULL;
}

bool boot_write_atags(const struct boot_target *t, const char *cmdline)
{
    uint32_t top = t->ram_base + t->ram_size;
    uint32_t above = t->reserved_base + t->reserved_size;
    size_t len = cmdline ? strlen(cmdline) : 0;
    uint32_t words = (uint32_t)(len + 1 + 3) / 4;
    /* CORE (flags, page size, root device); MEM (size, start) below and above fiqmon's
     * region where there is RAM; CMDLINE header; the NONE tag comes last */
    uint32_t tags[16], n = 0, a = t->atags_addr;

    tags[n++] = 5, tags[n++] = ATAG_CORE, tags[n++] = 1, tags[n++] = 4096, tags[n++] = 0;
    if (t->reserved_base > t->ram_base)
        tags[n++] = 4, tags[n++] = ATAG_MEM, tags[n++] = t->reserved_base - t->ram_base,
        tags[n++] = t->ram_base;
    if (above < top)
        tags[n++] = 4, tags[n++] = ATAG_MEM, tags[n++] = top - above, tags[n++] = above;
    if (len)
        tags[n++] = 2 + words, tags[n++] = ATAG_CMDLINE;
    for (uint32_t i = 0; i < n; i++, a += 4)
        if (!port_mem_write(a, 4, tags[i]))
            return false;
    for (uint32_t i = 0; len && i < words * 4; i++)
        if (!port_mem_write(a + i, 1, i < len ? (uint8_t)cmdline[i] : 0))
            return false;
    a += len ? words * 4 : 0;
    return port_mem_write(a, 4, 0) && port_mem_write(a + 4, 4, ATAG_NONE);
}


bool boot_fdt_copy_reserving(uint32_t dst, uint32_t max, uint32_t src, uint32_t src_size,
                             uint32_t base, uint32_t size)
{
    uint32_t hdr[10], term, used;

    for (unsigned i = 0; i < 10; i++)
        if (!fdt_read_be32(src + 4 * i, &hdr[i]))
            return false;
    if (hdr[FDT_MAGIC_W] != FDT_MAGIC || hdr[FDT_TOTALSIZE] > src_size ||
        hdr[FDT_VERSION] < 16 || (hdr[FDT_OFF_RSVMAP] & 7u) ||
        hdr[FDT_OFF_RSVMAP] >= hdr[FDT_TOTALSIZE] ||
        (dst != src && overlaps(dst, hdr[FDT_TOTALSIZE] + 16, src, hdr[FDT_TOTALSIZE])))
        return false;
    /* what the blocks use: a tree with room to spare (QEMU's is 1 MiB) need not grow */
    used = hdr[FDT_TOTALSIZE];
    if (hdr[FDT_VERSION] >= 17) {
        uint32_t s_end = hdr[FDT_OFF_STRUCT] + hdr[FDT_SIZE_STRUCT];
        uint32_t t_end = hdr[FDT_OFF_STRINGS] + hdr[FDT_SIZE_STRINGS];
        uint32_t end = s_end > t_end ? s_end : t_end;
        if (end <= used && s_end >= hdr[FDT_OFF_STRUCT] && t_end >= hdr[FDT_OFF_STRINGS])
            used = end;
    }
    /* find the all-zero entry that ends the reservation block */
    for (term = hdr[FDT_OFF_RSVMAP];; term += 16) {
        uint32_t e[4];
        if (term + 16 > used)
            return false;
        for (unsigned i = 0; i < 4; i++)
            if (!read32(src + term + 4 * i, &e[i]))
                return false;
        if (!(e[0] | e[1] | e[2] | e[3]))
            break;
    }
    uint32_t total = used + 16 > hdr[FDT_TOTALSIZE] ? used + 16 : hdr[FDT_TOTALSIZE];
    if (total > max)
        return false;
    /* the tail first: in place (dst == src) it moves up over what was free */
    if (!boot_mem_move(dst + term + 16, src + term, used - term) ||
        !boot_mem_move(dst, src, term) || !fdt_write_be32(dst + term, 0) ||
        !fdt_write_be32(dst + term + 4, base) || !fdt_write_be32(dst + term + 8, 0) ||
        !fdt_write_be32(dst + term + 12, size))
        return false;
    /* everything after the new entry moved up by 16 bytes */
    if (!fdt_write_be32(dst + 4 * FDT_TOTALSIZE, total))
        return false;
    for (unsigned i = FDT_OFF_STRUCT; i <= FDT_OFF_STRINGS; i++)
        if (hdr[i] >= term && !fdt_write_be32(dst + 4 * i, hdr[i] + 16))
            return false;
    return true;
}

bool fdt_str_is(uint32_t addr, const char *s)
{
    uint32_t v;

    for (;; s++, addr++) {
        if (!port_mem_read(addr, 1, &v) || v != (uint8_t)*s)
            return false;
        if (!*s)
            return true;
    }
}

bool boot_fdt_set_spi(uint32_t dtb, const char *node, uint32_t spi)
{
    uint32_t hdr[4], p, end, tok, in_node = 0, depth = 0;

    for (unsigned i = 0; i < 4; i++)
        if (!fdt_read_be32(dtb + 4 * i, &hdr[i]))
            return false;
    if (hdr[FDT_MAGIC_W] != FDT_MAGIC)
        return false;
    p = dtb + hdr[FDT_OFF_STRUCT];
    end = dtb + hdr[FDT_TOTALSIZE];
    while (p + 4 <= end && fdt_read_be32(p, &tok)) {
        p += 4;
        if (tok == FDT_BEGIN_NODE) {
            uint32_t v;
            depth++;
            if (!in_node && fdt_str_is(p, node))
                in_node = depth;
            do { /* the name, NUL, padding to 4 */
                if (!port_mem_read(p++, 1, &v))
                    return false;
            } while (v);
            p = (p + 3u) & ~3u;
        } else if (tok == FDT_END_NODE) {
            if (in_node == depth)
                return false; /* the node has no interrupts property */
            depth--;
        } else if (tok == FDT_PROP) {
            uint32_t len, nameoff;
            if (!fdt_read_be32(p, &len) || !fdt_read_be32(p + 4, &nameoff))
                return false;
            /* interrupts = <type number flags>, type 0 = SPI */
            if (in_node == depth && len == 12 &&
                fdt_str_is(dtb + hdr[FDT_OFF_STRINGS] + nameoff, "interrupts"))
                return fdt_write_be32(p + 8, 0) && fdt_write_be32(p + 12, spi);
            p += 8 + ((len + 3u) & ~3u);
        } else if (tok != FDT_NOP) {
            return false; /* FDT_END or garbage */
        }
    }
    return false;
}

void boot_enter(struct cpu_frame *f, uint32_t cpsr, target_addr_t entry, uint32_t r0, uint32_t r1,
                uint32_t r2)
{
    frame_set_entry(f, cpsr, port_boot_target()->entry_world, entry, r0, r1, r2);
    monitor_booted(); /* every hand-off comes through here: boot, go, exit, the countdown */
}

static const char *const kind_names[] = {"?", "bare-metal", "linux"};

#if FIQMON_AARCH64
/* the arm64 Image header's magic, "ARM\x64" (Documentation/arch/arm64/booting.rst) */
#define KERNEL_MAGIC_OFFSET 0x38
#define KERNEL_MAGIC 0x644d5241u
#define KERNEL_NAME "Image"
#else
#define KERNEL_MAGIC_OFFSET 0x24 /* a zImage's */
#define KERNEL_MAGIC 0x016f2818u
#define KERNEL_NAME "zImage"
#endif

enum boot_source { BOOT_NONE, BOOT_PAYLOAD, BOOT_IN_PLACE };

/* What is there to boot: a payload after fiqmon's image, or else a zImage the loader left
 * at the platform's kernel address. *why says why not, for BOOT_NONE. */
static enum boot_source find_kernel(const struct boot_target *t, struct payload_header *h,
                                    const char **why)
{
    uint32_t magic;

    *why = t->payload_addr ? payload_check(t->payload_addr, h, true) : "no payload";
    if (!*why)
        return BOOT_PAYLOAD;
    if (strcmp(*why, "no payload") == 0 && t->kernel_addr &&
        port_mem_read(t->kernel_addr + KERNEL_MAGIC_OFFSET, 4, &magic) && magic == KERNEL_MAGIC)
        return BOOT_IN_PLACE;
    return BOOT_NONE;
}

bool boot_describe_payload(void)
{
    const struct boot_target *t = port_boot_target();
    struct payload_header h;
    const char *why;
    enum boot_source src;

    port_mem_space(PORT_MEM_FIQMON);
    src = find_kernel(t, &h, &why);
    port_mem_space(PORT_MEM_VIRTUAL);
    if (src == BOOT_IN_PLACE) {
        con_printf("fiqmon: linux " KERNEL_NAME " at 0x%08x\n", (unsigned)t->kernel_addr);
        return true;
    }
    if (src == BOOT_NONE) {
        if (strcmp(why, "no payload") == 0)
            con_puts("fiqmon: no payload\n");
        else
            con_printf("fiqmon: payload refused: %s\n", why);
        return false;
    }
    con_printf("fiqmon: payload: %s image, %u bytes, load 0x%08x, entry 0x%08x",
               kind_names[h.kind], (unsigned)h.image_size, (unsigned)h.load_addr,
               (unsigned)h.entry);
    if (h.dtb_size)
        con_printf(", dtb %u bytes", (unsigned)h.dtb_size);
    if (h.cmdline_size)
        con_printf(", cmdline %u bytes", (unsigned)h.cmdline_size);
    con_puts("\n");
    return true;
}

/* The Linux boot protocol's r2: the payload's device tree (fiqmon's region reserved), a
 * device tree the firmware left in place, or an ATAG list. NULL h: no payload. */
static int linux_r2(const struct boot_target *t, const struct payload_header *h, uint32_t *r2)
{
    char cmdline[BOOT_CMDLINE_MAX];
    uint32_t magic;

    if (h && h->dtb_size) {
        if (!boot_fdt_copy_reserving(t->dtb_addr, t->dtb_max,
                                     t->payload_addr + payload_dtb_offset(h), h->dtb_size,
                                     t->reserved_base, t->reserved_size))
            return con_error("payload refused: bad device tree");
        *r2 = t->dtb_addr;
        return 0;
    }
    if (t->dtb_in_place) {
        /* this board's firmware passes its own device tree: a command line would be lost */
        if (h && h->cmdline_size)
            return con_error("payload refused: a command line needs a device tree here "
                             "(DTB=FILE with /chosen bootargs)");
        if (!fdt_read_be32(t->dtb_addr, &magic) || magic != FDT_MAGIC)
            return con_error("no device tree at 0x%08x", (unsigned)t->dtb_addr);
        /* fiqmon's region inside the kernel's RAM (a Hyp shim's) must be reserved there */
        if (t->reserved_base - t->ram_base < t->ram_size &&
            !boot_fdt_copy_reserving(t->dtb_addr, t->dtb_max, t->dtb_addr, t->dtb_max,
                                     t->reserved_base, t->reserved_size))
            return con_error("cannot reserve 0x%08x in the device tree at 0x%08x",
                             (unsigned)t->reserved_base, (unsigned)t->dtb_addr);
        *r2 = t->dtb_addr;
        return 0;
    }
    cmdline[0] = '\0';
    for (uint32_t i = 0; h && i < h->cmdline_size; i++) {
        uint32_t v;
        if (!port_mem_read(t->payload_addr + payload_cmdline_offset(h) + i, 1, &v))
            return con_error("payload refused: command line unreadable");
        cmdline[i] = (char)v;
    }
    if (h && h->cmdline_size)
        cmdline[h->cmdline_size - 1] = '\0';
    if (!boot_write_atags(t, cmdline))
        return con_error("cannot write the ATAG list at 0x%08x", (unsigned)t->atags_addr);
    *r2 = t->atags_addr;
    return 0;
}

/* One wire: the kernel's console interrupt is the platform's model's. */
static int linux_console_irq(const struct boot_target *t, uint32_t r2)
{
    if (!FIQMON_CONSOLE_SHARED || !t->console_irq_node || r2 != t->dtb_addr)
        return 0;
    if (!boot_fdt_set_spi(r2, t->console_irq_node, t->console_irq_spi))
        return con_error("no %s with interrupts in the device tree", t->console_irq_node);
    return 0;
}

static int boot_found(struct cpu_frame *f, const struct boot_target *t)
{
    struct payload_header h;
    const char *why;
    uint32_t r1 = 0, r2 = 0, entry;
    enum boot_source src = find_kernel(t, &h, &why);

    if (src == BOOT_NONE)
        return con_error(strcmp(why, "no payload") ? "payload refused: %s" : "%s", why);
    if (src == BOOT_IN_PLACE || h.kind == PAYLOAD_LINUX) {
        r1 = t->machine_id;
        /* the boot arguments first: the image copy may overwrite the payload's tail */
        if (linux_r2(t, src == BOOT_PAYLOAD ? &h : NULL, &r2) || linux_console_irq(t, r2))
            return -1;
        if (platform->cpus > 1 && r2 == t->dtb_addr && !boot_fdt_add_psci(r2, t->dtb_max))
            return con_error("cannot add /psci to the device tree at 0x%08x", (unsigned)r2);
    }
    if (src == BOOT_IN_PLACE) {
        entry = t->kernel_addr;
    } else {
        if (!boot_mem_move(h.load_addr, t->payload_addr + PAYLOAD_HEADER_SIZE, h.image_size))
            return con_error("fault while copying the image to 0x%08x", (unsigned)h.load_addr);
        entry = h.entry;
    }
#if FIQMON_AARCH64
    con_printf("fiqmon: booting %s image at 0x%08x (x0=%08x, %s)\n",
               src == BOOT_IN_PLACE ? "linux" : kind_names[h.kind], (unsigned)entry,
               (unsigned)r2, arm_mode_name(t->entry_cpsr));
    (void)r1; /* (AArch32's machine id) */
    boot_enter(f, t->entry_cpsr, entry, r2, 0, 0); /* arm64: x0 the device tree, x1-x3 0 */
#else
    con_printf("fiqmon: booting %s image at 0x%08x (r0=0 r1=%08x r2=%08x)\n",
               src == BOOT_IN_PLACE ? "linux" : kind_names[h.kind], (unsigned)entry,
               (unsigned)r1, (unsigned)r2);
    boot_enter(f, t->entry_cpsr, entry, 0, r1, r2);
#endif
    return 0;
}

int boot_payload(struct cpu_frame *f)
{
    int rc;

    port_mem_space(PORT_MEM_FIQMON);
    rc = boot_found(f, port_boot_target());
    port_mem_space(PORT_MEM_VIRTUAL);
    return rc;
}
