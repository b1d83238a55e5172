/* SPDX-License-Identifier: MIT */
/* The hard-lockup watchdog on virt. fiqmon's sampling FIQ is the Secure physical timer:
 * its registers are banked away from the Normal world and its interrupt is group 0, so a
 * wedged or hostile kernel can neither stop nor mask it.
 *
 * A sample says "stuck" when one of the kernel's timer PPIs is pending and enabled in the
 * GIC and neither of its timers has a new compare value since the previous sample: a
 * kernel that takes its tick writes the next deadline. Pending alone is not enough: a
 * kernel whose deadlines are always already past (slow emulation, a busy hrtimer queue)
 * shows its timer pending at most samples while it takes every interrupt. */
#include "armv7_cp15.h"
#include "gicv2.h"
#include "monitor.h"
#include "platform_def.h"
#include "platform.h"
#include "virt.h"
#include "watchdog.h"

static void rearm(void)
{
    /* no 64-bit division: the frequency is a whole number of kHz on every real part */
    cp15_cntp_tval_write(cp15_cntfrq_read() / 1000u * WATCHDOG_SAMPLE_MS);
}

void port_watchdog_arm(bool on)
{
    if (on) {
        rearm();
        cp15_cntp_ctl_write(CNTP_CTL_ENABLE);
        gicv2_make_secure_fiq(GICD_BASE, WATCHDOG_TIMER_INTID, FIQ_PRIORITY, 0x01);
    } else {
        cp15_cntp_ctl_write(0);
        gicv2_disable(GICD_BASE, WATCHDOG_TIMER_INTID);
    }
}

void port_watchdog_held(void)
{
    /* the full path runs with SCR.NS = 0: CNTP_* is the Secure timer here */
    if (mon_watchdog.timeout_s && (cp15_cntp_ctl_read() & CNTP_CTL_ISTATUS))
        rearm();
}

int virt_watchdog_tick(void)
{
    static uint32_t last_deadlines;
    uint32_t scr = cp15_scr_read(), deadlines;
    bool pending, unchanged;

    /* The fast path runs with the interrupted world's SCR.NS; CNTP_* is the Secure timer
     * with NS = 0 and the kernel's with NS = 1. Both read, then SCR as it was. */
    cp15_scr_write(scr & ~SCR_NS);
    rearm();
    cp15_scr_write(scr | SCR_NS);
    deadlines = cp15_cntp_cval_lo_read() ^ cp15_cntv_cval_lo_read() * 3u;
    cp15_scr_write(scr);
    pending = (gicv2_private_pending_enabled(GICD_BASE) & WATCHDOG_WATCHED) != 0;
    unchanged = deadlines == last_deadlines;
    last_deadlines = deadlines;
    if (!watchdog_sample(&mon_watchdog, pending && unchanged))
        return 0;
    monitor_request_lockup_report();
    return 1;
}
