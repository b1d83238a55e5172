/* SPDX-License-Identifier: MIT */
/* The hard-lockup report: what fiqmon prints, and keeps for `last`, when the watchdog
 * fires. It sits above the commands (it reuses `regs`) and the Linux introspection. */
#ifndef FIQMON_LOCKUP_REPORT_H
#define FIQMON_LOCKUP_REPORT_H

#include "cpu_frame.h"

/* Nobody knocked: the watchdog saw the kernel stop taking interrupts. Say so, show where
 * it is stuck, and keep watching, or (`watchdog halt`) keep it stopped in the shell. */
void lockup_report(struct cpu_frame *f);

#endif
