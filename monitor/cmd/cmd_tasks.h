/* SPDX-License-Identifier: MIT */
/* ps, lsmod and per-task backtraces (bt PID, bt -t) of a kernel without debug info
 * (docs/tasks.md). */
#ifndef FIQMON_CMD_TASKS_H
#define FIQMON_CMD_TASKS_H

#include <stdbool.h>

int cmd_ps(int argc, char **argv);
int cmd_lsmod(int argc, char **argv);
/* bt -t (all), or bt PID. Needs a kernel with symbols (the caller checked). */
int tasks_backtrace(const char *arg);

#endif
