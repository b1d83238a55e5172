/* SPDX-License-Identifier: MIT */
/* First code in the resident (Secure) copy: a stack per mode, Secure and Monitor vectors,
 * then C. fiqmon's own code runs in Secure SVC (boot, idle) and Monitor mode (FIQ, SMC). */
#include "asm_macros.S"
#include "cpu_frame.h"

    .syntax unified
    .arm

#define SCTLR_A (1 << 1)
#define SCTLR_V (1 << 13)

    .macro set_mode_stack mode, top
    cps     #\mode
    ldr     sp, =\top
    .endm

/* In: r7 = load address, r8-r11 = r0-r3 at reset. Out: never returns (idle_loop). */
func resident_start
    ldr     r0, =boot_image_base
    str     r7, [r0]
    set_mode_stack ARM_MODE_FIQ, __stack_abt_top    @ FIQ mode is never used: share
    set_mode_stack ARM_MODE_IRQ, __stack_irq_top
    set_mode_stack ARM_MODE_ABT, __stack_abt_top
    set_mode_stack ARM_MODE_UND, __stack_und_top
    set_mode_stack ARM_MODE_MON, __stack_fiq_top    @ the monitor runs on this one
    set_mode_stack ARM_MODE_SVC, __stack_boot_top   @ the monitor's: FIQs are masked until idle

    ldr     r0, =secure_vectors
    mcr     p15, 0, r0, c12, c0, 0      @ VBAR (Secure)
    ldr     r0, =monitor_vectors
    mcr     p15, 0, r0, c12, c0, 1      @ MVBAR
    @ Low vectors go through VBAR. Alignment checking stays off: ARMv7 handles unaligned
    @ accesses, and the compiler and newlib rely on it.
    mrc     p15, 0, r0, c1, c0, 0
    bic     r0, r0, #SCTLR_V
    bic     r0, r0, #SCTLR_A
    mcr     p15, 0, r0, c1, c0, 0
    isb

    mov     r0, r8
    mov     r1, r9
    mov     r2, r10
    mov     r3, r11
    bl      fiqmon_main
    ldr     sp, =__stack_svc_top        @ the idle loop's (shared with the fatal reports)
    bl      port_monitor_stack_paint    @ the boot is done with the monitor's stack
    b       idle_loop
endfunc resident_start
