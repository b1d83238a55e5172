/* SPDX-License-Identifier: MIT */
/* The software walk of an arm64 kernel's own page tables (kmem_walk, kmem.h), by which
 * fiqmon reads the kernel while user space runs under KPTI: tables the test builds in the
 * fake port's memory, 4 KiB granule, 48- and 39-bit address spaces, pages and blocks. */
#include "expect.h"

#include "fake_port.h"
#include "kmem.h"

#define TABLES 0x20000000u /* physical: each table a page */
#define T(n) (TABLES + 0x1000u * (n))

static int setup(void **state)
{
    fake_port_reset();
    fake_mem_map(TABLES, 0x8000);
    return 0;
}

static void entry(uint32_t table, unsigned index, uint64_t desc)
{
    uint32_t w[2] = {(uint32_t)desc, (uint32_t)(desc >> 32)};

    fake_mem_write(table + 8 * index, w, 8);
}

#define TABLE_DESC(pa) ((uint64_t)(pa) | 3u)
#define PAGE_DESC(pa) ((uint64_t)(pa) | 0x703u) /* AF, inner shareable, valid page */
#define BLOCK_DESC(pa) ((uint64_t)(pa) | 0x701u)

/* The kernel half: 0xffff8000_00000000 + ... in a 48-bit space. */
#define KVA(l0, l1, l2, l3, off)                                                                   \
    (0xffff000000000000ull | (uint64_t)(l0) << 39 | (uint64_t)(l1) << 30 | (uint64_t)(l2) << 21 | \
     (uint64_t)(l3) << 12 | (off))

static void test_a_48_bit_walk_finds_pages_and_blocks(void **state)
{
    uint64_t pa;

    entry(T(0), 256, TABLE_DESC(T(1)));              /* L0[256] */
    entry(T(1), 5, TABLE_DESC(T(2)));                /* L1[5] */
    entry(T(2), 7, TABLE_DESC(T(3)));                /* L2[7] */
    entry(T(3), 9, PAGE_DESC(0x4123a000ull));         /* L3[9]: a page */
    entry(T(2), 8, BLOCK_DESC(0x40600000ull));        /* L2[8]: 2 MiB */
    entry(T(1), 6, BLOCK_DESC(0x80000000ull));        /* L1[6]: 1 GiB */
    entry(T(1), 7, 0x0000ffff12345000ull | 3u);        /* L1[7]: a table out of reach */
    EXPECT_TRUE(kmem_walk(T(0), 48, KVA(256, 5, 7, 9, 0xabc), &pa), "page");
    EXPECT_EQ(pa, 0x4123aabcull);
    EXPECT_TRUE(kmem_walk(T(0), 48, KVA(256, 5, 8, 0x1ff, 0x10), &pa), "2 MiB block");
    EXPECT_EQ(pa, 0x407ff010ull);
    EXPECT_TRUE(kmem_walk(T(0), 48, KVA(256, 6, 3, 4, 8), &pa), "1 GiB block");
    EXPECT_EQ(pa, 0x80604008ull);
    /* not mapped: an invalid entry at each level; a table that does not read */
    EXPECT_TRUE(!kmem_walk(T(0), 48, KVA(257, 5, 7, 9, 0), &pa), "L0 invalid");
    EXPECT_TRUE(!kmem_walk(T(0), 48, KVA(256, 4, 7, 9, 0), &pa), "L1 invalid");
    EXPECT_TRUE(!kmem_walk(T(0), 48, KVA(256, 5, 6, 9, 0), &pa), "L2 invalid");
    EXPECT_TRUE(!kmem_walk(T(0), 48, KVA(256, 5, 7, 10, 0), &pa), "L3 invalid");
    EXPECT_TRUE(!kmem_walk(T(0), 48, KVA(256, 7, 0, 0, 0), &pa), "table faults");
    /* a level 3 entry of type block (1) is reserved; a level 0 block does not exist */
    entry(T(3), 10, BLOCK_DESC(0x41000000ull));
    EXPECT_TRUE(!kmem_walk(T(0), 48, KVA(256, 5, 7, 10, 0), &pa), "L3 type 1");
    entry(T(0), 258, BLOCK_DESC(0x0ull));
    EXPECT_TRUE(!kmem_walk(T(0), 48, KVA(258, 0, 0, 0, 0), &pa), "L0 block");
}

static void test_a_39_bit_walk_starts_at_level_1(void **state)
{
    uint64_t pa, va = 0xffffff8000000000ull | 3ull << 30 | 2ull << 21 | 1ull << 12 | 0x44;

    entry(T(0), 3, TABLE_DESC(T(1))); /* 39 bits: the walk starts with 512 L1 entries */
    entry(T(1), 2, TABLE_DESC(T(2)));
    entry(T(2), 1, PAGE_DESC(0x5555f000ull));
    EXPECT_TRUE(kmem_walk(T(0), 39, va, &pa), "3 levels");
    EXPECT_EQ(pa, 0x5555f044ull);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_a_48_bit_walk_finds_pages_and_blocks, setup),
        cmocka_unit_test_setup(test_a_39_bit_walk_starts_at_level_1, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
