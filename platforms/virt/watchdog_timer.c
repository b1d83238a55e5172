/* SPDX-License-Identifier: MIT */
/* The hard-lockup watchdog on virt. fiqmon's sampling FIQ is the Secure physical timer:
 * its registers are banked away from the Normal world and its interrupt is group 0, so a
 * wedged or hostile kernel can neither stop nor mask it.
 *
 * Every core (SMP > 1): the timer, its PPI and the kernel's timer PPIs are banked per CPU
 * and can only be read on their own CPU, so each online CPU runs its own Secure timer and
 * samples itself; a CPU that is off runs none (docs/every-core.md).
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

#ifndef FIQMON_SMP
#define FIQMON_SMP 1
#endif

static uint32_t last_deadlines[FIQMON_SMP];
static bool armed[FIQMON_SMP]; /* this CPU's Secure timer runs */

static void rearm(void)
{
    /* no 64-bit division: the frequency is a whole number of kHz on every real part */
    cp15_cntp_tval_write(cp15_cntfrq_read() / 1000u * WATCHDOG_SAMPLE_MS);
}

static unsigned this_cpu(void)
{
#if FIQMON_SMP > 1
    return virt_cpu_index();
#else
    return 0;
#endif
}

/* This CPU's timer on or off, whichever world SCR.NS says (CNTP_* is the Secure timer
 * with NS = 0 only). */
static void arm_self(bool on)
{
    uint32_t scr = cp15_scr_read();
    unsigned cpu = this_cpu();

    cp15_scr_write(scr & ~SCR_NS);
    if (on) {
        rearm();
        cp15_cntp_ctl_write(CNTP_CTL_ENABLE);
        gicv2_make_secure_fiq(GICD_BASE, WATCHDOG_TIMER_INTID, FIQ_PRIORITY, 0x01);
    } else {
        cp15_cntp_ctl_write(0);
        gicv2_disable(GICD_BASE, WATCHDOG_TIMER_INTID);
    }
    cp15_scr_write(scr);
    armed[cpu] = on;
    last_deadlines[cpu] = 0;
    mon_watchdog.cpu[cpu].pending_for = 0;
    mon_watchdog.cpu[cpu].reported = false;
}

void port_watchdog_arm(bool on)
{
    arm_self(on);
#if FIQMON_SMP > 1
    port_cpus_sample(); /* each follows at its next FIQ (virt_watchdog_follow) */
#endif
}

void virt_watchdog_follow(bool online)
{
    bool on = online && mon_watchdog.timeout_s;

    if (armed[this_cpu()] != on)
        arm_self(on);
}

void port_watchdog_held(void)
{
    /* the full path runs with SCR.NS = 0: CNTP_* is the Secure timer here */
    if (mon_watchdog.timeout_s && (cp15_cntp_ctl_read() & CNTP_CTL_ISTATUS))
        rearm();
}

int virt_watchdog_tick(void)
{
    uint32_t scr = cp15_scr_read(), deadlines;
    unsigned cpu = this_cpu();
    bool pending, unchanged;

    /* The fast path runs with the interrupted world's SCR.NS; CNTP_* is the Secure timer
     * with NS = 0 and the kernel's with NS = 1. Both read, then SCR as it was. */
    cp15_scr_write(scr & ~SCR_NS);
    rearm();
    cp15_scr_write(scr | SCR_NS);
    deadlines = cp15_cntp_cval_lo_read() ^ cp15_cntv_cval_lo_read() * 3u;
    cp15_scr_write(scr);
    pending = (gicv2_private_pending_enabled(GICD_BASE) & WATCHDOG_WATCHED) != 0;
    unchanged = deadlines == last_deadlines[cpu];
    last_deadlines[cpu] = deadlines;
    return watchdog_sample(&mon_watchdog, cpu, pending && unchanged);
}
