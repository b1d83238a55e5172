/* SPDX-License-Identifier: MIT */
#include "watchdog.h"

struct watchdog mon_watchdog = {.timeout_s = WATCHDOG_DEFAULT_S};

bool watchdog_sample(struct watchdog *w, unsigned cpu, bool kernel_timer_pending)
{
    struct watchdog_cpu *c;

    if (cpu >= WATCHDOG_MAX_CPUS)
        return false;
    c = &w->cpu[cpu];
    c->samples++;
    if (!w->timeout_s || !kernel_timer_pending) {
        c->pending_for = 0;
        c->reported = false;
        return false;
    }
    if (c->pending_for < UINT16_MAX)
        c->pending_for++;
    if (c->reported || (uint32_t)c->pending_for * WATCHDOG_SAMPLE_MS < w->timeout_s * 1000u)
        return false;
    c->reported = true;
    c->due = true;
    return true;
}

uint32_t watchdog_due(const struct watchdog *w)
{
    uint32_t due = 0;

    for (unsigned i = 0; i < WATCHDOG_MAX_CPUS; i++)
        due |= (uint32_t)w->cpu[i].due << i;
    return due;
}

void watchdog_reported(struct watchdog *w, uint32_t cpus)
{
    for (unsigned i = 0; i < WATCHDOG_MAX_CPUS; i++)
        if ((cpus >> i & 1u) && w->cpu[i].due) {
            w->cpu[i].due = false;
            w->lockups++;
        }
}

void watchdog_set(struct watchdog *w, uint16_t timeout_s)
{
    w->timeout_s = timeout_s;
    for (unsigned i = 0; i < WATCHDOG_MAX_CPUS; i++) {
        w->cpu[i].pending_for = 0;
        w->cpu[i].reported = false;
    }
}

void watchdog_restart(struct watchdog *w)
{
    for (unsigned i = 0; i < WATCHDOG_MAX_CPUS; i++)
        w->cpu[i].pending_for = 0;
}
