/* SPDX-License-Identifier: MIT */
/* The secondary CPUs' entry code (SMP > 1): their wait at reset, their start in the
 * resident copy, and the way into the Normal world when PSCI CPU_ON gives them a kernel.
 * They run in Monitor mode only, each on its own stack (__stack_cpus_bottom + n * size). */
#include "asm_macros.S"
#include "cpu_frame.h"
#include "gicv2.h"
#include "platform_def.h"

    .syntax unified
    .arm

#define SCR_NS  1
#define SCTLR_M (1 << 0)
#define SCTLR_A (1 << 1)
#define SCTLR_C (1 << 2)
#define SCTLR_I (1 << 12)
#define SCTLR_V (1 << 13)

/* From the reset entry (boot/armv7/entry.S), in the image fiqmon was loaded from: the
 * resident copy is not there yet, nor is its memory cleared. Wait for CPU_SGI, which CPU 0
 * sends when it is (a flag in memory could be one a warm reset left). Group 0 is signalled
 * as IRQ here and masked: it only ends the WFI.
 * In: r12 = this CPU's index (not 0). Out: never returns. */
func smp_hold, .boot
    ldr     r4, =GICC_BASE
    mov     r1, #0xff
    str     r1, [r4, #GICC_PMR]
    mov     r1, #GICC_CTLR_ENABLE_GRP0
    str     r1, [r4, #GICC_CTLR]
1:  wfi
    ldr     r1, [r4, #GICC_IAR]
    ubfx    r2, r1, #0, #10
    movw    r3, #GIC_INTID_SPURIOUS
    cmp     r2, r3
    beq     1b
    str     r1, [r4, #GICC_EOIR]
    cmp     r2, #CPU_SGI
    bne     1b
    ldr     pc, =smp_secondary_start
endfunc smp_hold

/* In: r12 = this CPU's index. Out: never returns (the CPU parks, smp.c). */
func smp_secondary_start
    cps     #ARM_MODE_MON
    ldr     sp, =__stack_cpus_bottom
    add     sp, sp, r12, lsl #STACK_CPU_SHIFT
    ldr     r0, =secure_vectors
    mcr     p15, 0, r0, c12, c0, 0      @ VBAR (Secure)
    ldr     r0, =monitor_vectors
    mcr     p15, 0, r0, c12, c0, 1      @ MVBAR
    mrc     p15, 0, r0, c1, c0, 0
    bic     r0, r0, #SCTLR_V
    bic     r0, r0, #SCTLR_A
    mcr     p15, 0, r0, c1, c0, 0
    isb
    mov     r0, r12
    b       virt_smp_secondary_init
endfunc smp_secondary_start

/* CPU_OFF: this CPU's stack from its top again, then park (what was on it is dead).
 * In: r0 = this CPU's index. Monitor mode. Out: never returns. */
func smp_park_fresh
    ldr     sp, =__stack_cpus_bottom
    add     sp, sp, r0, lsl #STACK_CPU_SHIFT
    b       virt_smp_park
endfunc smp_park_fresh

/* Into the Normal world at a PSCI entry point, as a CPU out of reset: SVC with IRQs and
 * aborts masked (FIQs stay fiqmon's: SCR.FW = 0), the MMU and caches off (a CPU the kernel
 * took offline left its own on), r0 = the context; in Thumb state if entry bit 0 is set.
 * In: r0 = entry, r1 = context; Monitor mode, SCR.NS = 0. Out: never returns. */
func smp_enter_normal
    mrc     p15, 0, r2, c1, c1, 0
    orr     r2, r2, #SCR_NS
    mcr     p15, 0, r2, c1, c1, 0       @ CP15 accesses from here on: the Normal world's
    isb
    mrc     p15, 0, r2, c1, c0, 0
    bic     r2, r2, #(SCTLR_M | SCTLR_C)
    bic     r2, r2, #SCTLR_I
    mcr     p15, 0, r2, c1, c0, 0       @ SCTLR (Non-secure)
    isb
    mov     r2, #(ARM_MODE_SVC | ARM_PSR_A | ARM_PSR_I)
    tst     r0, #1                      @ PSCI: entry bit 0 asks for T32
    orrne   r2, r2, #ARM_PSR_T
    bicne   r0, r0, #1
    msr     spsr_cxsf, r2
    mov     lr, r0
    mov     r0, r1
    mov     r1, #0
    mov     r2, #0
    mov     r3, #0
    movs    pc, lr
endfunc smp_enter_normal
