/* SPDX-License-Identifier: MIT */
/* One wire (platform->console_shared): while fiqmon waits, every byte from the wire is the
 * kernel's, in order, except a knock or GDB's opener; a candidate is held back only while
 * it may still be one, or until the line goes quiet; the session's end replays the
 * kernel's output. On the fake port. */
#include "expect.h"

#include "fake_port.h"
#include "fiqmon_features.h"
#include "knock.h"
#include "monitor.h"
#include "noise_gate.h"

static struct cpu_frame frame;

/* One FIQ with these bytes, as the platform takes it. On one wire the noise gate never
 * opens (the noise path would drop the kernel's input): every byte reaches the monitor. */
static void fiq(const char *s, size_t n)
{
    EXPECT_EQ(noise_gate.open, 0);
    for (size_t i = 0; i < n; i++)
        ring_put(&mon_rx, (uint8_t)s[i]);
    if (monitor_fiq_fast(true))
        monitor_fiq_full(&frame);
}

static void send(const char *s)
{
    fiq(s, strlen(s));
}

static const char *kernel_got(void)
{
    static char buf[4097];

    for (unsigned i = 0; i < fake.console_rx_len; i++)
        buf[i] = (char)fake.console_rx[i];
    buf[fake.console_rx_len] = '\0';
    return buf;
}

static int setup(void **state)
{
    fake_port_reset();
    fake.desc.console_shared = true;
    memset(&frame, 0, sizeof(frame));
    frame.cpsr = 0x93;
    monitor_init(KNOCK_MODE_MAGIC, &fiqmon_features);
    fake_output_reset();
    return 0;
}

static void test_plain_input_is_the_kernels_and_fiqmon_says_nothing(void **state)
{
    send("ls -l /proc\r");
    send("echo hi\r\n");
    EXPECT_STR_EQ(kernel_got(), "ls -l /proc\recho hi\r\n");
    EXPECT_STR_EQ(fake_output(), ""); /* no knock prompt on the kernel's console */
    EXPECT_EQ(monitor_state(), MON_WAITING);
    EXPECT_EQ(fake.console_held, false);
}

static void test_the_knock_enters_and_the_kernel_never_sees_it(void **state)
{
    send("abc" KNOCK_MAGIC);
    EXPECT_EQ(monitor_state(), MON_ACTIVE);
    EXPECT_STR_EQ(kernel_got(), "abc");
    EXPECT_CONTAINS(fake_output(), "fiqmon: entered by knock");
    send("pc\r"); /* the shell has the wire now */
    EXPECT_STR_EQ(kernel_got(), "abc");
}

static void test_a_knock_split_across_fiqs_still_enters(void **state)
{
    send("x$3");
    EXPECT_STR_EQ(kernel_got(), "x");
    EXPECT_EQ(fake.console_held, true);
    send("#3");
    send("3");
    EXPECT_EQ(monitor_state(), MON_ACTIVE);
    EXPECT_STR_EQ(kernel_got(), "x");
    EXPECT_EQ(fake.console_held, false);
}

static void test_a_candidate_that_fails_reaches_the_kernel_in_order(void **state)
{
    send("a$b");
    EXPECT_STR_EQ(kernel_got(), "a$b");
    send("$3#34"); /* a wrong checksum */
    EXPECT_STR_EQ(kernel_got(), "a$b$3#34");
    send("$$3#3x!");
    EXPECT_STR_EQ(kernel_got(), "a$b$3#34$$3#3x!");
    EXPECT_EQ(monitor_state(), MON_WAITING);
    EXPECT_EQ(fake.console_held, false);
}

static void test_a_lone_dollar_is_held_then_delivered_when_the_line_is_quiet(void **state)
{
    send("echo $");
    EXPECT_STR_EQ(kernel_got(), "echo ");
    EXPECT_EQ(fake.console_held, true);
    monitor_console_quiet(); /* the platform's quiet timer */
    EXPECT_STR_EQ(kernel_got(), "echo $");
    EXPECT_EQ(fake.console_held, false);
    send("HOME\r"); /* and the detector starts afresh */
    EXPECT_STR_EQ(kernel_got(), "echo $HOME\r");
}

static void test_gdbs_opener_opens_a_session_and_is_not_the_kernels(void **state)
{
    fake_rx_script_str("$D#44"); /* what GDB sends next, while the session polls */
    send("ok$?#3f");
    EXPECT_STR_EQ(fake_output(), "+$T02thread:01;#04+$OK#9a"); /* answered, detached */
    EXPECT_EQ(monitor_state(), MON_WAITING);
    EXPECT_STR_EQ(kernel_got(), "ok");
    EXPECT_EQ(fake.console_replays, 1); /* the kernel's output held meanwhile */
}

static void test_exit_replays_the_kernels_output_after_the_last_word(void **state)
{
    send(KNOCK_MAGIC);
    EXPECT_EQ(fake.console_replays, 0);
    send("pc\r");
    EXPECT_EQ(fake.console_replays, 0);
    send("exit\r");
    EXPECT_EQ(monitor_state(), MON_WAITING);
    EXPECT_EQ(fake.console_replays, 1);
    EXPECT_CONTAINS(fake_output(), "fiqmon: left; ");
    send("after\r");
    EXPECT_STR_EQ(kernel_got(), "after\r");
}

static void test_random_input_without_a_knock_reaches_the_kernel_exactly(void **state)
{
    static char in[4000];
    uint32_t x = 12345;

    for (size_t i = 0; i < sizeof(in) - 1; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        char c = (char)(x % 96 + 32); /* printable, with many '$' */
        in[i] = x % 7 == 0 ? '$' : c == '#' ? '3' : c; /* no '#': never a packet */
    }
    for (size_t i = 0; i < sizeof(in) - 1; i += 13)
        fiq(in + i, sizeof(in) - 1 - i < 13 ? sizeof(in) - 1 - i : 13);
    monitor_console_quiet();
    EXPECT_STR_EQ(kernel_got(), in);
    EXPECT_EQ(monitor_state(), MON_WAITING);
}

static void test_a_full_kernel_receiver_counts_what_it_lost(void **state)
{
    fake.console_rx_room = 3;
    send("abcdef");
    EXPECT_STR_EQ(kernel_got(), "abc");
    EXPECT_EQ(monitor_console_lost(), 3);
}

/* The same quiet line of noise that opens the gate on a separate debug port (test_monitor)
 * keeps it shut on one wire, after every FIQ, and the kernel gets each byte. */
static void test_the_noise_gate_never_opens_on_one_wire(void **state)
{
    send("a");
    for (int i = 0; i < 50; i++) {
        send("bcd");
        EXPECT_EQ(noise_gate.open, 0);
    }
    EXPECT_EQ(noise_gate.noise, 0);
    EXPECT_EQ(strlen(kernel_got()), 1 + 50 * 3);
}

/* A BREAK from the wire (the host's SysRq key): the kernel's, in order after the bytes
 * before it, including a knock candidate it ends; in a session it is nobody's. */
static void test_a_break_from_the_wire_reaches_the_kernel_in_order(void **state)
{
    send("a$3");
    monitor_console_break();
    send("t");
    EXPECT_EQ(fake.console_rx_len, 5);
    EXPECT_EQ(fake.console_rx[0], 'a');
    EXPECT_EQ(fake.console_rx[1], '$');
    EXPECT_EQ(fake.console_rx[2], '3');
    EXPECT_EQ(fake.console_rx[3], 0xff00); /* the fake's BREAK */
    EXPECT_EQ(fake.console_rx[4], 't');
    EXPECT_EQ(fake.console_held, false);
    send(KNOCK_MAGIC);
    EXPECT_EQ(monitor_state(), MON_ACTIVE);
    monitor_console_break();
    EXPECT_EQ(fake.console_rx_len, 5);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup(f, setup)
    const struct CMUnitTest tests[] = {
        T(test_plain_input_is_the_kernels_and_fiqmon_says_nothing),
        T(test_the_knock_enters_and_the_kernel_never_sees_it),
        T(test_a_knock_split_across_fiqs_still_enters),
        T(test_a_candidate_that_fails_reaches_the_kernel_in_order),
        T(test_a_lone_dollar_is_held_then_delivered_when_the_line_is_quiet),
        T(test_gdbs_opener_opens_a_session_and_is_not_the_kernels),
        T(test_exit_replays_the_kernels_output_after_the_last_word),
        T(test_random_input_without_a_knock_reaches_the_kernel_exactly),
        T(test_a_full_kernel_receiver_counts_what_it_lost),
        T(test_the_noise_gate_never_opens_on_one_wire),
        T(test_a_break_from_the_wire_reaches_the_kernel_in_order),
    };

    return cmocka_run_group_tests_name("console_mux", tests, NULL, NULL);
}
