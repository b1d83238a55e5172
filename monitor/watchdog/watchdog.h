/* SPDX-License-Identifier: MIT */
/* Hard-lockup watchdog: a kernel that still takes interrupts acknowledges its timer
 * interrupt within a tick; one whose timer interrupt stays pending at every sample for
 * `timeout` seconds is not taking interrupts at all. Each CPU's timer is its own: the
 * platform samples "is this CPU's kernel timer interrupt pending?" on that CPU, from a FIQ
 * of its own (a timer fiqmon owns); this decides, per CPU. */
#ifndef FIQMON_WATCHDOG_H
#define FIQMON_WATCHDOG_H

#include <stdbool.h>
#include <stdint.h>

#define WATCHDOG_SAMPLE_MS 100u
#define WATCHDOG_KMSG_LINES 10u /* the kernel log's tail in a lockup report */
#define WATCHDOG_MAX_CPUS 8u    /* as PSCI (psci.h) */

#ifndef WATCHDOG_DEFAULT_S
#define WATCHDOG_DEFAULT_S 0u /* off; production builds turn it on (docs/lockdown.md) */
#endif

/* One CPU's count: written only by that CPU's samples (reset by CPU 0 when it held them
 * all; due cleared by the report), so the CPUs need no lock or atomic between them (the
 * ARMv5 boards have none). */
struct watchdog_cpu {
    uint16_t pending_for; /* consecutive samples with the kernel's timer pending */
    bool reported;        /* this lockup was reported; quiet until it clears */
    volatile bool due;    /* set once per lockup (reported), by its CPU; the report clears it */
    uint32_t samples;     /* taken on it (it is watched) */
};

struct watchdog {
    uint16_t timeout_s;   /* 0: off */
    bool halt_on_lockup;  /* after the report, stop the kernel in the shell (`watchdog halt`) */
    uint32_t lockups;     /* CPUs reported wedged since boot */
    struct watchdog_cpu cpu[WATCHDOG_MAX_CPUS];
};

extern struct watchdog mon_watchdog;

/* The kernel was held on purpose (a session), or the setting changed: every CPU counts
 * afresh. */
void watchdog_restart(struct watchdog *w);

/* One sample of CPU cpu, on that CPU. Returns true when a lockup report naming it is due
 * now (the CPU is then due). */
bool watchdog_sample(struct watchdog *w, unsigned cpu, bool kernel_timer_pending);

/* The CPUs (a bit each) the report due now names. A CPU other than the monitor's waits,
 * stopped for it, until watchdog_reported (which counts them as lockups). */
uint32_t watchdog_due(const struct watchdog *w);
void watchdog_reported(struct watchdog *w, uint32_t cpus);

/* A new setting (0: off): every CPU counts afresh and reports again. */
void watchdog_set(struct watchdog *w, uint16_t timeout_s);

#endif
