/* SPDX-License-Identifier: MIT */
/* Guest entry. The contract: SVC mode, IRQs masked, FIQs enabled (QEMU's own loader leaves
 * FIQs masked, so the F bit is cleared here either way). Gives every exception mode a
 * stack, clears .bss and calls guest_main(r0, r1, r2) with the registers as received. */
#include "asm_macros.S"
#include "arm_cpu.h"

    .syntax unified
    .arm

    .macro mode_stack mode, top
    msr     cpsr_c, #(\mode | ARM_PSR_I)    @ F clear
    ldr     sp, =\top
    .endm

/* In: r0-r2 from whoever started the guest. Out: never returns. */
func _start, .text.start
    mov     r4, r0
    mov     r5, r1
    mov     r6, r2
    mode_stack ARM_MODE_IRQ, __stack_irq_top
    mode_stack ARM_MODE_ABT, __stack_abt_top
    mode_stack ARM_MODE_UND, __stack_und_top
    mode_stack ARM_MODE_SYS, __stack_sys_top
    mode_stack ARM_MODE_SVC, __stack_svc_top

    ldr     r0, =__bss_start
    ldr     r1, =__bss_end
    mov     r2, #0
1:  cmp     r0, r1
    strlo   r2, [r0], #4
    blo     1b

    mov     r0, r4
    mov     r1, r5
    mov     r2, r6
    bl      guest_main
    b       guest_idle
endfunc _start
