/* SPDX-License-Identifier: MIT */
#include "lockup_report.h"

#include "cmd_kernel_info.h"
#include "commands.h"
#include "console.h"
#include "last_report.h"
#include "monitor.h"
#include "watchdog.h"

static void keep_in_last_report(const char *s, size_t n)
{
    last_report_append(&mon_last_report, s, n);
}

void lockup_report(struct cpu_frame *f)
{
    last_report_begin(&mon_last_report); /* `last` shows it, even after a warm reset */
    con_set_copy(keep_in_last_report);
    con_printf("\nfiqmon: watchdog: hard lockup: the kernel has not taken its timer interrupt "
               "for %u s\n", (unsigned)mon_watchdog.timeout_s);
    if (monitor_permissions() & CMD_READS_REGS) { /* a locked device says only that it hung */
        con_printf("fiqmon: watchdog: cpu0 pc=%08x lr=%08x sp=%08x (%s)\n", (unsigned)f->pc,
                   (unsigned)*frame_reg(f, 14), (unsigned)*frame_reg(f, 13),
                   arm_mode_name(f->cpsr));
        cmd_regs(0, 0);
        kernel_lockup_details(WATCHDOG_KMSG_LINES);
    }
    con_set_copy(NULL);
    last_report_end(&mon_last_report);
    /* keep the wedged kernel exactly where it is for whoever comes to the port */
    if (mon_watchdog.halt_on_lockup && monitor_stop_for(REASON_WATCHDOG)) {
        con_puts("fiqmon: watchdog: kernel halted; 'continue' resumes it\n");
        return;
    }
    con_puts("fiqmon: watchdog: still watching\n");
}
