/* SPDX-License-Identifier: MIT */
/* The fake platform itself: the other tests rely on it keeping the port.h contract. */
#include "expect.h"

#include "fake_port.h"
#include "monitor.h"

static int setup(void **state)
{
    fake_port_reset();
    return 0;
}

static void test_accesses_are_little_endian_in_every_width(void **state)
{
    uint32_t v = 0;

    fake_mem_write(FAKE_RAM_BASE + 0x10, "\x11\x22\x33\x44", 4);
    EXPECT_EQ(port_mem_read(FAKE_RAM_BASE + 0x10, 4, &v), true);
    EXPECT_EQ(v, 0x44332211u);
    EXPECT_EQ(port_mem_read(FAKE_RAM_BASE + 0x12, 2, &v), true);
    EXPECT_EQ(v, 0x4433u);
    EXPECT_EQ(port_mem_read(FAKE_RAM_BASE + 0x13, 1, &v), true);
    EXPECT_EQ(v, 0x44u);
    EXPECT_EQ(port_mem_write(FAKE_RAM_BASE + 0x10, 2, 0xbeef), true);
    EXPECT_TRUE(memcmp(fake_mem(FAKE_RAM_BASE + 0x10), "\xef\xbe\x33\x44", 4) == 0,
                "a halfword write changed more or less than two bytes");
}

static void test_faulting_accesses_change_nothing(void **state)
{
    static const struct {
        uint32_t addr;
        unsigned width;
    } bad[] = {
        {FAKE_RAM_BASE - 1, 1},                 /* below */
        {FAKE_RAM_BASE - 2, 4},                 /* straddles the start */
        {FAKE_RAM_BASE + FAKE_RAM_SIZE - 2, 4}, /* straddles the end */
        {FAKE_RAM_BASE + FAKE_RAM_SIZE, 1},     /* above */
        {0xfffffffe, 4},                        /* would wrap */
        {FAKE_RAM_BASE + 0x103, 2},             /* touches the fault range */
        {FAKE_RAM_BASE + 0x100, 3},             /* no such width */
    };

    fake_mem_add_fault(FAKE_RAM_BASE + 0x104, 4);
    memset(fake_mem(FAKE_RAM_BASE + 0x100), 0x5a, 0x10);
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        uint32_t v = 0x12345678u;
        EXPECT_TRUE(!port_mem_read(bad[i].addr, bad[i].width, &v) && v == 0x12345678u,
                    "read of %u at 0x%08x", bad[i].width, (unsigned)bad[i].addr);
        EXPECT_TRUE(!port_mem_write(bad[i].addr, bad[i].width, 0), "write of %u at 0x%08x",
                    bad[i].width, (unsigned)bad[i].addr);
    }
    for (unsigned i = 0; i < 0x10; i++)
        EXPECT_EQ(*fake_mem(FAKE_RAM_BASE + 0x100 + i), 0x5a);
    EXPECT_EQ(fake.reads[1] + fake.reads[2] + fake.reads[4], 0);
}

static void test_output_is_captured_with_and_without_cr(void **state)
{
    port_putc('a');
    port_putc('\r');
    port_putc('\n');
    EXPECT_STR_EQ(fake_output(), "a\r\n");
    EXPECT_STR_EQ(fake_output_text(), "a\n");
    fake_output_reset();
    EXPECT_STR_EQ(fake_output(), "");
}

static void test_rx_poll_delivers_one_scripted_chunk_per_call(void **state)
{
    ring_init(&mon_rx);
    fake_rx_script_str("ab");
    fake_rx_script_str("c");
    port_rx_poll();
    EXPECT_EQ(ring_count(&mon_rx), 2);
    port_rx_poll();
    EXPECT_EQ(ring_get(&mon_rx), 'a');
    EXPECT_EQ(ring_get(&mon_rx), 'b');
    EXPECT_EQ(ring_get(&mon_rx), 'c');
    EXPECT_EQ(fake_rx_pending(), 0);
}

static void reboot_now(void *arg)
{
    *(int *)arg = 1;
    port_reboot();
}

static void no_reboot(void *arg)
{
    *(int *)arg = 2;
}

static void test_reboot_jumps_back_to_the_test(void **state)
{
    int ran = 0;

    EXPECT_EQ(fake_expect_reboot(reboot_now, &ran), true);
    EXPECT_EQ(ran, 1);
    EXPECT_EQ(fake_expect_reboot(no_reboot, &ran), false);
    EXPECT_EQ(ran, 2);
    EXPECT_EQ(fake.reboots, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_accesses_are_little_endian_in_every_width, setup),
        cmocka_unit_test_setup(test_faulting_accesses_change_nothing, setup),
        cmocka_unit_test_setup(test_output_is_captured_with_and_without_cr, setup),
        cmocka_unit_test_setup(test_rx_poll_delivers_one_scripted_chunk_per_call, setup),
        cmocka_unit_test_setup(test_reboot_jumps_back_to_the_test, setup),
    };

    return cmocka_run_group_tests_name("fake_port", tests, NULL, NULL);
}
