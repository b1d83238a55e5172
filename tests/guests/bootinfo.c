/* SPDX-License-Identifier: MIT */
/* bootinfo: reports what the guest was handed at entry (r0-r2), then the ATAG list or the
 * flattened device tree r2 points at: /memreserve/ entries, /memory's reg and /chosen's
 * bootargs. Everything it reads is untrusted: every access is bounds-checked against RAM
 * below fiqmon's region, and a malformed structure is reported, never followed. */
#include "guest.h"

const char guest_name[] = "bootinfo";

#define ATAG_NONE       0x00000000u
#define ATAG_CORE       0x54410001u
#define ATAG_MEM        0x54410002u
#define ATAG_CMDLINE    0x54410009u
#define ATAG_MAX_TAGS   64u

#define FDT_MAGIC       0xd00dfeedu
#define FDT_HEADER_SIZE 40u
#define FDT_BEGIN_NODE  1u
#define FDT_END_NODE    2u
#define FDT_PROP        3u
#define FDT_NOP         4u
#define FDT_END         9u
#define FDT_MAX_RSV     64u

/* Memory a guest may read: RAM below fiqmon's resident region. */
#define READ_SPAN       ((uint32_t)(RESIDENT_BASE - RAM_BASE))

static bool readable(uint32_t addr, uint32_t len)
{
    return len <= READ_SPAN && addr - RAM_BASE <= READ_SPAN - len;
}

static uint32_t rd8(uint32_t addr)
{
    return *(const volatile uint8_t *)addr;
}

static uint32_t rd32(uint32_t addr)     /* little-endian, 4-byte aligned */
{
    return *(const volatile uint32_t *)addr;
}

static uint32_t be32(uint32_t addr)     /* big-endian, any alignment */
{
    return rd8(addr) << 24 | rd8(addr + 1) << 16 | rd8(addr + 2) << 8 | rd8(addr + 3);
}

/* ---- ATAGs ---------------------------------------------------------------------------- */

static bool is_atag_list(uint32_t addr)
{
    return !(addr & 3u) && readable(addr, 8) && rd32(addr + 4) == ATAG_CORE;
}

static void show_atags(uint32_t addr)
{
    for (uint32_t n = 0; n < ATAG_MAX_TAGS; n++) {
        if (!readable(addr, 8)) {
            con_printf("atag list runs out of RAM at %08lx\n", addr);
            return;
        }
        uint32_t words = rd32(addr), tag = rd32(addr + 4);
        if (words == 0 || tag == ATAG_NONE)
            return;
        if (words < 2 || words > READ_SPAN / 4 || !readable(addr, words * 4)) {
            con_printf("atag malformed at %08lx: size %lu words\n", addr, words);
            return;
        }
        switch (tag) {
        case ATAG_CORE:
            con_puts("atag core\n");
            break;
        case ATAG_MEM:
            if (words < 4)
                goto malformed;
            con_printf("atag mem start=%08lx size=%08lx\n", rd32(addr + 12), rd32(addr + 8));
            break;
        case ATAG_CMDLINE:
            con_puts("atag cmdline ");
            con_put_text((const char *)(addr + 8), (words - 2) * 4);
            con_puts("\n");
            break;
        default:
            con_printf("atag other tag=%08lx size=%lu\n", tag, words);
            break;
        }
        addr += words * 4;
    }
    con_printf("atag list has more than %u tags; stopped\n", ATAG_MAX_TAGS);
    return;
malformed:
    con_printf("atag malformed at %08lx: tag %08lx too short\n", addr, rd32(addr + 4));
}

/* ---- flattened device tree ------------------------------------------------------------ */

struct fdt {
    uint32_t base, size;                /* whole blob */
    uint32_t strings, strings_size;     /* absolute address of the strings block */
    uint32_t cells_addr, cells_size;    /* the root's #address-cells / #size-cells */
};

static bool is_fdt(uint32_t addr)
{
    return readable(addr, FDT_HEADER_SIZE) && be32(addr) == FDT_MAGIC;
}

/* Does the NUL-terminated string at addr (within [addr, end)) equal s, or, with prefix,
 * start with s? */
static bool str_equal(uint32_t addr, uint32_t end, const char *s, bool prefix)
{
    for (; *s; s++, addr++)
        if (addr >= end || rd8(addr) != (uint8_t)*s)
            return false;
    return prefix || (addr < end && rd8(addr) == 0);
}

static bool prop_named(const struct fdt *t, uint32_t nameoff, const char *name)
{
    return nameoff < t->strings_size &&
           str_equal(t->strings + nameoff, t->strings + t->strings_size, name, false);
}

static void put_cells(uint32_t addr, uint32_t cells)
{
    if (cells == 2 && be32(addr))
        con_printf("%08lx%08lx", be32(addr), be32(addr + 4));
    else
        con_printf("%08lx", be32(addr + (cells - 1) * 4));
}

static void show_memory_reg(const struct fdt *t, uint32_t val, uint32_t len)
{
    uint32_t ac = t->cells_addr, sc = t->cells_size;

    if (ac < 1 || ac > 2 || sc < 1 || sc > 2) {
        con_printf("dtb memory reg: #address-cells %lu #size-cells %lu not supported\n", ac, sc);
        return;
    }
    uint32_t entry = (ac + sc) * 4;
    for (uint32_t off = 0; off + entry <= len; off += entry) {
        con_puts("dtb memory reg start=");
        put_cells(val + off, ac);
        con_puts(" size=");
        put_cells(val + off + ac * 4, sc);
        con_puts("\n");
    }
}

static void show_memreserve(const struct fdt *t, uint32_t off)
{
    for (uint32_t n = 0; n < FDT_MAX_RSV; n++, off += 16) {
        if (off > t->size - 16) {
            con_puts("dtb malformed: /memreserve/ block runs off the blob\n");
            return;
        }
        uint32_t e = t->base + off;
        if (!be32(e) && !be32(e + 4) && !be32(e + 8) && !be32(e + 12))
            return;
        con_puts("dtb memreserve start=");
        put_cells(e, 2);
        con_puts(" size=");
        put_cells(e + 8, 2);
        con_puts("\n");
    }
    con_printf("dtb /memreserve/ has more than %u entries; stopped\n", FDT_MAX_RSV);
}

static void show_fdt(uint32_t base)
{
    uint32_t size = be32(base + 4), off_struct = be32(base + 8), off_strings = be32(base + 12);
    uint32_t off_rsv = be32(base + 16), version = be32(base + 20);
    uint32_t size_strings = be32(base + 32), size_struct = be32(base + 36);

    if (size < FDT_HEADER_SIZE || !readable(base, size) || version < 16) {
        con_printf("dtb malformed: size %lu version %lu\n", size, version);
        return;
    }
    if (version < 17)   /* no size_dt_struct: the struct block may run to the end */
        size_struct = size - off_struct;
    if (off_struct > size || size_struct > size - off_struct || off_strings > size ||
        size_strings > size - off_strings || off_rsv > size || (off_struct & 3u)) {
        con_puts("dtb malformed: blocks outside the blob\n");
        return;
    }
    struct fdt t = {base, size, base + off_strings, size_strings, 1, 1};

    show_memreserve(&t, off_rsv);

    uint32_t p = base + off_struct, end = p + size_struct;
    uint32_t depth = 0;
    bool in_memory = false, in_chosen = false;
    while (p <= end - 4) {
        uint32_t token = be32(p);
        p += 4;
        if (token == FDT_BEGIN_NODE) {
            uint32_t name = p;
            while (p < end && rd8(p))
                p++;
            if (p >= end)
                break;
            p = (p + 4) & ~3u;  /* past the NUL, aligned */
            depth++;
            in_memory = depth == 2 && (str_equal(name, end, "memory", false) ||
                                       str_equal(name, end, "memory@", true));
            in_chosen = depth == 2 && str_equal(name, end, "chosen", false);
        } else if (token == FDT_END_NODE) {
            if (depth == 0)
                break;
            depth--;
            in_memory = in_chosen = false;
        } else if (token == FDT_PROP) {
            if (p > end - 8)
                break;
            uint32_t len = be32(p), nameoff = be32(p + 4), val = p + 8;
            if (len > end - val)
                break;
            p = (val + len + 3) & ~3u;
            if (depth == 1 && len == 4 && prop_named(&t, nameoff, "#address-cells"))
                t.cells_addr = be32(val);
            else if (depth == 1 && len == 4 && prop_named(&t, nameoff, "#size-cells"))
                t.cells_size = be32(val);
            else if (in_memory && prop_named(&t, nameoff, "reg"))
                show_memory_reg(&t, val, len);
            else if (in_chosen && prop_named(&t, nameoff, "bootargs")) {
                con_puts("dtb bootargs ");
                con_put_text((const char *)val, len);
                con_puts("\n");
            }
        } else if (token == FDT_END) {
            return;
        } else if (token != FDT_NOP) {
            break;
        }
    }
    con_printf("dtb malformed: structure block broken near offset %lu\n", p - base);
}

void guest_main(uint32_t r0, uint32_t r1, uint32_t r2)
{
    con_printf("guest bootinfo: r0=%08lx r1=%08lx r2=%08lx\n", r0, r1, r2);
    if (is_atag_list(r2))
        show_atags(r2);
    else if (is_fdt(r2))
        show_fdt(r2);
    else
        con_puts("guest bootinfo: r2 points at neither an ATAG list nor a device tree\n");
    con_puts("guest bootinfo: done\n");
}
