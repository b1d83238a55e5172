/* SPDX-License-Identifier: MIT */
/* Breakpoint commands (cmd_break.c), built with the debug unit (BREAKPOINTS=1). */
#ifndef FIQMON_CMD_BREAK_H
#define FIQMON_CMD_BREAK_H

#include "cpu_frame.h"

int cmd_bp(int argc, char **argv);
int cmd_bc(int argc, char **argv);
int cmd_bl(int argc, char **argv);
int cmd_ss(int argc, char **argv);
int cmd_wp(int argc, char **argv);
int cmd_wc(int argc, char **argv);
/* The stop line: what stopped the kernel and where (the monitor's stop hook). */
void debug_stop_line(struct cpu_frame *f);

#endif
