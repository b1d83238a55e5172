/* SPDX-License-Identifier: MIT */
/* The secondary CPUs' entry code (SMP > 1): their wait at reset, their start in the
 * resident copy, and the way into the Normal world when PSCI CPU_ON gives them a kernel.
 * At EL3 only, each on its own SP_EL3 (__stack_cpus_bottom + n * size). */
#include "asm_macros.S"
#include "aarch64_bits.h"
#include "gicv3.h"
#include "platform_def.h"

/* From the reset entry (boot/aarch64/entry.S), in the image fiqmon was loaded from: the
 * resident copy is not there yet, nor is its memory cleared. Wait for CPU_SGI, which CPU 0
 * sends when it is (a flag in memory could be one a warm reset left): this CPU's
 * redistributor awake with CPU_SGI in Group 0, the CPU interface on; FIQs stay masked
 * (PSTATE.F), so the SGI only ends the WFI. QEMU's virt places the redistributors in CPU
 * order. In: x12 = this CPU's index (not 0). Out: never returns. */
func smp_hold, .boot
    ldr     x4, =GICR_BASE
    mov     x5, #GICR_STRIDE
    madd    x4, x12, x5, x4             // this CPU's redistributor
    ldr     w1, [x4, #GICR_WAKER]
    bic     w1, w1, #2                  // ProcessorSleep
    str     w1, [x4, #GICR_WAKER]
1:  ldr     w1, [x4, #GICR_WAKER]
    tbnz    w1, #2, 1b                  // ChildrenAsleep
    add     x5, x4, #GICR_SGI_BASE
    ldr     w1, [x5, #(GICR_IGROUPR0 - GICR_SGI_BASE)]
    bic     w1, w1, #(1 << CPU_SGI)     // Group 0
    str     w1, [x5, #(GICR_IGROUPR0 - GICR_SGI_BASE)]
    mov     w1, #(1 << CPU_SGI)
    str     w1, [x5, #(GICR_ISENABLER0 - GICR_SGI_BASE)]
    mov     x1, #ICC_SRE_ENABLE_ALL
    msr     ICC_SRE_EL3, x1
    isb
    mov     x1, #0xff
    msr     ICC_PMR_EL1, x1
    mov     x1, #1
    msr     ICC_IGRPEN0_EL1, x1
    isb
2:  wfi
    mrs     x1, ICC_IAR0_EL1
    and     x2, x1, #0xffffff
    cmp     x2, #GIC_INTID_SPURIOUS
    b.eq    2b
    msr     ICC_EOIR0_EL1, x1
    cmp     x2, #CPU_SGI
    b.ne    2b
    ldr     x0, =smp_secondary_start
    br      x0
    .ltorg
endfunc smp_hold

/* In: x12 = this CPU's index. Out: never returns (the CPU parks, smp.c). */
func smp_secondary_start
    ldr     x0, =__stack_cpus_bottom
    lsl     x1, x12, #STACK_CPU_SHIFT
    add     x0, x0, x1
    mov     sp, x0
    ldr     x0, =el3_vectors
    msr     vbar_el3, x0
    mov     x0, #(SCR_EL3_RW | SCR_EL3_HCE | SCR_EL3_FIQ | SCR_EL3_RES1)
    msr     scr_el3, x0
    msr     cptr_el3, xzr
    msr     mdcr_el3, xzr
    isb
    mov     x0, x12
    b       virt64_smp_secondary_init
    .ltorg
endfunc smp_secondary_start

/* CPU_OFF: this CPU's stack from its top again, then park (what was on it is dead).
 * In: x0 = this CPU's index. Out: never returns. */
func smp_park_fresh
    ldr     x1, =__stack_cpus_bottom
    lsl     x2, x0, #STACK_CPU_SHIFT
    add     x1, x1, x2
    mov     sp, x1
    b       virt64_smp_park
    .ltorg
endfunc smp_park_fresh

/* Into the Normal world at a PSCI entry point, as a CPU out of reset (the arm64 boot
 * protocol): EL2h with DAIF masked, EL2's MMU and caches off (a CPU the kernel took
 * offline left them on), x0 = the context. In: x0 = entry, x1 = context. Out: never
 * returns. */
func smp_enter_normal
    ldr     x2, =SCTLR_EL2_RES1
    msr     sctlr_el2, x2
    mrs     x2, scr_el3
    orr     x2, x2, #SCR_EL3_NS
    msr     scr_el3, x2
    mov     x2, #(0x3c0 | 0x9)          // DAIF, EL2h
    msr     spsr_el3, x2
    msr     elr_el3, x0
    isb
    mov     x0, x1
    mov     x1, xzr
    mov     x2, xzr
    mov     x3, xzr
    eret
    .ltorg
endfunc smp_enter_normal
