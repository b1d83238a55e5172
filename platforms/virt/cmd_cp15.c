/* SPDX-License-Identifier: MIT */
/* cp15: the selected CPU's Normal-world system registers, as they were when the monitor
 * was entered (CPU 0) or at that CPU's roundup. */
#include <stddef.h>

#include "command.h"
#include "text.h"
#include "console.h"
#include "monitor.h"
#include "virt.h"
#if FIQMON_HYP
#include <string.h>

#include "hyp_trap.h"
#include "pl011_access_counts.h"
#include "platform.h"
#endif

static int cmd_cp15(int argc, char **argv)
{
    const struct ns_sysregs *r = virt_cpu_sysregs(monitor_cpu());

    (void)argc;
    (void)argv;
    con_printf("sctlr=%08x ttbr0=%08x ttbr1=%08x ttbcr=%08x\n", (unsigned)r->sctlr,
               (unsigned)r->ttbr0, (unsigned)r->ttbr1, (unsigned)r->ttbcr);
    con_printf("dacr=%08x contextidr=%08x vbar=%08x\n", (unsigned)r->dacr,
               (unsigned)r->contextidr, (unsigned)r->vbar);
    con_printf("dfsr=%08x dfar=%08x ifsr=%08x ifar=%08x\n", (unsigned)r->dfsr,
               (unsigned)r->dfar, (unsigned)r->ifsr, (unsigned)r->ifar);
    return 0;
}

#if FIQMON_HYP
static uint32_t fiqs_at_reset; /* FIQs are counted since boot: `hyp` shows them since reset */

/* hyp [reset]: whether the shim runs, what it has trapped, and what those accesses were */
static int cmd_hyp(int argc, char **argv)
{
    struct hyp_stats st;
    const struct pl011_access_counts *c = &virt_console_counts;

    if (!virt_hyp_installed)
        return con_error("the Hyp shim is not installed (no Virtualization Extensions)");
    if (argc == 2) {
        if (strcmp(argv[1], "reset"))
            return con_error("hyp takes 'reset' or nothing");
        virt_hyp_stats_reset();
        memset(&virt_console_counts, 0, sizeof(virt_console_counts));
        fiqs_at_reset = port_fiqs_taken();
    }
    virt_hyp_stats(&st);
    con_printf("hyp: stage 2 on, emulated=%u ignored=%u other=%u\n", (unsigned)st.emulated,
               (unsigned)st.ignored, (unsigned)st.other);
#if FIQMON_SMP > 1
    for (unsigned n = 0; n < FIQMON_SMP; n++) { /* each CPU's shim: stage 2 on every CPU */
        virt_hyp_cpu_stats(n, &st);
        con_printf("  cpu%u emulated=%u ignored=%u other=%u\n", n, (unsigned)st.emulated,
                   (unsigned)st.ignored, (unsigned)st.other);
    }
#endif
    con_printf("uart: fr_reads=%u dr_writes=%u dr_reads=%u other_reads=%u other_writes=%u\n",
               (unsigned)c->fr_reads, (unsigned)c->dr_writes, (unsigned)c->dr_reads,
               (unsigned)c->other_reads, (unsigned)c->other_writes);
    con_printf("uart: irqs_raised=%u fiqs=%u\n", (unsigned)c->irqs_raised,
               (unsigned)(port_fiqs_taken() - fiqs_at_reset));
#if FIQMON_CONSOLE_SHARED
    con_printf("console: backlog=%u tx_lost=%u rx_lost=%u\n", (unsigned)virt_console_backlog(),
               (unsigned)virt_console_tx_lost(), (unsigned)monitor_console_lost());
#endif
    virt_hyp_stats(&st);
    con_printf("debug: events=%u kernel_cp14=%u\n", (unsigned)st.debug, (unsigned)st.cp14);
    return 0;
}
#endif

#if FIQMON_CONSOLE_SHARED
/* console: leave the shell; the wire is the kernel's console again (Android's name) */
static int cmd_console(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    if (monitor_state() == MON_GDB)
        return con_error("GDB owns the session: detach to leave");
    if (monitor_boot_held())
        return con_error("no kernel started yet: 'exit' boots the payload");
    monitor_leave();
    con_puts("fiqmon: left; the console is the kernel's\n");
    return 0;
}

/* sysrq KEY: a BREAK and KEY on the kernel's console, as a terminal's break key would */
static int cmd_sysrq(int argc, char **argv)
{
    (void)argc;
    if (strlen(argv[1]) != 1)
        return con_error("sysrq takes one key, e.g. 'sysrq t'");
    if (!port_console_rx(0, true) || !port_console_rx((uint8_t)argv[1][0], false))
        return con_error("the kernel's receiver is full: try again");
    con_printf("fiqmon: sent BREAK + '%c'; the kernel answers after 'exit' or 'console'\n",
               argv[1][0]);
    return 0;
}
#endif

const struct command platform_commands[] = {
#if FIQMON_HYP
    {"hyp", "[reset]", TEXT("the Hyp shim: accesses trapped, by register; reset zeroes"),
     cmd_hyp, 0, 0, 1, 0},
#endif
#if FIQMON_CONSOLE_SHARED
    {"console", "", TEXT("leave: the wire is the kernel's console again"), cmd_console, 0, 0, 0,
     CMD_FULL_NAME},
    {"sysrq", "KEY", TEXT("BREAK + KEY to the kernel's console (magic SysRq)"), cmd_sysrq,
     CMD_CONTROLS_KERNEL, 1, 1, 0},
#endif
    {"cp15", "", TEXT("Normal world SCTLR, TTBRs, DACR, fault regs"), cmd_cp15, CMD_READS_REGS,
     0, 0, 0},
    {NULL, NULL, NULL, NULL, 0, 0, 0, 0},
};
