/* SPDX-License-Identifier: MIT */
/* AArch64 backtraces of the interrupted kernel by its frame records (arm64 Linux always
 * builds with frame pointers): x29 points at {the caller's x29, the return address}, and the
 * exception entry code links a frame record into every pt_regs, so one chain crosses IRQ
 * and task stacks. Return addresses may carry a pointer-authentication code
 * (CONFIG_ARM64_PTR_AUTH_KERNEL): it is stripped by restoring the kernel's top bits above
 * VA_BITS (VMCOREINFO NUMBER(VA_BITS), 48 if absent). */
#ifndef FIQMON_UNWIND_A64_H
#define FIQMON_UNWIND_A64_H

#include <stdbool.h>
#include <stdint.h>

#include "target.h"

#define UNWIND_A64_MAX_FRAMES 64

struct cpu_frame;

/* addr without a pointer-authentication code, for a kernel address (bit 55 set) of a
 * kernel with va_bits-bit virtual addresses; user addresses unchanged. */
uint64_t unwind_a64_strip_pac(uint64_t addr, unsigned va_bits);

#if FIQMON_AARCH64
/* addr stripped as the running kernel's VA_BITS say (a return address in x30 or a frame
 * record). */
uint64_t unwind_a64_kernel_pac_strip(uint64_t addr);
/* Prints "#N address symbol+off/size" lines from the context in f: its pc, its caller from
 * x30 when the pc's function has not stored its frame record (a leaf, a prologue), then
 * the chain from x29. Needs ksyms_ready(). */
void unwind_a64_backtrace(struct cpu_frame *f);
/* The same from a context a task saved when it switched out (thread.cpu_context): pc (a
 * return address into __switch_to) as #0, then the chain from fp. */
void unwind_a64_backtrace_from(uint64_t pc, uint64_t fp);
#endif

#endif
