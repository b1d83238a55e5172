/* SPDX-License-Identifier: MIT */
/* FIQ entry for ARMv5: FIQ mode with banked r8-r12, sp, lr.
 *
 * Plain noise never gets here: the vector goes to the platform's noise path (fiq_noise.S),
 * which finishes those FIQs alone and comes here with anything else, having stacked what
 * AAPCS lets C clobber and loaded platform_fiq_fast()'s arguments.
 *
 * C path: call platform_fiq_fast(). If it returns 0, return to the interrupted context.
 *
 * Full path (the monitor has work): save the complete context, every mode's banked
 * registers included, into cpu_frame, call monitor_fiq_full(&cpu_frame), and restore
 * everything from the frame - so edits made by the monitor take effect and nothing else
 * changes. FIQ mode belongs to fiqmon (see docs/kernel-contract.md): sp_fiq is reloaded
 * on every entry and lr_fiq/spsr_fiq are clobbered by the exception itself; r8-r12_fiq
 * are preserved anyway. */
#include "asm_macros.S"
#include "cpu_frame.h"

    .syntax unified
    .arm

    .macro save_bank mode, offset
    msr     cpsr_c, #(\mode | ARM_PSR_I | ARM_PSR_F)
    mov     r1, sp
    mov     r2, lr
    mrs     r3, spsr
    add     r0, r4, #\offset
    stmia   r0, {r1-r3}
    .endm

    .macro restore_bank mode, offset
    add     r0, r4, #\offset
    ldmia   r0, {r1-r3}
    msr     cpsr_c, #(\mode | ARM_PSR_I | ARM_PSR_F)
    mov     sp, r1
    mov     lr, r2
    msr     spsr_cxsf, r3
    .endm

/* In: FIQ mode, I and F masked by the exception; on the FIQ stack the interrupted r0-r3,
 * r12_fiq and lr_fiq; r0, r1 platform_fiq_fast()'s arguments. Out: the interrupted context. */
func fiq_entry
    bl      platform_fiq_fast
    cmp     r0, #0
    ldmfdeq sp!, {r0-r3, r12, lr}
    subseq  pc, lr, #4

    /* Full path. Stack: r0-r3, r12_fiq, lr_fiq of the interrupted context. */
    ldr     r12, =cpu_frame
    add     r0, r12, #(FRAME_R0 + 16)
    stmia   r0, {r4-r7}
    ldmia   sp, {r0-r3}
    stmia   r12, {r0-r3}
    add     r0, r12, #FRAME_R8
    stmia   r0, {r8-r14}^               @ usr bank: r8-r12, sp_usr, lr_usr
    nop                                 @ no banked access right after a user-bank stm
    add     r0, r12, #FRAME_FIQ_R8
    stmia   r0, {r8-r11}
    ldr     r1, [sp, #16]               @ r12_fiq
    add     r2, sp, #24                 @ sp_fiq as it was on entry
    ldr     r3, [sp, #20]               @ lr_fiq = resume pc + 4
    mrs     r4, spsr                    @ interrupted cpsr
    add     r0, r12, #(FRAME_FIQ_R8 + 16)
    stmia   r0, {r1-r4}                 @ r12_fiq, sp_fiq, lr_fiq, spsr_fiq
    sub     r3, r3, #4
    str     r3, [r12, #FRAME_PC]
    str     r4, [r12, #FRAME_CPSR]

    /* Other modes bank r13-r14 only, but outside FIQ mode r8-r12 are the usr bank,
     * so the frame pointer lives in r4 while modes switch. */
    mov     r4, r12
    save_bank ARM_MODE_SVC, FRAME_SVC
    save_bank ARM_MODE_ABT, FRAME_ABT
    save_bank ARM_MODE_UND, FRAME_UND
    save_bank ARM_MODE_IRQ, FRAME_IRQ
    msr     cpsr_c, #(ARM_MODE_FIQ | ARM_PSR_I | ARM_PSR_F)

    bl      platform_monitor_enter
    ldr     r0, =cpu_frame
    bl      monitor_fiq_full
    bl      platform_monitor_exit

    ldr     r4, =cpu_frame
    restore_bank ARM_MODE_SVC, FRAME_SVC
    restore_bank ARM_MODE_ABT, FRAME_ABT
    restore_bank ARM_MODE_UND, FRAME_UND
    restore_bank ARM_MODE_IRQ, FRAME_IRQ
    msr     cpsr_c, #(ARM_MODE_FIQ | ARM_PSR_I | ARM_PSR_F)
    mov     r12, r4

    add     r0, r12, #FRAME_R8
    ldmia   r0, {r8-r14}^               @ usr bank
    nop
    add     r0, r12, #FRAME_FIQ_R8
    ldmia   r0, {r8-r11}                @ r8-r11_fiq
    ldr     r0, [r12, #FRAME_CPSR]
    msr     spsr_cxsf, r0
    ldr     lr, [r12, #FRAME_PC]
    ldmia   r12, {r0-r7}
    ldr     r12, [r12, #(FRAME_FIQ_R8 + 16)] @ r12_fiq last: it was the frame pointer
    movs    pc, lr
endfunc fiq_entry

    .section .bss.buffers.cpu_frame, "aw", %nobits
    .balign 8
    .global cpu_frame
cpu_frame:
    .space  FRAME_SIZE
    .size   cpu_frame, FRAME_SIZE
