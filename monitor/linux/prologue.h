/* SPDX-License-Identifier: MIT */
/* Where an interrupted function stands in its prologue. Frame #0 of a backtrace (and the
 * context an exception frame saved) can stop on any instruction: on the first one, inside
 * the prologue, or before a shrink-wrapped prologue, where the unwind table, which
 * describes the body, does not hold yet (it would reload lr from stack words nothing has
 * written). The linker also merges neighbouring .ARM.exidx entries with the same
 * instructions, so a table entry's start is not always a function's start: kallsyms gives
 * that. ARM-mode code only. */
#ifndef FIQMON_PROLOGUE_H
#define FIQMON_PROLOGUE_H

#include <stdbool.h>
#include <stdint.h>

#define PROLOGUE_MAX 64u /* instructions walked from a function's start */

/* Walks the code from start (the function's first instruction) straight to r[15],
 * following what it does to sp: push, str rN, [sp, #-4]!, sub/add sp, sp, #imm. Every
 * other instruction on the way must leave sp, lr and pc alone (no call, no unconditional
 * or backward branch, no load into sp, lr or pc). Then r becomes the caller's frame: sp as
 * at the function's entry, the registers still saved reloaded, pc = lr; true. Otherwise
 * (or a read faulted) false and r is unchanged. */
bool prologue_unwind(uint32_t r[16], uint32_t start);

/* pc is past every store the function at [start, end) makes before its first call (bl,
 * blx; or its first PROLOGUE_MAX instructions). frame_only: pushes only (a C function's
 * saved registers, not its locals); otherwise any store (an exception entry writes its
 * register frame through other registers too). Either way, by then the frame is written. */
bool prologue_stored(uint32_t start, uint32_t end, uint32_t pc, bool frame_only);

#endif
