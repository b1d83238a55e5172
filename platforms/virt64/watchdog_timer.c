/* SPDX-License-Identifier: MIT */
/* The hard-lockup watchdog on virt64. fiqmon's sampling FIQ is the Secure physical timer
 * (CNTPS, PPI 29): EL3's, unreachable below it, its interrupt Group 0, so a wedged or
 * hostile kernel can neither stop nor mask it.
 *
 * A sample says "stuck" when one of the kernel's timer PPIs is pending and enabled and
 * none of its timers has a new compare value since the previous sample: a kernel that
 * takes its tick writes the next deadline (the rule of platforms/virt/watchdog_timer.c).
 * The kernel's timers: EL1's virtual (PPI 27) and physical (30), EL2's physical (26) and
 * virtual (28), whichever it uses at EL1 or, under VHE, at EL2. With SMP > 1, CPU 0 is
 * the one watched (docs/aarch64.md). */
#include "aarch64_sysreg.h"
#include "gicv3.h"
#include "mmio.h"
#include "monitor.h"
#include "platform.h"
#include "platform_def.h"
#include "virt64.h"
#include "watchdog.h"

#define CNT_CTL_ENABLE  1u
#define CNT_CTL_ISTATUS 4u

static uint64_t last_deadlines;

static void rearm(void)
{
    sysreg_cntps_tval_el1_write(sysreg_cntfrq_el0_read() / 1000u * WATCHDOG_SAMPLE_MS);
}

void port_watchdog_arm(bool on)
{
    if (on) {
        rearm();
        sysreg_cntps_ctl_el1_write(CNT_CTL_ENABLE);
        gicv3_make_private_fiq(virt64_gicr, WATCHDOG_TIMER_INTID, FIQ_PRIORITY);
    } else {
        sysreg_cntps_ctl_el1_write(0);
        mmio_write_32(virt64_gicr + GICR_ICENABLER0, 1u << WATCHDOG_TIMER_INTID);
    }
    last_deadlines = 0;
    mon_watchdog.cpu[0].pending_for = 0;
    mon_watchdog.cpu[0].reported = false;
}

void port_watchdog_held(void)
{
    if (mon_watchdog.timeout_s && (sysreg_cntps_ctl_el1_read() & CNT_CTL_ISTATUS))
        rearm();
}

int virt64_watchdog_tick(void)
{
    struct gicv3_private p;
    uint64_t deadlines = sysreg_cntv_cval_el0_read() ^ sysreg_cntp_cval_el0_read() * 3u ^
                         sysreg_cnthp_cval_el2_read() * 5u;
    bool pending, unchanged;

    if (sysreg_id_aa64mmfr1_el1_read() >> 8 & 0xf) /* VHE: EL2 has a virtual timer too */
        deadlines ^= sysreg_cnthv_cval_el2_read() * 7u;

    rearm(); /* its output is a level: acknowledged at its source on every path */
    gicv3_read_private(virt64_gicr, &p);
    pending = (p.pending & p.enabled & WATCHDOG_WATCHED) != 0;
    unchanged = deadlines == last_deadlines;
    last_deadlines = deadlines;
    return watchdog_sample(&mon_watchdog, 0, pending && unchanged);
}
