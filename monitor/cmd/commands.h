/* SPDX-License-Identifier: MIT */
/* Handlers of the core command table (commands.c). */
#ifndef FIQMON_COMMANDS_H
#define FIQMON_COMMANDS_H

#include <stdbool.h>
#include <stdint.h>

#include "target.h"

int cmd_help(int argc, char **argv);
int cmd_version(int argc, char **argv);
int cmd_pc(int argc, char **argv);
int cmd_cpu(int argc, char **argv);
/* Every CPU: state and pc, sampled (cmd_cpu.c). */
void cpu_list(void);
int cmd_regs(int argc, char **argv);
int cmd_allregs(int argc, char **argv);
int cmd_md(int argc, char **argv);
int cmd_mw(int argc, char **argv);
int cmd_irqs(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_knock(int argc, char **argv);
int cmd_entry(int argc, char **argv);
int cmd_exit(int argc, char **argv);
int cmd_reboot(int argc, char **argv);
int cmd_last(int argc, char **argv);
int cmd_halt(int argc, char **argv);
int cmd_continue(int argc, char **argv);
int cmd_release(int argc, char **argv);
int cmd_boot(int argc, char **argv);
int cmd_go(int argc, char **argv);
int cmd_gdb(int argc, char **argv);
int cmd_watchdog(int argc, char **argv);

/* Parses a number argument; prints "error: bad <what> ..." and returns -1 on failure. */
int cmd_parse_number(const char *what, const char *s, uint32_t *out);
/* An address of the interrupted system, as wide as the target (target.h). */
int cmd_parse_address(const char *s, target_addr_t *out);

#endif
