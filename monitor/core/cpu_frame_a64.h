/* SPDX-License-Identifier: MIT */
/* AArch64: the interrupted CPU context, as the EL3 FIQ entry code saves it and restores it
 * on exit (boot/aarch64/fiq_entry.S). The general registers, the stack pointers and
 * exception registers of EL0-EL2 (fiqmon at EL3 banks nothing else of theirs), and where the
 * context resumes. SIMD/FP registers are not saved: fiqmon is built without them
 * (-mgeneral-regs-only), so they are never touched. Included by assembly for the offsets. */
#ifndef FIQMON_CPU_FRAME_A64_H
#define FIQMON_CPU_FRAME_A64_H

#define FRAME_X0        0       /* x0-x30 */
#define FRAME_SP_EL0    248
#define FRAME_SP_EL1    256
#define FRAME_ELR_EL1   264
#define FRAME_SPSR_EL1  272
#define FRAME_SP_EL2    280
#define FRAME_ELR_EL2   288
#define FRAME_SPSR_EL2  296
#define FRAME_PC        304     /* ELR_EL3: where the interrupted context resumes */
#define FRAME_PSTATE    312     /* SPSR_EL3: its PSTATE */
#define FRAME_WORLD     316     /* SCR_EL3.NS: 1 when it runs in the Normal world */
#define FRAME_SIZE      320

/* PSTATE as an SPSR holds it (AArch64 state) */
#define A64_PSTATE_M_MASK   0xf     /* M[3:0]: exception level (3:2) and SP_ELx (0) */
#define A64_PSTATE_EL0T     0x0
#define A64_PSTATE_EL1H     0x5
#define A64_PSTATE_EL2H     0x9
#define A64_PSTATE_EL3T     0xc
#define A64_PSTATE_NRW      (1u << 4)   /* set: AArch32 */
#define A64_PSTATE_F        (1u << 6)
#define A64_PSTATE_I        (1u << 7)
#define A64_PSTATE_A        (1u << 8)
#define A64_PSTATE_D        (1u << 9)

#ifndef __ASSEMBLER__
#include <stddef.h>
#include <stdint.h>

#include "target.h"

struct cpu_frame {
    uint64_t x[31];
    uint64_t sp_el0, sp_el1, elr_el1, spsr_el1;
    uint64_t sp_el2, elr_el2, spsr_el2;
    uint64_t pc;
    uint32_t pstate;
    uint32_t world; /* FRAME_WORLD_* */
};

#define FRAME_WORLD_SECURE    0u
#define FRAME_WORLD_NORMAL    1u

_Static_assert(offsetof(struct cpu_frame, sp_el0) == FRAME_SP_EL0, "frame layout");
_Static_assert(offsetof(struct cpu_frame, sp_el1) == FRAME_SP_EL1, "frame layout");
_Static_assert(offsetof(struct cpu_frame, elr_el1) == FRAME_ELR_EL1, "frame layout");
_Static_assert(offsetof(struct cpu_frame, spsr_el1) == FRAME_SPSR_EL1, "frame layout");
_Static_assert(offsetof(struct cpu_frame, sp_el2) == FRAME_SP_EL2, "frame layout");
_Static_assert(offsetof(struct cpu_frame, elr_el2) == FRAME_ELR_EL2, "frame layout");
_Static_assert(offsetof(struct cpu_frame, spsr_el2) == FRAME_SPSR_EL2, "frame layout");
_Static_assert(offsetof(struct cpu_frame, pc) == FRAME_PC, "frame layout");
_Static_assert(offsetof(struct cpu_frame, pstate) == FRAME_PSTATE, "frame layout");
_Static_assert(offsetof(struct cpu_frame, world) == FRAME_WORLD, "frame layout");
_Static_assert(sizeof(struct cpu_frame) == FRAME_SIZE, "frame layout");

static inline uint32_t frame_psr(const struct cpu_frame *f)
{
    return f->pstate;
}

/* The stack pointer the interrupted context uses (SP_EL0 in an "t" mode, else its EL's). */
uint64_t *frame_sp(struct cpu_frame *f);
/* "el1h", "el0t", ...; "aarch32" for a context in AArch32 state. */
const char *arm_mode_name(uint32_t psr);
/* "nZCv" style flags and the mask bits, e.g. "nZCv DAIF" (out: at least 16 bytes). */
void arm_psr_describe(uint32_t psr, char *out);
/* A hand-off: the context starts at entry in psr's EL with x0-x2, every other general
 * register and its stack pointers 0 (the arm64 boot protocol: x0 the device tree). */
void frame_set_entry(struct cpu_frame *f, uint32_t psr, uint32_t world, target_addr_t entry,
                     uint64_t x0, uint64_t x1, uint64_t x2);
#endif

#endif
