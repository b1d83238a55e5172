/* SPDX-License-Identifier: MIT */
/* Stage-2 tables: walked like the MMU walks them, every address gets the kind its region
 * says, with the attributes that kind needs, and the absent pages are invalid. */
#include "expect.h"

#include "stage2.h"

#define POOL 8
static stage2_table pool[POOL] __attribute__((aligned(4096)));
#define POOL_PA 0x7fe04000ull /* where the tables would be: the descriptors hold this */

static const struct stage2_region virt_map[] = {
    {0x40000000u, 0x40000000u, S2_NORMAL}, /* RAM */
    {0x0e000000u, 0x01000000u, S2_ABSENT}, /* fiqmon's Secure RAM */
    {0x7fe00000u, 0x00200000u, S2_ABSENT}, /* the shim's own */
    {0x09000000u, 0x00001000u, S2_ABSENT}, /* the emulated UART */
};
#define N (sizeof(virt_map) / sizeof(virt_map[0]))

/* What the MMU finds for ipa: the leaf descriptor (0: invalid) and its level. */
static uint64_t walk(uint32_t ipa, unsigned *level)
{
    uint64_t d = pool[0][ipa >> 30];

    for (*level = 1; *level < 3 && (d & 3) == S2_TABLE; ++*level) {
        uint64_t pa = d & 0xfffffff000ull;
        unsigned t = (unsigned)((pa - POOL_PA) / sizeof(stage2_table));
        unsigned shift = *level == 1 ? 21 : 12;
        EXPECT_EQ(pa % 4096, 0);
        EXPECT_EQ(t < POOL, 1);
        d = pool[t][(ipa >> shift) & 511];
    }
    return d;
}

static unsigned built;

static int setup(void **state)
{
    memset(pool, 0xa5, sizeof(pool)); /* stale memory: the builder must write every entry */
    built = stage2_build(pool, POOL, POOL_PA, virt_map, N);
    return 0;
}

static void check(uint32_t ipa, enum stage2_kind want)
{
    unsigned level;
    uint64_t d = walk(ipa, &level);

    if (want == S2_ABSENT) {
        if (d & S2_VALID)
            fail_msg("0x%08x: valid descriptor %llx, want absent", ipa, (unsigned long long)d);
        return;
    }
    EXPECT_EQ(d & S2_VALID, 1);
    EXPECT_EQ(d & 3, level == 3 ? S2_TABLE : S2_BLOCK);
    uint64_t size = 1ull << (level == 1 ? 30 : level == 2 ? 21 : 12);
    EXPECT_EQ(d & 0xfffffff000ull & ~(size - 1), ipa & ~(size - 1)); /* identity */
    EXPECT_EQ(d & S2_AF, S2_AF);
    EXPECT_EQ(d & S2_AP_RW, S2_AP_RW);
    EXPECT_EQ(d & (0xfu << 2), want == S2_NORMAL ? S2_ATTR_NORMAL : S2_ATTR_DEVICE);
    EXPECT_EQ(!!(d & S2_XN), want == S2_DEVICE);
}

static void test_ram_is_normal_memory_up_to_the_shim(void **state)
{
    check(0x40000000u, S2_NORMAL);
    check(0x40800000u, S2_NORMAL);
    check(0x7fdff000u, S2_NORMAL);
    check(0x7fdffffcu, S2_NORMAL);
}

static void test_the_shim_and_fiqmon_are_absent(void **state)
{
    check(0x7fe00000u, S2_ABSENT);
    check(0x7fffffffu, S2_ABSENT);
    check(0x0e000000u, S2_ABSENT);
    check(0x0effffffu, S2_ABSENT);
}

static void test_only_the_uart_page_is_absent_among_its_neighbours(void **state)
{
    check(0x09000000u, S2_ABSENT);
    check(0x09000ffcu, S2_ABSENT);
    check(0x08fff000u, S2_DEVICE);
    check(0x09001000u, S2_DEVICE);
    check(0x09010000u, S2_DEVICE); /* rtc */
    check(0x08000000u, S2_DEVICE); /* gic distributor */
    check(0x08010000u, S2_DEVICE); /* gic cpu interface */
    check(0x0a000000u, S2_DEVICE); /* virtio */
    check(0x0dfff000u, S2_DEVICE);
    check(0x0f000000u, S2_DEVICE);
}

static void test_unlisted_space_is_device(void **state)
{
    check(0x00000000u, S2_DEVICE);
    check(0x3f000000u, S2_DEVICE);
    check(0x80000000u, S2_DEVICE);
    check(0xfffff000u, S2_DEVICE);
}

static void test_tables_only_where_a_region_edge_falls(void **state)
{
    /* level 1, level 2 for each of the low two GiB, level 3 for the UART's 2 MiB */
    EXPECT_EQ(built, 4);
    unsigned level;
    walk(0x80000000u, &level);
    EXPECT_EQ(level, 1);
    walk(0x0e000000u, &level);
    EXPECT_EQ(level, 2);
    walk(0x09000000u, &level);
    EXPECT_EQ(level, 3);
}

static void test_too_few_tables_is_refused(void **state)
{
    EXPECT_EQ(stage2_build(pool, 3, POOL_PA, virt_map, N), 0);
    EXPECT_EQ(stage2_build(pool, 0, POOL_PA, virt_map, N), 0);
}

static void test_kind_at_takes_the_last_region_listed(void **state)
{
    EXPECT_EQ(stage2_kind_at(virt_map, N, 0x7fe00000u), S2_ABSENT);
    EXPECT_EQ(stage2_kind_at(virt_map, N, 0x7fdfffffu), S2_NORMAL);
    EXPECT_EQ(stage2_kind_at(virt_map, N, 0x3fffffffu), S2_DEVICE);
    EXPECT_EQ(stage2_kind_at(virt_map, 0, 0x40000000u), S2_DEVICE);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup(f, setup)
    const struct CMUnitTest tests[] = {
        T(test_ram_is_normal_memory_up_to_the_shim),
        T(test_the_shim_and_fiqmon_are_absent),
        T(test_only_the_uart_page_is_absent_among_its_neighbours),
        T(test_unlisted_space_is_device),
        T(test_tables_only_where_a_region_edge_falls),
        T(test_too_few_tables_is_refused),
        T(test_kind_at_takes_the_last_region_listed),
    };

    return cmocka_run_group_tests_name("hyp_stage2", tests, NULL, NULL);
}
