/* SPDX-License-Identifier: MIT */
/* The core command table. Each platform adds a table of its own (platform_commands, maybe empty). */
#include "commands.h"

#include <stddef.h>

#include "cmd_kernel_info.h"
#include "command.h"
#include "lockdown.h"

const struct command core_commands[] = {
    {"help", "[COMMAND]", "list commands, or explain one", cmd_help, 0},
    {"version", "", "fiqmon version, build id and platform", cmd_version, 0},
    {"unlock", "[ANSWER]", "show a nonce; ANSWER = HMAC-SHA256(key, nonce) unlocks", cmd_unlock,
     0},
    {"lock", "", "back to the locked set (production)", cmd_lock, 0},
    {"readonly", "", "no memory writes, run control or reboot until reset", cmd_readonly, 0},
    {"pc", "", "pc and cpsr of the interrupted context", cmd_pc, CMD_READS_REGS},
    {"regs", "", "r0-r15, cpsr, spsr of the interrupted context", cmd_regs, CMD_READS_REGS},
    {"allregs", "", "regs plus every banked sp/lr/spsr and r8-r12_fiq", cmd_allregs,
     CMD_READS_REGS},
    {"md", "[-p] ADDR [LEN] [b|h|w]", "memory dump, LEN bytes (0x40); -p: physical ADDR",
     cmd_md, CMD_READS_MEM},
    {"mw", "[-p] ADDR VALUE [b|h|w]", "memory write (default width w); -p: physical ADDR",
     cmd_mw, CMD_WRITES_MEM},
    {"kmsg", "[N]", "the last N (default #20) Linux kernel log records, as dmesg", cmd_kmsg,
     CMD_READS_MEM | CMD_READS_KLOG},
    {"sym", "ADDR|NAME", "Linux kernel symbol at ADDR, or address and size of NAME", cmd_sym,
     CMD_READS_MEM},
    {"bt", "[-s]", "backtrace of the interrupted Linux kernel; -s: heuristic stack scan",
     cmd_bt, CMD_READS_REGS | CMD_READS_MEM},
    {"irqs", "", "interrupt controller lines and fiqmon's FIQ counts", cmd_irqs, CMD_READS_REGS},
    {"stats", "", "FIQs, bytes, noise, ring drops, commands", cmd_stats, CMD_READS_REGS},
    {"knock", "[-1|0|1]", "show or set the knock (-1 any FIQ, 0 Return, 1 $3#33)", cmd_knock,
     CMD_CONTROLS_KERNEL},
    {"halt", "", "stop the kernel: fiqmon keeps the CPU until continue", cmd_halt,
     CMD_CONTROLS_KERNEL},
    {"continue", "", "resume a halted kernel", cmd_continue, CMD_CONTROLS_KERNEL},
    {"c", "", "alias of continue", cmd_continue, CMD_CONTROLS_KERNEL},
    {"release", "", "give the debug UART to the kernel until it re-arms fiqmon", cmd_release,
     CMD_CONTROLS_KERNEL},
    {"boot", "[ADDR [CMDLINE...]]", "boot the payload, or Linux at ADDR with ATAGs",
     cmd_boot, CMD_CONTROLS_KERNEL},
    {"go", "ADDR", "jump to a bare-metal image at ADDR", cmd_go, CMD_CONTROLS_KERNEL},
    {"gdb", "", "switch the port to the GDB remote protocol (target remote)", cmd_gdb,
     CMD_GDB}, /* the stub checks each packet's own needs (lockdown.h) */
    {"watchdog", "[on|off|SECONDS|halt|report]", "hard-lockup watchdog: show or set", cmd_watchdog,
     CMD_CONTROLS_KERNEL},
    {"last", "", "the last watchdog report, kept across a warm reset", cmd_last,
     CMD_READS_REGS | CMD_READS_KLOG},
    {"exit", "", "leave the debugger (resumes a halted kernel, boots a payload the countdown "
     "held); wait for a knock", cmd_exit, 0},
    {"reboot", "", "reset the whole system", cmd_reboot, CMD_REBOOTS},
    {NULL, NULL, NULL, NULL, 0},
};


const struct command *const command_tables[] = {core_commands, platform_commands, NULL};
