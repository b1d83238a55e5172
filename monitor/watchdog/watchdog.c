/* SPDX-License-Identifier: MIT */
#include "watchdog.h"

struct watchdog mon_watchdog = {.timeout_s = WATCHDOG_DEFAULT_S};

bool watchdog_sample(struct watchdog *w, bool kernel_timer_pending)
{
    if (!w->timeout_s || !kernel_timer_pending) {
        w->pending_for = 0;
        w->reported = false;
        return false;
    }
    if (w->pending_for < UINT16_MAX)
        w->pending_for++;
    if (w->reported || (uint32_t)w->pending_for * WATCHDOG_SAMPLE_MS < w->timeout_s * 1000u)
        return false;
    w->reported = true;
    w->lockups++;
    return true;
}

void watchdog_restart(struct watchdog *w)
{
    w->pending_for = 0;
}
