/* SPDX-License-Identifier: MIT */
/* Telling the kernel fiqmon is its PSCI firmware: a /psci node (method "smc") and
 * enable-method = "psci" on every cpu@ node, inserted into the device tree in place.
 * QEMU's own tree for virt,secure=on has neither: without them Linux starts one CPU. */
#include "handoff.h"

#include <string.h>

#include "fdt.h"
#include "platform.h"

#define MAX_CPU_NODES 8u
/* the names this edit uses, appended to the strings block (duplicates are allowed) */
static const char new_strings[] = "compatible\0method\0enable-method";
enum { STR_COMPATIBLE = 0, STR_METHOD = 11, STR_ENABLE_METHOD = 18 };
static const char psci_compatible[] = "arm,psci-1.0\0arm,psci-0.2\0arm,psci";

struct fdt_edit {
    uint32_t dtb, off_strings, size_struct, end; /* end: the strings block's, relative */
};

/* Packs len bytes of s into big-endian words at w (zero-padded); returns the word count. */
static unsigned put_bytes(uint32_t *w, const char *s, unsigned len)
{
    unsigned n = (len + 3u) / 4u;

    for (unsigned i = 0; i < n * 4u; i++) {
        uint32_t b = i < len ? (uint8_t)s[i] : 0u;
        if (i % 4u == 0)
            w[i / 4u] = 0;
        w[i / 4u] |= b << (24u - 8u * (i % 4u));
    }
    return n;
}

static unsigned put_prop(uint32_t *w, uint32_t nameoff, const char *value, unsigned len)
{
    w[0] = FDT_PROP;
    w[1] = len;
    w[2] = nameoff;
    return 3u + put_bytes(w + 3, value, len);
}

/* n words at offset at (in the structure block, or at the strings block's end), the rest
 * of the tree moved up to make room. */
static bool insert(struct fdt_edit *e, uint32_t at, const uint32_t *w, unsigned n, bool strings)
{
    if (!boot_mem_move(e->dtb + at + 4u * n, e->dtb + at, e->end - at))
        return false;
    for (unsigned i = 0; i < n; i++)
        if (!fdt_write_be32(e->dtb + at + 4u * i, w[i]))
            return false;
    e->end += 4u * n;
    if (!strings) {
        e->off_strings += 4u * n;
        e->size_struct += 4u * n;
    }
    return true;
}

/* Skips a node's name (NUL, padding) from p; false on a fault. */
static bool skip_name(uint32_t *p)
{
    uint32_t v;

    do {
        if (!port_mem_read((*p)++, 1, &v))
            return false;
    } while (v);
    *p = (*p + 3u) & ~3u;
    return true;
}

/* A node named cpu@...? */
static bool name_is_cpu(uint32_t p)
{
    uint32_t v;

    for (const char *s = "cpu@"; *s; s++)
        if (!port_mem_read(p++, 1, &v) || v != (uint8_t)*s)
            return false;
    return true;
}

bool boot_fdt_add_psci(uint32_t dtb, uint32_t max)
{
    uint32_t hdr[10], p, stop, tok, depth = 0, cpu_at[MAX_CPU_NODES], root_end = 0, w[24];
    uint32_t strings_at, base;
    unsigned cpus = 0, n;
    struct fdt_edit e;

    for (unsigned i = 0; i < 10; i++)
        if (!fdt_read_be32(dtb + 4u * i, &hdr[i]))
            return false;
    /* version 17 has the structure block's size; the strings block must come last */
    if (hdr[FDT_MAGIC_W] != FDT_MAGIC || hdr[FDT_VERSION] < 17 ||
        hdr[FDT_OFF_STRINGS] < hdr[FDT_OFF_STRUCT] + hdr[FDT_SIZE_STRUCT] ||
        hdr[FDT_OFF_STRINGS] + hdr[FDT_SIZE_STRINGS] > hdr[FDT_TOTALSIZE])
        return false;
    e = (struct fdt_edit){dtb, hdr[FDT_OFF_STRINGS], hdr[FDT_SIZE_STRUCT],
                          hdr[FDT_OFF_STRINGS] + hdr[FDT_SIZE_STRINGS]};
    p = dtb + hdr[FDT_OFF_STRUCT];
    stop = p + hdr[FDT_SIZE_STRUCT];
    while (p + 4u <= stop && fdt_read_be32(p, &tok)) {
        p += 4;
        if (tok == FDT_BEGIN_NODE) {
            depth++;
            if (depth == 2 && fdt_str_is(p, "psci"))
                return true; /* the tree already has a PSCI provider: leave it */
            bool cpu = name_is_cpu(p);
            if (!skip_name(&p))
                return false;
            if (cpu && cpus < MAX_CPU_NODES)
                cpu_at[cpus++] = p - dtb;
        } else if (tok == FDT_END_NODE) {
            if (--depth == 0)
                root_end = p - 4u - dtb;
        } else if (tok == FDT_PROP) {
            uint32_t len;
            if (!fdt_read_be32(p, &len))
                return false;
            p += 8u + ((len + 3u) & ~3u);
        } else if (tok == FDT_END) {
            break;
        } else if (tok != FDT_NOP) {
            return false;
        }
    }
    if (!root_end)
        return false;
    /* room: strings 32 bytes, the node 80, 20 per CPU */
    if (e.end + 32u + 80u + 20u * cpus > max)
        return false;

    /* from the highest offset down, so the offsets found above stay right */
    base = hdr[FDT_SIZE_STRINGS];
    strings_at = e.end;
    n = put_bytes(w, new_strings, sizeof(new_strings));
    if (!insert(&e, strings_at, w, n, true))
        return false;
    n = 0;
    w[n++] = FDT_BEGIN_NODE;
    n += put_bytes(w + n, "psci", 5);
    n += put_prop(w + n, base + STR_COMPATIBLE, psci_compatible, sizeof(psci_compatible));
    n += put_prop(w + n, base + STR_METHOD, "smc", 4);
    w[n++] = FDT_END_NODE;
    if (!insert(&e, root_end, w, n, false))
        return false;
    n = put_prop(w, base + STR_ENABLE_METHOD, "psci", 5);
    while (cpus)
        if (!insert(&e, cpu_at[--cpus], w, n, false))
            return false;
    return fdt_write_be32(dtb + 4u * FDT_OFF_STRINGS, e.off_strings) &&
           fdt_write_be32(dtb + 4u * FDT_SIZE_STRUCT, e.size_struct) &&
           fdt_write_be32(dtb + 4u * FDT_SIZE_STRINGS, e.end - e.off_strings) &&
           fdt_write_be32(dtb + 4u * FDT_TOTALSIZE,
                          e.end > hdr[FDT_TOTALSIZE] ? e.end : hdr[FDT_TOTALSIZE]);
}
