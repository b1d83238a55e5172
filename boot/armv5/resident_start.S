/* SPDX-License-Identifier: MIT */
/* First code in the resident copy: stacks for every mode, vectors, alignment checking,
 * then C. */
#include "asm_macros.S"
#include "cpu_frame.h"

    .syntax unified
    .arm

#define SCTLR_A (1 << 1)    /* alignment fault checking */
#define SCTLR_V (1 << 13)   /* high vectors */

    .macro set_mode_stack mode, top
    msr     cpsr_c, #(\mode | ARM_PSR_I | ARM_PSR_F)
    ldr     sp, =\top
    .endm

/* In: r7 = load address of the image, r8-r11 = r0-r3 at reset.
 * Out: never returns (ends in idle_loop). */
func resident_start
    ldr     r0, =boot_image_base
    str     r7, [r0]
    set_mode_stack ARM_MODE_FIQ, __stack_fiq_top
    set_mode_stack ARM_MODE_IRQ, __stack_irq_top
    set_mode_stack ARM_MODE_ABT, __stack_abt_top
    set_mode_stack ARM_MODE_UND, __stack_und_top
    set_mode_stack ARM_MODE_SVC, __stack_boot_top   @ the monitor's: FIQs are masked until idle

    @ Low vectors, and unaligned accesses fault instead of rotating (ARMv5 LDR semantics),
    @ so a user's unaligned md/mw reports a fault rather than misleading data.
    mrc     p15, 0, r0, c1, c0, 0
    bic     r0, r0, #SCTLR_V
    orr     r0, r0, #SCTLR_A
    mcr     p15, 0, r0, c1, c0, 0

    bl      vectors_install

    mov     r0, r8
    mov     r1, r9
    mov     r2, r10
    mov     r3, r11
    bl      fiqmon_main
    ldr     sp, =__stack_svc_top        @ the idle loop's (shared with the fatal reports)
    bl      port_monitor_stack_paint    @ the boot is done with the monitor's stack
    b       idle_loop
endfunc resident_start
