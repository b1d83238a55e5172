/* SPDX-License-Identifier: MIT */
/* The core command table. Each platform adds a table of its own (platform_commands, maybe empty). */
#include "commands.h"

#include <stddef.h>

#include "build_options.h"
#include "cmd_kernel_info.h"
#include "command.h"
#include "text.h"
#include "lockdown.h"

const struct command core_commands[] = {
    {"help", "[COMMAND]", TEXT("list commands, or explain one"), cmd_help, 0},
    {"version", "", TEXT("fiqmon version, build id and platform"), cmd_version, 0},
    BUILT_IF(FIQMON_LOCKDOWN, "unlock", "[ANSWER]", TEXT("show a nonce; ANSWER = HMAC-SHA256(key, nonce) unlocks"), cmd_unlock,
     0),
    BUILT_IF(FIQMON_LOCKDOWN, "lock", "", TEXT("back to the locked set (production)"), cmd_lock, 0),
    BUILT_IF(FIQMON_LOCKDOWN, "readonly", "", TEXT("no memory writes, run control or reboot until reset"), cmd_readonly, 0),
    {"pc", "", TEXT("pc and cpsr of the interrupted context"), cmd_pc, CMD_READS_REGS},
    {"regs", "", TEXT("r0-r15, cpsr, spsr of the interrupted context"), cmd_regs, CMD_READS_REGS},
    {"allregs", "", TEXT("regs plus every banked sp/lr/spsr and r8-r12_fiq"), cmd_allregs,
     CMD_READS_REGS},
    {"md", "[-p] ADDR [LEN] [b|h|w]", TEXT("memory dump, LEN bytes (0x40); -p: physical ADDR"),
     cmd_md, CMD_READS_MEM},
    {"mw", "[-p] ADDR VALUE [b|h|w]", TEXT("memory write (default width w); -p: physical ADDR"),
     cmd_mw, CMD_WRITES_MEM},
    BUILT_IF(FIQMON_LINUX, "kmsg", "[N]", TEXT("the last N (default #20) Linux kernel log records, as dmesg"), cmd_kmsg,
     CMD_READS_MEM | CMD_READS_KLOG),
    BUILT_IF(FIQMON_LINUX, "sym", "ADDR|NAME", TEXT("Linux kernel symbol at ADDR, or address and size of NAME"), cmd_sym,
     CMD_READS_MEM),
    BUILT_IF(FIQMON_LINUX, "bt", "[-s]", TEXT("backtrace of the interrupted Linux kernel; -s: heuristic stack scan"),
     cmd_bt, CMD_READS_REGS | CMD_READS_MEM),
    {"irqs", "", TEXT("interrupt controller lines and fiqmon's FIQ counts"), cmd_irqs, CMD_READS_REGS},
    {"stats", "", TEXT("FIQs, bytes, noise, ring drops, commands"), cmd_stats, CMD_READS_REGS},
    {"knock", "[-1|0|1]", TEXT("show or set the knock (-1 any FIQ, 0 Return, 1 $3#33)"), cmd_knock,
     CMD_CONTROLS_KERNEL},
    {"halt", "", TEXT("stop the kernel: fiqmon keeps the CPU until continue"), cmd_halt,
     CMD_CONTROLS_KERNEL},
    {"continue", "", TEXT("resume a halted kernel"), cmd_continue, CMD_CONTROLS_KERNEL},
    {"c", "", TEXT("alias of continue"), cmd_continue, CMD_CONTROLS_KERNEL},
    {"release", "", TEXT("give the debug UART to the kernel until it re-arms fiqmon"), cmd_release,
     CMD_CONTROLS_KERNEL},
    {"boot", "[ADDR [CMDLINE...]]", TEXT("boot the payload, or Linux at ADDR with ATAGs"),
     cmd_boot, CMD_CONTROLS_KERNEL},
    {"go", "ADDR", TEXT("jump to a bare-metal image at ADDR"), cmd_go, CMD_CONTROLS_KERNEL},
    /* the stub checks each packet's own needs (gdb_packet_class.c) */
    BUILT_IF(FIQMON_GDB, "gdb", "", TEXT("switch the port to the GDB remote protocol (target remote)"),
             cmd_gdb, CMD_GDB),
    BUILT_IF(FIQMON_WATCHDOG, "watchdog", "[on|off|SECONDS|halt|report]", TEXT("hard-lockup watchdog: show or set"), cmd_watchdog,
     CMD_CONTROLS_KERNEL),
    BUILT_IF(FIQMON_WATCHDOG, "last", "", TEXT("the last watchdog report, kept across a warm reset"), cmd_last,
     CMD_READS_REGS | CMD_READS_KLOG),
    {"exit", "", TEXT("leave the debugger (resumes a halted kernel); wait for a knock"), cmd_exit,
     0},
    {"reboot", "", TEXT("reset the whole system"), cmd_reboot, CMD_REBOOTS},
    {NULL, NULL, NULL, NULL, 0},
};


const struct command *const command_tables[] = {core_commands, platform_commands, NULL};
