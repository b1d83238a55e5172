/* SPDX-License-Identifier: MIT */
/* The last watchdog report across resets: kept as written, counted per reset, cut when too
 * long, and forgotten when torn, corrupted or absurd. */
#include "expect.h"

#include <string.h>

#include "console.h"
#include "fake_port.h"
#include "last_report.h"

static struct last_report rec;

static void keep(const char *s, size_t n)
{
    last_report_append(&rec, s, n);
}

static int setup(void **state)
{
    (void)state;
    fake_port_reset();
    memset(&rec, 0, sizeof(rec));
    return 0;
}

/* A report written the way the watchdog writes it: everything printed is copied. */
static void write_report(const char *text)
{
    last_report_begin(&rec);
    con_set_copy(keep);
    con_puts(text);
    con_set_copy(NULL);
    last_report_end(&rec);
}

static const char *show(int want_rc)
{
    fake_output_reset();
    int rc = last_report_show(&rec);
    EXPECT_EQ(rc, want_rc);
    return fake_output_text();
}

static void test_cold_memory_holds_no_report(void **state)
{
    last_report_boot(&rec);
    EXPECT_STR_EQ(show(-1), "error: no watchdog report saved (none since power-on)\n");
    memset(&rec, 0xa5, sizeof(rec)); /* uninitialised RAM on a real cold boot */
    last_report_boot(&rec);
    EXPECT_STR_EQ(show(-1), "error: no watchdog report saved (none since power-on)\n");
}

static void test_a_report_is_shown_as_written_and_still_reaches_the_port(void **state)
{
    write_report("fiqmon: watchdog: hard lockup\npc=c0101234\n");
    EXPECT_STR_EQ(fake_output_text(), "fiqmon: watchdog: hard lockup\npc=c0101234\n");
    EXPECT_STR_EQ(show(0), "fiqmon: last watchdog report, from this boot:\n"
                           "fiqmon: watchdog: hard lockup\npc=c0101234\n");
}

static void test_each_reset_is_counted(void **state)
{
    write_report("lockup A\n");
    last_report_boot(&rec);
    EXPECT_STR_EQ(show(0), "fiqmon: last watchdog report, from before 1 reset:\nlockup A\n");
    last_report_boot(&rec);
    EXPECT_STR_EQ(show(0), "fiqmon: last watchdog report, from before 2 resets:\nlockup A\n");
    write_report("lockup B\n"); /* a newer report replaces it */
    EXPECT_STR_EQ(show(0), "fiqmon: last watchdog report, from this boot:\nlockup B\n");
}

static void test_a_long_report_keeps_its_start_and_says_how_much_was_cut(void **state)
{
    static char text[LAST_REPORT_SIZE + 101];

    memset(text, 'x', sizeof(text) - 1);
    text[0] = 'S';
    write_report(text);
    last_report_boot(&rec);
    const char *out = show(0);
    EXPECT_TRUE(strncmp(out, "fiqmon: last watchdog report, from before 1 reset:\nSxxx", 55) == 0,
                "%s", out);
    EXPECT_CONTAINS(out, "x\nfiqmon: (100 more bytes did not fit in 1536)\n");
    EXPECT_EQ(strlen(out), strlen("fiqmon: last watchdog report, from before 1 reset:\n") +
                               LAST_REPORT_SIZE +
                               strlen("\nfiqmon: (100 more bytes did not fit in 1536)\n"));
}

static void test_torn_corrupted_or_absurd_records_are_forgotten(void **state)
{
    /* reset while the report was being written */
    write_report("complete\n");
    last_report_begin(&rec);
    last_report_append(&rec, "half", 4);
    last_report_boot(&rec);
    show(-1);
    /* one bit of the text flipped */
    write_report("complete\n");
    rec.text[3] ^= 0x10;
    last_report_boot(&rec);
    show(-1);
    /* a header field changed */
    write_report("complete\n");
    rec.resets = 7;
    last_report_boot(&rec);
    show(-1);
    /* a length beyond the buffer is never used to compute anything */
    write_report("complete\n");
    rec.len = LAST_REPORT_SIZE + 1;
    last_report_boot(&rec);
    show(-1);
    EXPECT_EQ(rec.len, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_cold_memory_holds_no_report, setup),
        cmocka_unit_test_setup(test_a_report_is_shown_as_written_and_still_reaches_the_port, setup),
        cmocka_unit_test_setup(test_each_reset_is_counted, setup),
        cmocka_unit_test_setup(test_a_long_report_keeps_its_start_and_says_how_much_was_cut, setup),
        cmocka_unit_test_setup(test_torn_corrupted_or_absurd_records_are_forgotten, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
