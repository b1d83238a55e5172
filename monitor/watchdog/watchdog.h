/* SPDX-License-Identifier: MIT */
/* Hard-lockup watchdog: a kernel that still takes interrupts acknowledges its timer
 * interrupt within a tick; one whose timer interrupt stays pending at every sample for
 * `timeout` seconds is not taking interrupts at all. The platform samples "is the kernel's
 * timer interrupt pending?" from a FIQ of its own (a timer fiqmon owns); this decides. */
#ifndef FIQMON_WATCHDOG_H
#define FIQMON_WATCHDOG_H

#include <stdbool.h>
#include <stdint.h>

#define WATCHDOG_SAMPLE_MS 100u
#define WATCHDOG_KMSG_LINES 10u /* the kernel log's tail in a lockup report */

#ifndef WATCHDOG_DEFAULT_S
#define WATCHDOG_DEFAULT_S 0u /* off; production builds turn it on (docs/lockdown.md) */
#endif

struct watchdog {
    uint16_t timeout_s;   /* 0: off */
    uint16_t pending_for; /* consecutive samples with the kernel's timer pending */
    bool reported;        /* this lockup was reported; quiet until it clears */
    bool halt_on_lockup;  /* after the report, stop the kernel in the shell (`watchdog halt`) */
    uint32_t lockups;     /* reports made since boot */
};

extern struct watchdog mon_watchdog;

/* The kernel was held on purpose (a session): count afresh. */
void watchdog_restart(struct watchdog *w);

/* One sample. Returns true when a lockup report is due now. */
bool watchdog_sample(struct watchdog *w, bool kernel_timer_pending);

#endif
