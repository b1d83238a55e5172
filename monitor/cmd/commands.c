/* SPDX-License-Identifier: MIT */
/* The core command table. Each platform adds a table of its own (platform_commands, maybe empty). */
#include "commands.h"

#include <stddef.h>

#include "build_options.h"
#include "cmd_break.h"
#include "cmd_kernel_info.h"
#include "cmd_tasks.h"
#include "command.h"
#include "text.h"
#include "lockdown.h"

/* {name, usage, help, handler, permissions, min and max arguments, options}. Help lines
 * must fit 80 columns: usage at most 23 characters, help at most 45 (test_command.c). */
const struct command core_commands[] = {
    {"help", "[COMMAND]", TEXT("list commands, or explain one"), cmd_help, 0, 0, 1, 0},
    {"version", "", TEXT("fiqmon version, build id and platform"), cmd_version, 0, 0, 0, 0},
    BUILT_IF(FIQMON_LOCKDOWN, "unlock", "[ANSWER]", TEXT("a nonce; HMAC-SHA256(key, nonce) unlocks"), cmd_unlock, 0, 0, 1, 0),
    BUILT_IF(FIQMON_LOCKDOWN, "lock", "", TEXT("back to the locked set (production)"), cmd_lock, 0, 0, 0, 0),
    BUILT_IF(FIQMON_LOCKDOWN, "readonly", "", TEXT("no writes, run control or reboot until reset"),
     cmd_readonly, 0, 0, 0, CMD_FULL_NAME),
#if FIQMON_AARCH64
    {"pc", "", TEXT("pc and pstate of the interrupted context"), cmd_pc, CMD_READS_REGS, 0, 0, 0},
    {"regs", "", TEXT("x0-x30, sp, pc, pstate of the interrupted CPU"),
     cmd_regs, CMD_READS_REGS, 0, 0, 0},
    {"allregs", "", TEXT("regs plus EL0-EL2 sp/elr/spsr, system regs"),
     cmd_allregs, CMD_READS_REGS, 0, 0, 0},
#else
    {"pc", "", TEXT("pc and cpsr of the interrupted context"), cmd_pc, CMD_READS_REGS, 0, 0, 0},
    {"regs", "", TEXT("r0-r15, cpsr, spsr of the interrupted context"),
     cmd_regs, CMD_READS_REGS, 0, 0, 0},
    {"allregs", "", TEXT("regs plus every banked sp/lr/spsr, r8-r12_fiq"),
     cmd_allregs, CMD_READS_REGS, 0, 0, 0},
#endif
    {"md", "[-p] ADDR [LEN] [b|h|w]", TEXT("dump LEN bytes (0x40); -p: physical ADDR"),
     cmd_md, CMD_READS_MEM, 1, 4, 0},
    {"mw", "[-p] ADDR VALUE [b|h|w]", TEXT("write one b/h/w (w); -p: physical ADDR"),
     cmd_mw, CMD_WRITES_MEM, 2, 4, 0},
    BUILT_IF(FIQMON_LINUX, "kmsg", "[N]", TEXT("last N (#20) Linux log records, as dmesg"),
     cmd_kmsg, CMD_READS_MEM | CMD_READS_KLOG, 0, 1, 0),
    BUILT_IF(FIQMON_LINUX, "sym", "ADDR|NAME", TEXT("Linux symbol at ADDR, or NAME's address"),
     cmd_sym, CMD_READS_MEM, 1, 1, 0),
    BUILT_IF(FIQMON_LINUX, "bt", "[-s|-t|-a|PID]", TEXT("Linux backtrace; -s scan, -t tasks, -a cpus"),
     cmd_bt, CMD_READS_REGS | CMD_READS_MEM, 0, 1, 0),
    BUILT_IF(FIQMON_TASKS, "ps", "[-t|-l]", TEXT("Linux tasks; -t threads, -l layout found"),
     cmd_ps, CMD_READS_MEM, 0, 1, 0),
    BUILT_IF(FIQMON_TASKS, "lsmod", "", TEXT("Linux modules: name, size, state, address"),
     cmd_lsmod, CMD_READS_MEM, 0, 0, 0),
    BUILT_IF(FIQMON_BREAKPOINTS, "bp", "[ADDR|SYM]", TEXT("hardware breakpoint; none: list them"),
     cmd_bp, CMD_CONTROLS_KERNEL, 0, 1, 0),
    BUILT_IF(FIQMON_BREAKPOINTS, "bc", "N|*", TEXT("clear breakpoint N, or every one"),
     cmd_bc, CMD_CONTROLS_KERNEL, 1, 1, 0),
    BUILT_IF(FIQMON_BREAKPOINTS, "bl", "", TEXT("list breakpoints and watchpoints"),
     cmd_bl, CMD_READS_REGS, 0, 0, 0),
    BUILT_IF(FIQMON_BREAKPOINTS, "ss", "", TEXT("single-step the selected cpu (halted)"),
     cmd_ss, CMD_CONTROLS_KERNEL, 0, 0, 0),
    BUILT_IF(FIQMON_BREAKPOINTS, "wp", "ADDR|SYM [w|r|rw] [LEN]",
     TEXT("watchpoint: stop on a write/read/either"), cmd_wp, CMD_CONTROLS_KERNEL, 1, 3, 0),
    BUILT_IF(FIQMON_BREAKPOINTS, "wc", "N|*", TEXT("clear watchpoint N, or every one"),
     cmd_wc, CMD_CONTROLS_KERNEL, 1, 1, 0),
    {"cpu", "[N]", TEXT("every CPU and its pc, or select CPU N"), cmd_cpu, CMD_READS_REGS, 0, 1, 0},
    {"irqs", "", TEXT("interrupt lines and fiqmon's FIQ counts"), cmd_irqs, CMD_READS_REGS, 0, 0, 0},
    {"stats", "", TEXT("FIQs, bytes, noise, ring drops, commands"), cmd_stats, CMD_READS_REGS, 0, 0, 0},
    {"knock", "[-1|0|1]", TEXT("show or set: any FIQ, Return, $3#33"),
     cmd_knock, CMD_CONTROLS_KERNEL, 0, 1, 0},
    {"entry", "[halt|async]", TEXT("show or set: a knock halts every CPU, or not"),
     cmd_entry, CMD_CONTROLS_KERNEL, 0, 1, 0},
    {"halt", "", TEXT("stop the kernel until continue"), cmd_halt, CMD_CONTROLS_KERNEL, 0, 0, 0},
    {"continue", "", TEXT("resume a halted kernel"), cmd_continue, CMD_CONTROLS_KERNEL, 0, 0, 0},
    {"c", "", TEXT("alias of continue"), cmd_continue, CMD_CONTROLS_KERNEL, 0, 0, 0},
    {"release", "", TEXT("give the debug UART to the kernel"),
     cmd_release, CMD_CONTROLS_KERNEL, 0, 0, CMD_FULL_NAME},
#if FIQMON_AARCH64 /* (ATAGs are a 32-bit kernel's) */
    {"boot", "", TEXT("boot the payload"), cmd_boot, CMD_CONTROLS_KERNEL, 0, 0, CMD_FULL_NAME},
#else
    {"boot", "[ADDR [CMDLINE...]]", TEXT("boot the payload, or Linux at ADDR (ATAGs)"),
     cmd_boot, CMD_CONTROLS_KERNEL, 0, CMD_ARGS_ANY, CMD_FULL_NAME},
#endif
    {"go", "ADDR", TEXT("jump to a bare-metal image at ADDR"),
     cmd_go, CMD_CONTROLS_KERNEL, 1, 1, CMD_FULL_NAME},
    BUILT_IF(FIQMON_GDB, "gdb", "", TEXT("switch the port to the GDB remote protocol"), cmd_gdb,
     CMD_GDB, 0, 0, 0), /* the stub checks each packet's own needs (gdb_packet_class.c) */
    BUILT_IF(FIQMON_WATCHDOG, "watchdog", "[on|off|N|halt|report]", TEXT("hard-lockup watchdog; N: seconds"),
     cmd_watchdog, CMD_CONTROLS_KERNEL, 0, 1, 0),
    BUILT_IF(FIQMON_WATCHDOG, "last", "", TEXT("the last watchdog report (kept across resets)"),
     cmd_last, CMD_READS_REGS | CMD_READS_KLOG, 0, 0, 0),
    {"exit", "", TEXT("leave: resume the kernel, or boot the payload"), cmd_exit, 0, 0, 0, 0},
    {"reboot", "", TEXT("reset the whole system"), cmd_reboot, CMD_REBOOTS, 0, 0, CMD_FULL_NAME},
    {NULL, NULL, NULL, NULL, 0, 0, 0, 0},
};

const struct command *const command_tables[] = {core_commands, platform_commands, NULL};
