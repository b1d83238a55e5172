/* SPDX-License-Identifier: MIT */
/* Features a build may leave out (make GDB=0 LINUX=0 LOCKDOWN=0 WATCHDOG=none): 1 when
 * built in. build_info.h sets them on the target; the host tests build everything. */
#ifndef FIQMON_BUILD_OPTIONS_H
#define FIQMON_BUILD_OPTIONS_H

#include "target.h"

#ifndef FIQMON_GDB
#define FIQMON_GDB 1 /* the GDB remote stub (monitor/gdb/) */
#endif
#ifndef FIQMON_LINUX
#define FIQMON_LINUX 1 /* Linux introspection: kmsg, sym, bt, annotations (monitor/linux/) */
#endif
#ifndef FIQMON_LOCKDOWN
#define FIQMON_LOCKDOWN 1 /* production lockdown: unlock, lock, readonly (monitor/lockdown/) */
#endif
#ifndef FIQMON_CONSOLE_SHARED
#define FIQMON_CONSOLE_SHARED 1 /* one wire: the kernel's console on the debug port */
#endif
#ifndef FIQMON_BREAKPOINTS
#define FIQMON_BREAKPOINTS 1 /* breakpoints, watchpoints, steps (monitor/debug/; virt HYP=1) */
#endif
#ifndef FIQMON_WATCHDOG
#define FIQMON_WATCHDOG 1 /* the hard-lockup watchdog, its report and `last` */
#endif
/* The kernel's tasks and modules (ps, lsmod, bt PID): part of LINUX, found by reading the
 * AArch32 kernel's code (monitor/linux/ktask_layout.c), or from an arm64 kernel's own BTF
 * (monitor/linux/ktask_btf.c; docs/tasks.md). */
#ifndef FIQMON_TASKS
#define FIQMON_TASKS FIQMON_LINUX
#endif

/* A command table row that exists only when `on` is 1; otherwise the name alone, which
 * the dispatcher answers with "not built in" and help leaves out. */
#define BUILT_IF(on, n, ...) BUILT_IF_(on, n, __VA_ARGS__)
#define BUILT_IF_(on, n, ...) BUILT_IF_##on(n, __VA_ARGS__)
#define BUILT_IF_1(n, ...) {n, __VA_ARGS__}
#define BUILT_IF_0(n, ...) {.name = n}

#endif
