/* SPDX-License-Identifier: MIT */
#include "stage2.h"

enum stage2_kind stage2_kind_at(const struct stage2_region *map, unsigned n, uint32_t addr)
{
    enum stage2_kind kind = S2_DEVICE;

    for (unsigned i = 0; i < n; i++)
        if (addr - map[i].base < map[i].size)
            kind = map[i].kind;
    return kind;
}

/* True if no region starts or ends strictly inside [base, base + size): one kind then
 * holds for the whole range. size is a power of two up to 1 GiB. */
static int uniform(const struct stage2_region *map, unsigned n, uint64_t base, uint64_t size)
{
    for (unsigned i = 0; i < n; i++) {
        uint64_t edges[2] = {map[i].base, (uint64_t)map[i].base + map[i].size};
        for (unsigned e = 0; e < 2; e++)
            if (edges[e] > base && edges[e] < base + size)
                return 0;
    }
    return 1;
}

static uint64_t leaf(enum stage2_kind kind, uint64_t pa, uint32_t type)
{
    if (kind == S2_ABSENT)
        return 0;
    if (kind == S2_NORMAL)
        return pa | S2_AF | S2_SH_INNER | S2_AP_RW | S2_ATTR_NORMAL | type;
    return pa | S2_XN | S2_AF | S2_AP_RW | S2_ATTR_DEVICE | type;
}

struct builder {
    stage2_table *pool;
    unsigned count, used;
    uint64_t pool_pa;
    const struct stage2_region *map;
    unsigned n;
};

/* The descriptor for [base, base + size) at level (1: 1 GiB, 2: 2 MiB, 3: 4 KiB): a leaf
 * when one kind holds throughout, else a table of the next level. ~0: out of tables. */
static uint64_t descriptor(struct builder *b, uint64_t base, unsigned level)
{
    uint64_t size = 1ull << (39 - 9 * level); /* 30, 21, 12 bits */

    if (level == 3)
        return leaf(stage2_kind_at(b->map, b->n, (uint32_t)base), base, S2_TABLE);
    if (uniform(b->map, b->n, base, size))
        return leaf(stage2_kind_at(b->map, b->n, (uint32_t)base), base, S2_BLOCK);
    if (b->used == b->count)
        return ~0ull;
    unsigned t = b->used++;
    for (unsigned i = 0; i < S2_ENTRIES; i++) {
        uint64_t d = descriptor(b, base + i * (size / S2_ENTRIES), level + 1);
        if (d == ~0ull)
            return d;
        b->pool[t][i] = d;
    }
    return (b->pool_pa + t * sizeof(stage2_table)) | S2_TABLE;
}

unsigned stage2_build(stage2_table *pool, unsigned count, uint64_t pool_pa,
                      const struct stage2_region *map, unsigned n)
{
    struct builder b = {pool, count, 1, pool_pa, map, n};

    if (count == 0)
        return 0;
    for (unsigned i = 0; i < S2_ENTRIES; i++)
        pool[0][i] = 0;
    for (unsigned i = 0; i < 4; i++) {
        uint64_t d = descriptor(&b, (uint64_t)i << 30, 1);
        if (d == ~0ull)
            return 0;
        pool[0][i] = d;
    }
    return b.used;
}
