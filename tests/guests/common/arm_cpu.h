/* SPDX-License-Identifier: MIT */
/* ARMv5 CPU bits the test guests use: modes, PSR bits, the SCTLR V bit, and C helpers that
 * change the I bit only. Nothing here ever sets the F bit: FIQs stay enabled. */
#ifndef GUEST_ARM_CPU_H
#define GUEST_ARM_CPU_H

#define ARM_MODE_USR    0x10
#define ARM_MODE_FIQ    0x11    /* fiqmon's: never entered by a guest */
#define ARM_MODE_IRQ    0x12
#define ARM_MODE_SVC    0x13
#define ARM_MODE_ABT    0x17
#define ARM_MODE_UND    0x1b
#define ARM_MODE_SYS    0x1f    /* privileged, with the usr bank's r13/r14 */
#define ARM_PSR_T       (1u << 5)
#define ARM_PSR_F       (1u << 6)
#define ARM_PSR_I       (1u << 7)
#define ARM_PSR_NZCV    0xf0000000u

#define SCTLR_V         (1u << 13)  /* high vectors */

#ifndef __ASSEMBLER__
#include <stdint.h>

static inline void irq_enable(void)
{
    uint32_t t;

    __asm__ volatile("mrs %0, cpsr\n\tbic %0, %0, #0x80\n\tmsr cpsr_c, %0" : "=r"(t) : : "memory");
}

static inline void irq_disable(void)
{
    uint32_t t;

    __asm__ volatile("mrs %0, cpsr\n\torr %0, %0, #0x80\n\tmsr cpsr_c, %0" : "=r"(t) : : "memory");
}

static inline uint32_t cpu_cpsr(void)
{
    uint32_t v;

    __asm__ volatile("mrs %0, cpsr" : "=r"(v));
    return v;
}

/* ARM926 wait for interrupt; wakes on a pending IRQ or FIQ even while the I bit is set. */
static inline void cpu_wfi(void)
{
    __asm__ volatile("mcr p15, 0, %0, c7, c0, 4" : : "r"(0) : "memory");
}
#endif

#endif
