/* SPDX-License-Identifier: MIT */
/* The watchdog's decision, per CPU: each CPU's samples count for it alone; a wedged CPU is
 * named once per lockup while the others, ticking, are not; the report clears only the
 * CPUs it named; a new setting or a held kernel counts afresh. */
#include "expect.h"

#include <string.h>

#include "watchdog.h"

static struct watchdog w;

static int setup(void **state)
{
    (void)state;
    memset(&w, 0, sizeof(w));
    watchdog_set(&w, 1); /* 1 s: the 10th pending sample in a row reports */
    return 0;
}

/* n rounds of samples: every CPU in `cpus` samples once a round, the ones in `stuck`
 * pending; returns the CPUs whose report fell due in the last round. */
static uint32_t rounds(unsigned n, unsigned cpus, uint32_t stuck)
{
    uint32_t due = 0;

    for (unsigned r = 0; r < n; r++) {
        due = 0;
        for (unsigned c = 0; c < cpus; c++)
            if (watchdog_sample(&w, c, stuck >> c & 1u))
                due |= 1u << c;
    }
    return due;
}

static void test_one_wedged_cpu_of_four_is_named_alone(void **state)
{
    (void)state;
    EXPECT_EQ(rounds(9, 4, 1u << 2), 0);
    EXPECT_EQ(watchdog_due(&w), 0);
    EXPECT_EQ(rounds(1, 4, 1u << 2), 1u << 2);
    EXPECT_EQ(watchdog_due(&w), 1u << 2);
    /* reported once: quiet while it stays wedged */
    EXPECT_EQ(rounds(50, 4, 1u << 2), 0);
    EXPECT_EQ(watchdog_due(&w), 1u << 2); /* still waiting for the report */
    watchdog_reported(&w, 1u << 2);
    EXPECT_EQ(watchdog_due(&w), 0);
    EXPECT_EQ(w.lockups, 1);
    EXPECT_EQ(w.cpu[0].samples, 60);
    EXPECT_EQ(w.cpu[2].samples, 60);
}

static void test_two_cpus_wedged_at_different_times(void **state)
{
    (void)state;
    EXPECT_EQ(rounds(5, 4, 1u << 1), 0);
    EXPECT_EQ(rounds(5, 4, 1u << 1 | 1u << 3), 1u << 1);
    EXPECT_EQ(rounds(5, 4, 1u << 1 | 1u << 3), 1u << 3);
    EXPECT_EQ(watchdog_due(&w), 1u << 1 | 1u << 3);
    /* a report that named CPU 1 only leaves CPU 3 due */
    watchdog_reported(&w, 1u << 1);
    EXPECT_EQ(watchdog_due(&w), 1u << 3);
    watchdog_reported(&w, ~0u);
    EXPECT_EQ(watchdog_due(&w), 0);
    EXPECT_EQ(w.lockups, 2);
}

static void test_a_cpu_that_ticks_once_counts_afresh(void **state)
{
    (void)state;
    EXPECT_EQ(rounds(9, 2, 1u << 1), 0);
    EXPECT_EQ(rounds(1, 2, 0), 0); /* it took its tick */
    EXPECT_EQ(rounds(9, 2, 1u << 1), 0);
    EXPECT_EQ(rounds(1, 2, 1u << 1), 1u << 1);
    /* it recovers, then wedges again: a second report */
    watchdog_reported(&w, 1u << 1);
    EXPECT_EQ(rounds(1, 2, 0), 0);
    EXPECT_EQ(rounds(10, 2, 1u << 1), 1u << 1);
    watchdog_reported(&w, 1u << 1);
    EXPECT_EQ(w.lockups, 2);
}

static void test_restart_and_set_count_every_cpu_afresh(void **state)
{
    (void)state;
    EXPECT_EQ(rounds(9, 3, 7), 0);
    watchdog_restart(&w); /* the kernel was held on purpose */
    EXPECT_EQ(rounds(9, 3, 7), 0);
    EXPECT_EQ(rounds(1, 3, 7), 7);
    watchdog_reported(&w, 7);
    watchdog_set(&w, 2); /* a new setting reports a lockup still going on again */
    EXPECT_EQ(rounds(19, 3, 1), 0);
    EXPECT_EQ(rounds(1, 3, 1), 1);
}

static void test_off_no_report_and_no_cpu_beyond_the_table(void **state)
{
    (void)state;
    watchdog_set(&w, 0);
    EXPECT_EQ(rounds(100, 4, 15), 0);
    EXPECT_EQ(watchdog_due(&w), 0);
    watchdog_set(&w, 1);
    for (unsigned i = 0; i < 20; i++)
        EXPECT_EQ(watchdog_sample(&w, WATCHDOG_MAX_CPUS, true), false);
    EXPECT_EQ(watchdog_due(&w), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_one_wedged_cpu_of_four_is_named_alone, setup),
        cmocka_unit_test_setup(test_two_cpus_wedged_at_different_times, setup),
        cmocka_unit_test_setup(test_a_cpu_that_ticks_once_counts_afresh, setup),
        cmocka_unit_test_setup(test_restart_and_set_count_every_cpu_afresh, setup),
        cmocka_unit_test_setup(test_off_no_report_and_no_cpu_beyond_the_table, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
