/* SPDX-License-Identifier: MIT */
/* Backtraces of the interrupted kernel, with the kernel's own ARM unwind tables
 * (CONFIG_ARM_UNWIND) when they can be found, else a labelled heuristic stack scan.
 *
 * The index (.ARM.exidx, __start_unwind_idx) is not in kallsyms, so it is searched for:
 * 8-byte entries {prel31 to a function, 1 (cannot unwind) | 0x80xxxxxx (inline
 * instructions) | prel31 to an .ARM.extab word with personality 0x80/0x81}, functions
 * inside kallsyms' range and strictly increasing. Page starts between the first kernel
 * symbol and a little past the last are tried (text pages fail on their first word),
 * then the hit is widened entry by entry to the table's ends. Zero-filled pages cannot
 * pass: a zero word points at itself, outside the kernel's code. */
#ifndef FIQMON_UNWIND_H
#define FIQMON_UNWIND_H

#include <stdbool.h>
#include <stdint.h>

#define KERNEL_THREAD_SIZE 8192u /* ARM Linux kernel stacks (THREAD_SIZE) */

enum unwind_result {
    UNWIND_OK,
    UNWIND_END,      /* the entry says "cannot unwind" (e.g. ret_from_fork) */
    UNWIND_NO_ENTRY, /* pc is before the first function in the table */
    UNWIND_FAILED,   /* unsupported instruction or personality, a fault, no progress */
    UNWIND_PARTIAL,  /* an exception entry has not stored the frame its entry pops yet */
    UNWIND_UNVERIFIED, /* frame #0's table gives a "return address" after no call */
};

/* Finds (once per kernel) the unwind index; needs ksyms_ready(). False if there is none. */
bool unwind_ready(void);

/* One frame up from a return address: r (r0-r15 of the current frame) becomes the
 * caller's. unwind_backtrace() also handles the interrupted frame #0, which can stop
 * before its prologue has run (prologue.h). */
enum unwind_result unwind_step(uint32_t r[16]);

/* Prints a backtrace from regs (r0-r15): unwound with the tables, or with scan (or
 * without tables) a heuristic scan of the stack for return addresses into kernel code.
 * Needs ksyms_ready(). */
void unwind_backtrace(uint32_t regs[16], bool scan);

#endif
