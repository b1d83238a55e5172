/* SPDX-License-Identifier: MIT */
/* ps, lsmod and per-task backtraces (bt PID, bt -t) of a Linux kernel (docs/tasks.md).
 * cmd_tasks.c has the commands and the walks, the same on both architectures; each
 * architecture's half (cmd_tasks_a32.c: the layout found by heuristics, the EHABI
 * unwinder; cmd_tasks_a64.c: the layout from the kernel's BTF, frame records) provides the
 * tasks_arch_* calls below. */
#ifndef FIQMON_CMD_TASKS_H
#define FIQMON_CMD_TASKS_H

#include <stdbool.h>

#include "target.h"

int cmd_ps(int argc, char **argv);
int cmd_lsmod(int argc, char **argv);
/* bt -t (all), or bt PID. Needs a kernel with symbols (the caller checked). */
int tasks_backtrace(const char *arg);

/* --- each architecture's half ------------------------------------------------------------ */
struct ktask;
/* Finds (or keeps) the task_struct layout: ktl.found (ktask.h). */
unsigned tasks_arch_discover(void);
/* The error line for a layout found up to step found only. */
void tasks_arch_layout_error(unsigned found);
/* ps -l: each offset of the layout and how it was found, and the modules list's. */
void tasks_arch_show_layout(void);
/* Finds (or keeps) the modules list (kmodule.h); false after printing the error line. */
bool tasks_arch_modules(void);
/* The task the selected CPU was interrupted in (0: not known), found with walks that may
 * use threads (the thread list is known). */
target_addr_t tasks_arch_running(bool threads);
/* The backtrace of task t (running: the one interrupted), from the live registers or from
 * the context it saved when it last switched out. */
void tasks_arch_backtrace(const struct ktask *t, bool running);

#endif
