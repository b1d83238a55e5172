/* SPDX-License-Identifier: MIT */
/* AArch32: the interrupted CPU context, as the FIQ entry code saves it and restores it on exit.
 * Every banked copy is stored once; the registers of "the interrupted mode" are a view
 * onto the banks (frame_reg), so an edit lands exactly where the exit code reloads it.
 * Included by assembly for the offsets. */
#ifndef FIQMON_CPU_FRAME_A32_H
#define FIQMON_CPU_FRAME_A32_H

#define FRAME_R0        0       /* r0-r12; r8-r12 are the usr bank */
#define FRAME_R8        32
#define FRAME_SP_USR    52      /* sp_usr, lr_usr */
#define FRAME_SVC       60      /* each bank: sp, lr, spsr */
#define FRAME_ABT       72
#define FRAME_UND       84
#define FRAME_IRQ       96
#define FRAME_FIQ_R8    108     /* r8_fiq-r12_fiq */
#define FRAME_FIQ       128     /* sp_fiq, lr_fiq, spsr_fiq */
#define FRAME_MON       140     /* sp_mon, lr_mon, spsr_mon (Security Extensions only) */
#define FRAME_PC        152     /* where the interrupted context resumes */
#define FRAME_CPSR      156     /* its cpsr */
#define FRAME_WORLD     160     /* 1: it runs in the Normal (Non-secure) world */
#define FRAME_SIZE      168

#define ARM_MODE_MASK   0x1f
#define ARM_MODE_USR    0x10
#define ARM_MODE_FIQ    0x11
#define ARM_MODE_IRQ    0x12
#define ARM_MODE_SVC    0x13
#define ARM_MODE_MON    0x16
#define ARM_MODE_ABT    0x17
#define ARM_MODE_HYP    0x1a
#define ARM_MODE_UND    0x1b
#define ARM_MODE_SYS    0x1f
#define ARM_PSR_T       (1u << 5)
#define ARM_PSR_F       (1u << 6)
#define ARM_PSR_I       (1u << 7)
#define ARM_PSR_A       (1u << 8)

#ifndef __ASSEMBLER__
#include <stddef.h>
#include <stdint.h>

#include "target.h"

struct cpu_bank {
    uint32_t sp, lr, spsr;
};

struct cpu_frame {
    uint32_t r[13];
    uint32_t sp_usr, lr_usr;
    struct cpu_bank svc, abt, und, irq;
    uint32_t fiq_r8_r12[5];
    struct cpu_bank fiq;
    struct cpu_bank mon;
    uint32_t pc;
    uint32_t cpsr;
    uint32_t world; /* FRAME_WORLD_*; always secure/only on CPUs without TrustZone */
    uint32_t pad;
};

#define FRAME_WORLD_SECURE    0u
#define FRAME_WORLD_NORMAL    1u

_Static_assert(offsetof(struct cpu_frame, r[8]) == FRAME_R8, "frame layout");
_Static_assert(offsetof(struct cpu_frame, sp_usr) == FRAME_SP_USR, "frame layout");
_Static_assert(offsetof(struct cpu_frame, svc) == FRAME_SVC, "frame layout");
_Static_assert(offsetof(struct cpu_frame, abt) == FRAME_ABT, "frame layout");
_Static_assert(offsetof(struct cpu_frame, und) == FRAME_UND, "frame layout");
_Static_assert(offsetof(struct cpu_frame, irq) == FRAME_IRQ, "frame layout");
_Static_assert(offsetof(struct cpu_frame, fiq_r8_r12) == FRAME_FIQ_R8, "frame layout");
_Static_assert(offsetof(struct cpu_frame, fiq) == FRAME_FIQ, "frame layout");
_Static_assert(offsetof(struct cpu_frame, mon) == FRAME_MON, "frame layout");
_Static_assert(offsetof(struct cpu_frame, pc) == FRAME_PC, "frame layout");
_Static_assert(offsetof(struct cpu_frame, cpsr) == FRAME_CPSR, "frame layout");
_Static_assert(offsetof(struct cpu_frame, world) == FRAME_WORLD, "frame layout");
_Static_assert(sizeof(struct cpu_frame) == FRAME_SIZE, "frame layout");

static inline uint32_t frame_psr(const struct cpu_frame *f)
{
    return f->cpsr;
}

/* Register n (0-15) as the interrupted mode sees it. */
uint32_t *frame_reg(struct cpu_frame *f, unsigned n);
/* Its stack pointer and link register (the same words on AArch64: cpu_frame_a64.h). */
static inline uint32_t *frame_sp(struct cpu_frame *f)
{
    return frame_reg(f, 13);
}
static inline uint32_t *frame_lr(struct cpu_frame *f)
{
    return frame_reg(f, 14);
}
/* The interrupted mode's spsr, or NULL in usr/sys mode, which have none. */
uint32_t *frame_spsr(struct cpu_frame *f);
/* "svc", "irq", ...; "???" for a reserved encoding. */
const char *arm_mode_name(uint32_t psr);
/* "nZCv" style flags and the mask bits, e.g. "nZCv I" (out: at least 16 bytes). */
void arm_psr_describe(uint32_t psr, char *out);
/* A hand-off: the context starts at entry in psr's mode with r0-r2, every other general
 * register 0 (world: the frame's, FRAME_WORLD_*). */
void frame_set_entry(struct cpu_frame *f, uint32_t psr, uint32_t world, target_addr_t entry,
                     uint32_t r0, uint32_t r1, uint32_t r2);
#endif

#endif
