/* SPDX-License-Identifier: MIT */
/* The interrupted CPU context, as the FIQ entry code saves it and restores it on exit: one
 * layout per architecture (the porting contract's; docs/porting.md). Both give the monitor
 * the same few words: struct cpu_frame with pc (target_addr_t) and world, frame_psr(),
 * arm_mode_name(), arm_psr_describe() and frame_set_entry(). Included by assembly for the
 * offsets. */
#ifndef FIQMON_CPU_FRAME_H
#define FIQMON_CPU_FRAME_H

#include "target.h"

#if FIQMON_AARCH64
#include "cpu_frame_a64.h"
#else
#include "cpu_frame_a32.h"
#endif

#endif
