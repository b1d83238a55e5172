/* SPDX-License-Identifier: MIT */
/* The boot countdown on the fake port: only the knock (or GDB's opener) stops it, noise is
 * counted and ignored, and it ends on time however fast the bytes come. Then the payload
 * boots (or waits for `exit`) the way the service FIQ after the countdown does it. */
#include "expect.h"

#include <stdio.h>
#include <stdlib.h>

#include "countdown.h"
#include "crc32.h"
#include "fake_port.h"
#include "fiqmon_features.h"
#include "knock.h"
#include "monitor.h"
#include "noise_gate.h"

#define PROMPT "fiqmon> "
#define BASE FAKE_RAM_BASE
#define PAYLOAD_AT (BASE + 0x8000u)
#define LOAD_AT (BASE + 0x4000u)
#define ENTRY (LOAD_AT + 8u)
#define IDLE_PC 0x00008a4cu
#define NOISE_BYTES (1024u * 1024u)

static struct cpu_frame frame;
static uint8_t *flood; /* NOISE_BYTES of seeded noise, no knock or GDB opener in it */

/* A bootable bare-metal payload in the fake RAM (the header mkimage.py writes). */
static void put_payload(void)
{
    static const uint8_t image[16] = {0xfe, 0xff, 0xff, 0xea, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    struct payload_header h = {
        .magic = PAYLOAD_MAGIC,
        .version = PAYLOAD_VERSION,
        .header_size = PAYLOAD_HEADER_SIZE,
        .kind = PAYLOAD_BARE,
        .load_addr = LOAD_AT,
        .entry = ENTRY,
        .image_size = sizeof(image),
    };

    h.data_crc = crc32_update(0, image, sizeof(image));
    h.header_crc = crc32_update(0, (const uint8_t *)&h, PAYLOAD_HEADER_SIZE - 4);
    fake_mem_write(PAYLOAD_AT, &h, sizeof(h));
    fake_mem_write(PAYLOAD_AT + PAYLOAD_HEADER_SIZE, image, sizeof(image));
    fake.desc.boot.payload_addr = PAYLOAD_AT;
}

static int setup_mode(int mode)
{
    fake_port_reset();
    memset(&mon_stats, 0, sizeof(mon_stats));
    memset(&frame, 0, sizeof(frame));
    frame.pc = IDLE_PC; /* fiqmon's idle loop: what the service FIQ interrupts */
    frame.cpsr = 0x60000093u;
    monitor_init(mode, &fiqmon_features);
    put_payload();
    fake.clock_ms = 5000; /* any start: only differences count */
    fake.clock_step_ms = 1;
    return 0;
}

static int setup(void **state)
{
    return setup_mode(KNOCK_MODE_MAGIC);
}

/* The service FIQ raised at the end of the countdown (or any FIQ later): fast path, then
 * the full path if asked. Returns true if the full path ran. */
static bool service_fiq(void)
{
    if (!monitor_fiq_fast(false))
        return false;
    monitor_fiq_full(&frame);
    return true;
}

/* Bytes arriving as UART FIQs after the boot, 16 per FIQ, through the noise gate the
 * platform's noise path keeps (as tests/unit/test_monitor.c does). */
static void send_bytes(const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i += 16) {
        size_t len = n - i < 16 ? n - i : 16, j = 0;
        if (noise_gate.open) {
            for (; j < len && knock_quiet_byte(b[i + j]); j++)
                noise_gate.noise++;
            if (j == len)
                continue;
        }
        for (; j < len; j++)
            ring_put(&mon_rx, b[i + j]);
        if (monitor_fiq_fast(true))
            monitor_fiq_full(&frame);
    }
}

static void send(const char *s)
{
    send_bytes((const uint8_t *)s, strlen(s));
}

/* Every countdown line it printed, "\r<what>: S.T s ", from ms down. */
static const char *countdown_lines(const char *what, uint32_t ms)
{
    static char out[4096];
    size_t n = 0;

    for (uint32_t t = (ms + 99) / 100; t; t--)
        n += (size_t)snprintf(out + n, sizeof(out) - n, "\r%s: %u.%u s ", what, t / 10, t % 10);
    return out;
}

static uint32_t noise_counted(void)
{
    return monitor_noise_bytes();
}

/* --- the tests ------------------------------------------------------------------------------ */

static void test_without_input_it_counts_down_and_the_payload_boots(void **state)
{
    EXPECT_EQ(boot_countdown(1000), false);
    EXPECT_STR_EQ(fake_output(),
                  tfmt("%s\r\n", countdown_lines("Type $3#33 to stay in fiqmon", 1000)));
    EXPECT_TRUE(fake.clock_ms - 5000 >= 1000 && fake.clock_ms - 5000 <= 1003,
                "the countdown took %u ms", (unsigned)(fake.clock_ms - 5000));
    fake_output_reset();
    EXPECT_EQ(service_fiq(), true);
    EXPECT_CONTAINS(fake_output(), tfmt("fiqmon: booting bare-metal image at 0x%08x", ENTRY));
    EXPECT_EQ(frame.pc, ENTRY);
    EXPECT_EQ(monitor_state(), MON_WAITING);
    EXPECT_EQ(monitor_kernel_started(), true);
}

static void test_zero_delay_boots_at_once_and_says_nothing(void **state)
{
    EXPECT_EQ(boot_countdown(0), false);
    EXPECT_STR_EQ(fake_output(), "");
    EXPECT_EQ(fake.rx_polls, 0);
    EXPECT_EQ(service_fiq(), true);
    EXPECT_EQ(frame.pc, ENTRY);
}

/* 1 MiB of noise, every byte value, arriving as fast as the port can poll: the countdown
 * still ends on time, nothing enters, the payload boots, and the rest of the flood (now
 * FIQs under the running kernel) is noise too; every byte is counted. Then a knock. */
static void test_a_flood_of_noise_neither_stops_nor_delays_the_boot(void **state)
{
    size_t rest_len;
    const uint8_t *rest;

    fake_rx_stream(flood, NOISE_BYTES, 16);
    EXPECT_EQ(boot_countdown(1000), false);
    EXPECT_TRUE(fake.clock_ms - 5000 <= 1003, "the countdown took %u ms",
                (unsigned)(fake.clock_ms - 5000));
    rest = fake_rx_stream_stop(&rest_len);
    EXPECT_TRUE(rest_len > NOISE_BYTES / 2, "the countdown took %zu bytes",
                (size_t)(NOISE_BYTES - rest_len));
    EXPECT_STR_EQ(fake_output(),
                  tfmt("%s\r\n", countdown_lines("Type $3#33 to stay in fiqmon", 1000)));
    fake_output_reset();
    EXPECT_EQ(service_fiq(), true);
    EXPECT_EQ(frame.pc, ENTRY);
    send_bytes(rest, rest_len);
    EXPECT_EQ(monitor_state(), MON_WAITING);
    EXPECT_NOT_CONTAINS(fake_output(), "fiqmon: entered");
    send(KNOCK_MAGIC);
    EXPECT_EQ(monitor_state(), MON_ACTIVE);
    EXPECT_CONTAINS(fake_output(), "fiqmon: entered by knock");
    EXPECT_EQ(noise_counted(), NOISE_BYTES);
    EXPECT_EQ(monitor_rx_bytes(), NOISE_BYTES + 5);
    EXPECT_EQ(mon_rx.drops, 0);
}

/* The knock in the countdown, after noise on the same line: the boot waits, the shell's
 * line is empty (nothing of the knock or the noise in it), exit boots the payload. */
static void test_the_knock_stops_the_countdown_and_exit_boots_the_payload(void **state)
{
    fake_rx_script_str("x\r\n$3#\xff");
    fake_rx_script_str("abc $3#");
    fake_rx_script_str("33");
    EXPECT_EQ(boot_countdown(1000), true);
    EXPECT_EQ(fake_rx_pending(), 0);
    EXPECT_TRUE(ends_with(fake_output(), "\r\n"), "%s", expect_escape(fake_output()));
    EXPECT_NOT_CONTAINS(fake_output(), "to enter the debugger"); /* no waiting prompts */
    EXPECT_EQ(noise_counted(), 11);
    fake_output_reset();
    EXPECT_EQ(service_fiq(), true);
    EXPECT_STR_EQ(fake_output(),
                  tfmt("\r\nfiqmon: entered by boot delay at pc=%08x (svc)\r\n"
                       "fiqmon: no kernel started: the payload waits ('boot' or 'exit' starts "
                       "it)\r\n" PROMPT,
                       IDLE_PC));
    EXPECT_EQ(frame.pc, IDLE_PC);
    fake_output_reset();
    send("pc\r");
    EXPECT_STR_EQ(fake_output(), tfmt("pc\r\npc=%08x cpsr=60000093 (svc nZCv I)\r\n" PROMPT,
                                      IDLE_PC));
    fake_output_reset();
    send("exit\r");
    EXPECT_STR_EQ(fake_output(),
                  tfmt("exit\r\nfiqmon: booting bare-metal image at 0x%08x (r0=0 r1=00000000 "
                       "r2=00000000)\r\nfiqmon: left; the payload runs\r\n",
                       ENTRY));
    EXPECT_EQ(frame.pc, ENTRY);
    EXPECT_EQ(monitor_state(), MON_WAITING);
    /* the next session knows a kernel runs */
    send(KNOCK_MAGIC);
    fake_output_reset();
    send("exit\r");
    EXPECT_STR_EQ(fake_output(), "exit\r\nfiqmon: left; the kernel runs on\r\n");
}

static void test_boot_from_the_held_shell_also_counts_as_started(void **state)
{
    fake_rx_script_str(KNOCK_MAGIC);
    EXPECT_EQ(boot_countdown(500), true);
    service_fiq();
    EXPECT_EQ(monitor_boot_held(), true);
    send("boot\r");
    EXPECT_EQ(frame.pc, ENTRY);
    EXPECT_EQ(monitor_boot_held(), false);
    EXPECT_EQ(monitor_kernel_started(), true);
}

static void test_without_a_kernel_exit_says_fiqmon_idles(void **state)
{
    send(KNOCK_MAGIC);
    fake_output_reset();
    send("exit\r");
    EXPECT_STR_EQ(fake_output(), "exit\r\nfiqmon: left; no kernel was started: fiqmon idles\r\n");
}

/* A knock begun in the countdown and finished after the boot still enters: the detector
 * is not reset at the hand-off, and its partial bytes are not lost from the noise count. */
static void test_a_knock_across_the_end_of_the_countdown_still_counts(void **state)
{
    fake_rx_script_str("zz$3#");
    EXPECT_EQ(boot_countdown(200), false);
    service_fiq();
    EXPECT_EQ(frame.pc, ENTRY);
    fake_output_reset();
    send("33");
    EXPECT_EQ(monitor_state(), MON_ACTIVE);
    EXPECT_CONTAINS(fake_output(), "fiqmon: entered by knock");
    EXPECT_EQ(noise_counted(), 2);
}

static void test_a_noisy_line_ending_in_cr_runs_nothing(void **state)
{
    fake_rx_script_str("reboot\r\n");
    fake_rx_script_str("exit\rhelp\n");
    EXPECT_EQ(boot_countdown(300), false);
    EXPECT_EQ(mon_stats.commands, 0);
    EXPECT_EQ(noise_counted(), 18);
    service_fiq();
    EXPECT_EQ(frame.pc, ENTRY);
    EXPECT_EQ(mon_stats.commands, 0);
}

/* GDB connecting at power-on: its opener starts a session, with the payload booted and
 * stopped at its first instruction; the rest of the packet is not lost to a shell. */
static void test_gdbs_opener_boots_the_payload_stopped_for_gdb(void **state)
{
    static const char body[] = "qSupported:multiprocess+;swbreak+";
    unsigned sum = 0;

    for (const char *p = body; *p; p++)
        sum += (uint8_t)*p;
    fake_rx_script_str("+");
    fake_rx_script_str(tfmt("$%s#%02x", body, sum & 0xffu));
    EXPECT_EQ(boot_countdown(1000), true);
    EXPECT_EQ(monitor_kernel_started(), false);
    /* what GDB sends next, while the stub holds the CPU (it polls the port) */
    fake_rx_script_str("+$?#3f");
    fake_rx_script_str("+$pf#d6");
    fake_rx_script_str("+$D#44");
    fake_output_reset();
    EXPECT_EQ(service_fiq(), true);
    EXPECT_EQ(frame.pc, ENTRY); /* booted, and held before its first instruction */
    EXPECT_EQ(monitor_kernel_started(), true);
    EXPECT_EQ(monitor_boot_held(), false);
    /* nothing but the stub's ack and its answers (GDB would read a boot line's '-' as a
     * NAK): the opener, the stop reason, the pc (register 15, little-endian) at the
     * payload's entry, then detach */
    const char *out = fake_output();
    EXPECT_TRUE(starts_with(out, "+$PacketSize="), "%s", expect_escape(out));
    EXPECT_CONTAINS(out, "$T02thread:01;#");
    EXPECT_CONTAINS(out, tfmt("$%02x%02x%02x%02x#", ENTRY & 0xff, ENTRY >> 8 & 0xff,
                              ENTRY >> 16 & 0xff, ENTRY >> 24));
    EXPECT_CONTAINS(out, "$OK#9a");
    EXPECT_EQ(monitor_state(), MON_WAITING); /* detached: the payload runs */
}

static int setup_return(void **state)
{
    return setup_mode(KNOCK_MODE_RETURN);
}

static int setup_any(void **state)
{
    return setup_mode(KNOCK_MODE_ANY_FIQ);
}

/* Mode 0: Return is the knock, so it stops the countdown; its LF runs no empty line. */
static void test_return_mode_stops_on_return(void **state)
{
    fake_rx_script_str("$3#33 abc\r\n");
    EXPECT_EQ(boot_countdown(1000), true);
    EXPECT_TRUE(starts_with(fake_output(), "\rHit <return> to stay in fiqmon: 1.0 s "), "%s",
                expect_escape(fake_output()));
    service_fiq();
    fake_output_reset();
    send("pc\r");
    EXPECT_TRUE(starts_with(fake_output(), "pc\r\npc="), "%s", expect_escape(fake_output()));
    EXPECT_EQ(mon_stats.commands, 1);
}

/* Mode -1 (a dedicated button): any byte stops it, and is not typed into the shell. */
static void test_any_fiq_mode_stops_on_any_byte(void **state)
{
    fake_rx_script_str("q");
    EXPECT_EQ(boot_countdown(1000), true);
    EXPECT_TRUE(starts_with(fake_output(), "\rHit any key to stay in fiqmon: 1.0 s "), "%s",
                expect_escape(fake_output()));
    service_fiq();
    EXPECT_EQ(monitor_state(), MON_ACTIVE);
    fake_output_reset();
    send("pc\r");
    EXPECT_TRUE(starts_with(fake_output(), "pc\r\npc="), "%s", expect_escape(fake_output()));
}

static void make_flood(void)
{
    uint32_t x = 0x2545f491u;

    flood = malloc(NOISE_BYTES);
    for (size_t i = 0; i < NOISE_BYTES; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        flood[i] = (uint8_t)(x >> 24);
    }
    /* after a '$', never the first byte of a knock or a GDB opener's body */
    for (size_t i = 0; i + 1 < NOISE_BYTES; i++)
        if (flood[i] == '$' && (flood[i + 1] == '3' || flood[i + 1] == '?' || flood[i + 1] == 'q'))
            flood[i + 1] = '4';
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_without_input_it_counts_down_and_the_payload_boots, setup),
        cmocka_unit_test_setup(test_zero_delay_boots_at_once_and_says_nothing, setup),
        cmocka_unit_test_setup(test_a_flood_of_noise_neither_stops_nor_delays_the_boot, setup),
        cmocka_unit_test_setup(test_the_knock_stops_the_countdown_and_exit_boots_the_payload,
                               setup),
        cmocka_unit_test_setup(test_boot_from_the_held_shell_also_counts_as_started, setup),
        cmocka_unit_test_setup(test_without_a_kernel_exit_says_fiqmon_idles, setup),
        cmocka_unit_test_setup(test_a_knock_across_the_end_of_the_countdown_still_counts, setup),
        cmocka_unit_test_setup(test_a_noisy_line_ending_in_cr_runs_nothing, setup),
        cmocka_unit_test_setup(test_gdbs_opener_boots_the_payload_stopped_for_gdb, setup),
        cmocka_unit_test_setup(test_return_mode_stops_on_return, setup_return),
        cmocka_unit_test_setup(test_any_fiq_mode_stops_on_any_byte, setup_any),
    };

    make_flood();
    return cmocka_run_group_tests_name("boot countdown", tests, NULL, NULL);
}
