/* SPDX-License-Identifier: MIT */
/* help, version, stats, knock, exit, reboot, irqs: the monitor itself and the board. */
#include "commands.h"

#include <stddef.h>
#include <string.h>

#include "build_options.h"
#include "handoff.h"
#include "cmd_kernel_info.h"
#include "command.h"
#include "console.h"
#include "knock.h"
#include "lockdown.h"
#include "monitor.h"
#include "noise_gate.h"
#include "parse.h"
#include "platform.h"
#include "watchdog.h"
#include "last_report.h"

#ifndef FIQMON_VERSION
#define FIQMON_VERSION "0.0.0"
#endif
#ifndef FIQMON_GIT
#define FIQMON_GIT "unknown"
#endif

int cmd_help(int argc, char **argv)
{
    return command_help(command_tables, argc == 2 ? argv[1] : NULL);
}

int cmd_version(int argc, char **argv)
{
    unsigned len;
    const uint8_t *id = port_build_id(&len);

    (void)argc;
    (void)argv;
    con_printf("fiqmon %s (git %s)\n", FIQMON_VERSION, FIQMON_GIT);
    con_puts("build-id ");
    for (unsigned i = 0; i < len; i++)
        con_printf("%02x", id[i]);
    con_printf("%s\nplatform %s, cpu %s, debug port %s\n", len ? "" : "none", platform->name,
               platform->cpu, platform->debug_uart);
    con_printf("resident code crc32 %08x\n", (unsigned)port_self_crc());
    lockdown_report();
    kernel_version_line();
    return 0;
}

/* Every core: a line per CPU, its FIQs (and watchdog samples), or for irqs its private
 * lines (GIC: the banked SGIs and PPIs), as each CPU saw them at a sample just taken. */
static void per_cpu(bool lines)
{
    unsigned n = platform->cpus;
    uint32_t late;

    if (n < 2)
        return; /* one CPU: the output as it always was */
    late = port_cpus_sample();
    if (lines)
        con_puts("per cpu, private lines 0-31 (a bit each):\n");
    for (unsigned i = 0; i < n; i++) {
        struct port_cpu c;
        port_cpu(i, &c);
        con_printf("  cpu%u", i);
        if (!c.online) {
            con_puts(" off\n");
            continue;
        }
        if (lines)
            con_printf(" fiq=%08x en=%08x pending=%08x", (unsigned)c.private_fiq,
                       (unsigned)c.private_enabled, (unsigned)c.private_pending);
        con_printf(" fiqs=%u", (unsigned)c.fiqs);
#if FIQMON_WATCHDOG
        if (!lines && i < WATCHDOG_MAX_CPUS)
            con_printf(" watchdog_samples=%u", (unsigned)mon_watchdog.cpu[i].samples);
#endif
        con_puts(late & (1u << i) ? " (no answer: last seen)\n" : "\n");
    }
}

int cmd_stats(int argc, char **argv)
{
    uint32_t size, used = port_monitor_stack_used(&size);

    (void)argc;
    (void)argv;
    /* noise_path: the part of noise the assembly noise path dropped without C */
    con_printf("fiqs=%u rx_bytes=%u noise=%u noise_path=%u ring_drops=%u rx_errors=%u "
               "commands=%u\n",
               (unsigned)port_fiqs_taken(), (unsigned)monitor_rx_bytes(),
               (unsigned)monitor_noise_bytes(), (unsigned)noise_gate.noise, (unsigned)mon_rx.drops,
               (unsigned)mon_stats.rx_errors, (unsigned)mon_stats.commands);
    if (platform->cpus > 1) /* every core: how often the others were stopped; the per-CPU
                             * lines below say how many FIQs each took (docs/every-core.md) */
        con_printf("roundups=%u\n", (unsigned)mon_stats.roundups);
    /* within a few words of the end: an unwritten local may hide an overflow */
    con_printf("stack_used=%u of %u%s\n", (unsigned)used, (unsigned)size,
               used + 32 >= size ? " (at the limit: it may have overflowed)" : "");
    per_cpu(false);
    return 0;
}

int cmd_knock(int argc, char **argv)
{
    long mode;

    if (argc == 2) {
        enum parse_status st = parse_int(argv[1], &mode);
        if (st != PARSE_OK || !knock_mode_valid(mode))
            return con_error("bad knock mode '%s' (-1 any FIQ, 0 Return, 1 %s)", argv[1],
                             KNOCK_MAGIC);
        monitor_set_knock_mode((int)mode);
    }
    mode = monitor_knock_mode();
    con_printf("knock=%ld (%s)\n", mode,
               mode == KNOCK_MODE_MAGIC    ? "type " KNOCK_MAGIC
               : mode == KNOCK_MODE_RETURN ? "hit Return"
                                           : "any FIQ");
    return 0;
}

int cmd_entry(int argc, char **argv)
{
    if (argc == 2) {
        if (strcmp(argv[1], "halt") && strcmp(argv[1], "async"))
            return con_error("bad entry '%s' (halt or async)", argv[1]);
        monitor_set_entry_halts(argv[1][0] == 'h');
    }
    con_printf("entry=%s\n", monitor_entry_halts() ? "halt (a knock halts every cpu)"
                                                    : "async (the kernel runs beside the shell)");
    return 0;
}

int cmd_exit(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    if (monitor_state() == MON_GDB)
        return con_error("GDB owns the session: detach to leave");
    if (monitor_boot_held()) {
        /* the knock stopped the countdown: leaving means the boot goes ahead */
        if (boot_payload(monitor_frame()))
            return -1; /* its one error line said why; still in the shell */
        monitor_leave();
        con_puts("fiqmon: left; the payload runs\n");
        return 0;
    }
    monitor_leave();
    con_puts(monitor_kernel_started() ? "fiqmon: left; the kernel runs on\n"
                                      : "fiqmon: left; no kernel was started: fiqmon idles\n");
    return 0;
}

int cmd_reboot(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    con_puts("fiqmon: rebooting\n");
    port_reboot();
}

int cmd_irqs(int argc, char **argv)
{
    unsigned lines = port_irq_lines();

    (void)argc;
    (void)argv;
    con_printf("%s: line  raw en route    fiqs  owner\n", platform->irq_controller);
    for (unsigned i = 0; i < lines; i++) {
        struct port_irq_line l;
        port_irq_line(i, &l);
        if (!l.raw && !l.enabled && !l.to_fiq && !l.fiqs)
            continue;
        con_printf("  line=%-3u raw=%u en=%u %s fiqs=%u %s\n", i, l.raw, l.enabled,
                   l.to_fiq ? "fiq" : "irq", (unsigned)l.fiqs, l.name ? l.name : "-");
    }
    per_cpu(true);
    return 0;
}

#if FIQMON_WATCHDOG
int cmd_watchdog(int argc, char **argv)
{
    uint32_t seconds = mon_watchdog.timeout_s;

    if (argc == 2) {
        if (!platform->watchdog_signal)
            return con_error("no hard-lockup watchdog on this platform");
        if (strcmp(argv[1], "on") == 0) {
            seconds = seconds ? seconds : 2;
        } else if (strcmp(argv[1], "off") == 0) {
            seconds = 0;
        } else if (strcmp(argv[1], "halt") == 0 || strcmp(argv[1], "report") == 0) {
            mon_watchdog.halt_on_lockup = argv[1][0] == 'h';
        } else if (parse_u32(argv[1], &seconds) != PARSE_OK || seconds < 1 || seconds > 600) {
            return con_error("bad watchdog setting '%s' (on, off, halt, report, or 1 to 600 "
                             "seconds, hex or #decimal)", argv[1]);
        }
        watchdog_set(&mon_watchdog, (uint16_t)seconds);
        port_watchdog_arm(seconds != 0);
    }
    if (!mon_watchdog.timeout_s)
        con_puts("watchdog=off\n");
    else
        con_printf("watchdog=%us (watching %s, sampled every %u ms; ", (unsigned)mon_watchdog.timeout_s,
                   platform->watchdog_signal, WATCHDOG_SAMPLE_MS);
    if (mon_watchdog.timeout_s) /* two lines of formatting: one would be cut at 160 characters */
        con_printf("on a lockup: report and %s) lockups=%u\n",
                   mon_watchdog.halt_on_lockup ? "halt" : "keep watching",
                   (unsigned)mon_watchdog.lockups);
    return 0;
}

int cmd_last(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return last_report_show(&mon_last_report);
}
#endif
