/* SPDX-License-Identifier: MIT */
#include "lockup_report.h"

#include "cmd_kernel_info.h"
#include "commands.h"
#include "console.h"
#include "cpu_frame.h"
#include "last_report.h"
#include "monitor.h"
#include "platform.h"
#include "watchdog.h"

static void keep_in_last_report(const char *s, size_t n)
{
    last_report_append(&mon_last_report, s, n);
}

/* Where CPU n is wedged: the monitor's own frame for CPU 0, the one a CPU stopped in for
 * its report otherwise (the CPUs that did not lock up run on). */
static void show_cpu(unsigned n, struct cpu_frame *own, uint32_t kmsg_lines)
{
    struct port_cpu c = {.frame = own};
    struct cpu_frame *f;

    if (n)
        port_cpu(n, &c);
    if (!(f = c.frame)) {
        con_printf("fiqmon: watchdog: cpu%u: no context\n", n);
        return;
    }
    monitor_view_cpu(n, f);
    con_printf("fiqmon: watchdog: cpu%u pc=" TARGET_ADDR_FMT " lr=" TARGET_ADDR_FMT
               " sp=" TARGET_ADDR_FMT " (%s)\n", n, (unsigned long)f->pc,
               (unsigned long)*frame_lr(f), (unsigned long)*frame_sp(f),
               arm_mode_name(frame_psr(f)));
    cmd_regs(0, 0);
    kernel_lockup_details(kmsg_lines);
}

void lockup_report(struct cpu_frame *f)
{
    uint32_t due = watchdog_due(&mon_watchdog);
    unsigned last = 0;
    struct cpu_frame *was = monitor_frame();
    unsigned was_cpu = monitor_cpu();

    if (!due)
        return; /* (a request that a report already answered) */
    last_report_begin(&mon_last_report); /* `last` shows it, even after a warm reset */
    con_set_copy(keep_in_last_report);
    if (platform->cpus < 2) {
        con_printf("\nfiqmon: watchdog: hard lockup: the kernel has not taken its timer "
                   "interrupt for %u s\n", (unsigned)mon_watchdog.timeout_s);
    } else {
        con_puts("\nfiqmon: watchdog: hard lockup:");
        for (unsigned i = 0; i < 32; i++)
            if (due >> i & 1u)
                con_printf(" cpu%u", last = i);
        con_printf(" has not taken its timer interrupt for %u s\n",
                   (unsigned)mon_watchdog.timeout_s);
    }
    if (monitor_permissions() & CMD_READS_REGS) { /* a locked device says only that it hung */
        for (unsigned i = 0; i < 32; i++)
            if (due >> i & 1u)
                show_cpu(i, f, i == last ? WATCHDOG_KMSG_LINES : 0); /* the log once */
        monitor_view_cpu(was_cpu, was);
    }
    con_set_copy(NULL);
    last_report_end(&mon_last_report);
    watchdog_reported(&mon_watchdog, due); /* the wedged CPUs go back to where they were */
    /* keep the wedged kernel exactly where it is for whoever comes to the port */
    if (mon_watchdog.halt_on_lockup && monitor_stop_for(REASON_WATCHDOG)) {
        con_puts("fiqmon: watchdog: kernel halted; 'continue' resumes it\n");
        return;
    }
    con_puts("fiqmon: watchdog: still watching\n");
}
