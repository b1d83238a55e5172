/* SPDX-License-Identifier: MIT */
/* Stage-2 translation tables (LPAE long descriptors) for the Normal world: an identity map
 * of the 32-bit physical space in which every address is RAM, a device, or absent (an
 * access to it traps to Hyp). Built once by fiqmon before the hand-off; portable C. */
#ifndef FIQMON_STAGE2_H
#define FIQMON_STAGE2_H

#include <stdint.h>

enum stage2_kind {
    S2_DEVICE, /* the default for anything not listed: Device, never executable */
    S2_NORMAL, /* RAM: Normal write-back cacheable, inner shareable */
    S2_ABSENT, /* invalid: every access traps (EC 0x24) */
};

struct stage2_region {
    uint32_t base, size; /* 4 KiB aligned */
    enum stage2_kind kind;
};

#define S2_ENTRIES 512u
typedef uint64_t stage2_table[S2_ENTRIES];

/* Descriptor bits */
#define S2_VALID       1u
#define S2_TABLE       3u            /* table (levels 1, 2) or page (level 3) */
#define S2_BLOCK       1u
#define S2_AF          (1u << 10)
#define S2_SH_INNER    (3u << 8)
#define S2_AP_RW       (3u << 6)
#define S2_ATTR_NORMAL (0xfu << 2)   /* MemAttr: outer and inner write-back */
#define S2_ATTR_DEVICE (0x1u << 2)   /* MemAttr: Device */
#define S2_XN          (1ull << 54)

/* VTCR for these tables: 32-bit IPA (T0SZ 0), walks start at level 1 (SL0 1). */
#define S2_VTCR        0x80000040u

/* The kind of addr: the last region listed that holds it wins; else S2_DEVICE. */
enum stage2_kind stage2_kind_at(const struct stage2_region *map, unsigned n, uint32_t addr);

/* Writes the tables into pool (count tables, 4 KiB aligned; table 0 is the level-1 one,
 * whose first 4 entries cover the 4 GiB). Returns the tables used, or 0 if count is too
 * few. The physical address of pool[0] goes to VTTBR. pool_pa: the physical address of
 * pool (the descriptors hold physical addresses; the host tests pass their own). */
unsigned stage2_build(stage2_table *pool, unsigned count, uint64_t pool_pa,
                      const struct stage2_region *map, unsigned n);

#endif
