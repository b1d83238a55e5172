/* SPDX-License-Identifier: MIT */
/* monitor/debug/text_mapping.c: the short-descriptor walk over tables built here, in a
 * small physical memory of its own: sections and pages, XN and PXN, faults, the TTBR0/TTBR1
 * split, a table that does not read, long descriptors (not walked). */
#include "expect.h"

#include <string.h>

#include "text_mapping.h"

#define MEM_BASE 0x80000000u
#define MEM_WORDS 0x4000u /* 64 KiB: two L1 tables and an L2 table */
#define L1_TTBR1 (MEM_BASE)           /* 16 KiB, aligned */
#define L1_TTBR0 (MEM_BASE + 0x4000u) /* N = 2: 4 KiB */
#define L2 (MEM_BASE + 0x8000u)

static uint32_t mem[MEM_WORDS];

static bool read_pa(uint32_t pa, uint32_t *v)
{
    if (pa < MEM_BASE || pa - MEM_BASE >= sizeof(mem) || (pa & 3u))
        return false;
    *v = mem[(pa - MEM_BASE) / 4];
    return true;
}

static void put(uint32_t pa, uint32_t v)
{
    mem[(pa - MEM_BASE) / 4] = v;
}

static const struct text_mapping_regs one = {.ttbr0 = L1_TTBR1, .ttbcr = 0}; /* N = 0 */

static int setup(void **state)
{
    (void)state;
    memset(mem, 0, sizeof(mem));
    put(L1_TTBR1 + (0xc00u * 4), 0x40000000u | 0x2u);                /* text: a section */
    put(L1_TTBR1 + (0xc01u * 4), 0x40100000u | 0x2u | (1u << 4));    /* data: XN */
    put(L1_TTBR1 + (0xc02u * 4), 0x40200000u | 0x3u);                /* PXN section */
    put(L1_TTBR1 + (0xbf0u * 4), L2 | 0x1u);                         /* modules: pages */
    put(L1_TTBR1 + (0xbf1u * 4), L2 | 0x1u | (1u << 2));             /* a PXN table */
    put(L2 + 0 * 4, 0x41000000u | 0x2u);                             /* small, runs */
    put(L2 + 1 * 4, 0x41001000u | 0x3u);                             /* small, XN */
    put(L2 + 2 * 4, 0x41010000u | 0x1u);                             /* large, runs */
    put(L2 + 3 * 4, 0x41010000u | 0x1u | (1u << 15));                /* large, XN */
    return 0;
}

static void test_sections_and_their_xn_and_pxn(void **state)
{
    (void)state;
    EXPECT_EQ(text_mapping_at(0xc0012345u, &one, read_pa), TEXT_EXECUTABLE);
    EXPECT_EQ(text_mapping_at(0xc0112345u, &one, read_pa), TEXT_NOT_EXECUTABLE);
    EXPECT_EQ(text_mapping_at(0xc0212345u, &one, read_pa), TEXT_NOT_EXECUTABLE);
    EXPECT_EQ(text_mapping_at(0xc0312345u, &one, read_pa), TEXT_UNMAPPED);
}

static void test_small_and_large_pages(void **state)
{
    (void)state;
    EXPECT_EQ(text_mapping_at(0xbf000010u, &one, read_pa), TEXT_EXECUTABLE);
    EXPECT_EQ(text_mapping_at(0xbf001010u, &one, read_pa), TEXT_NOT_EXECUTABLE);
    EXPECT_EQ(text_mapping_at(0xbf002010u, &one, read_pa), TEXT_EXECUTABLE);
    EXPECT_EQ(text_mapping_at(0xbf003010u, &one, read_pa), TEXT_NOT_EXECUTABLE);
    EXPECT_EQ(text_mapping_at(0xbf004010u, &one, read_pa), TEXT_UNMAPPED); /* L2 fault */
    EXPECT_EQ(text_mapping_at(0xbf100010u, &one, read_pa), TEXT_NOT_EXECUTABLE); /* PXN table */
}

/* N = 2: below 1 GiB through TTBR0's 4 KiB table, the rest through TTBR1's. */
static void test_ttbcr_n_splits_the_space(void **state)
{
    struct text_mapping_regs split = {.ttbr0 = L1_TTBR0 | 0x59u, .ttbr1 = L1_TTBR1 | 0x59u,
                                      .ttbcr = 2};
    (void)state;
    put(L1_TTBR0 + (0x001u * 4), 0x40000000u | 0x2u);
    EXPECT_EQ(text_mapping_at(0x00100000u, &split, read_pa), TEXT_EXECUTABLE);
    EXPECT_EQ(text_mapping_at(0x00200000u, &split, read_pa), TEXT_UNMAPPED);
    EXPECT_EQ(text_mapping_at(0xc0000000u, &split, read_pa), TEXT_EXECUTABLE);
    EXPECT_EQ(text_mapping_at(0xc0100000u, &split, read_pa), TEXT_NOT_EXECUTABLE);
}

static void test_unreadable_tables_and_long_descriptors(void **state)
{
    struct text_mapping_regs nowhere = {.ttbr0 = 0x20000000u};
    struct text_mapping_regs lpae = {.ttbr0 = L1_TTBR1, .ttbcr = 1u << 31};
    (void)state;
    EXPECT_EQ(text_mapping_at(0xc0000000u, &nowhere, read_pa), TEXT_UNMAPPED);
    put(L1_TTBR1 + (0xc03u * 4), 0x20000000u | 0x1u); /* its L2 table does not read */
    EXPECT_EQ(text_mapping_at(0xc0300000u, &one, read_pa), TEXT_UNMAPPED);
    EXPECT_EQ(text_mapping_at(0xc0000000u, &lpae, read_pa), TEXT_UNKNOWN);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_sections_and_their_xn_and_pxn, setup),
        cmocka_unit_test_setup(test_small_and_large_pages, setup),
        cmocka_unit_test_setup(test_ttbcr_n_splits_the_space, setup),
        cmocka_unit_test_setup(test_unreadable_tables_and_long_descriptors, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
