/* SPDX-License-Identifier: MIT */
/* FIQ and SMC entry in Monitor mode (ARMv7 Security Extensions). Monitor mode banks only
 * sp, lr and spsr; r8-r12 here are the usr bank. sp_mon is fiqmon's and unreachable from
 * the Normal world.
 *
 * Plain noise never gets here: the vector goes to the platform's noise path (fiq_noise.S),
 * which finishes those FIQs alone and comes here with anything else, having stacked the
 * caller-saved registers and loaded platform_fiq_fast()'s arguments (r0, r1).
 *
 * C path: call platform_fiq_fast(); if it returns 0 go straight back to whichever world
 * was interrupted.
 *
 * Full path: save everything into cpu_frame, including which world ran (SCR.NS), then
 * clear SCR.NS so that mode switches, CP15 and instruction fetches are Secure while the
 * monitor runs; restore everything, set SCR.NS from the frame (a hand-off rewrites it)
 * and return. Core registers are not banked by security state, so visiting SVC, ABT,
 * UND, IRQ, FIQ and SYS mode from the Secure side reads the Normal world's registers. */
#include "asm_macros.S"
#include "cpu_frame.h"

    .syntax unified
    .arm

#define SCR_NS 1

    .macro save_bank mode, offset
    cps     #\mode
    mov     r1, sp
    mov     r2, lr
    mrs     r3, spsr
    add     r0, r4, #\offset
    stmia   r0, {r1-r3}
    .endm

    .macro restore_bank mode, offset
    add     r0, r4, #\offset
    ldmia   r0, {r1-r3}
    cps     #\mode
    mov     sp, r1
    mov     lr, r2
    msr     spsr_cxsf, r3
    .endm

/* This CPU's frame: cpu_frame is one per CPU (SMP > 1), CPU 0's first. */
    .macro this_cpu_frame reg, tmp
    ldr     \reg, =cpu_frame
#if defined(FIQMON_SMP) && FIQMON_SMP > 1
    mrc     p15, 0, \tmp, c0, c0, 5     @ MPIDR: affinity 0 is the index
    and     \tmp, \tmp, #0xff
    add     \reg, \reg, \tmp, lsl #7   @ FRAME_SIZE = 168 = 128 + 32 + 8
    add     \reg, \reg, \tmp, lsl #5
    add     \reg, \reg, \tmp, lsl #3
#endif
    .endm

func mon_fiq_entry
    bl      platform_fiq_fast
    cmp     r0, #0
    ldmfdeq sp!, {r0-r3, r12, lr}
    subseq  pc, lr, #4

    this_cpu_frame r12, r1
    add     r0, r12, #(FRAME_R0 + 16)
    stmia   r0, {r4-r7}
    ldmia   sp, {r0-r3}
    stmia   r12, {r0-r3}
    add     r0, r12, #FRAME_R8
    stmia   r0, {r8-r11}
    ldr     r1, [sp, #16]               @ r12
    str     r1, [r12, #(FRAME_R8 + 16)]
    ldr     r2, [sp, #20]               @ lr_mon as the FIQ left it: resume pc + 4
    add     sp, sp, #24
    mov     r1, sp
    mrs     r3, spsr
    add     r0, r12, #FRAME_MON
    stmia   r0, {r1-r3}                 @ sp_mon, lr_mon, spsr_mon
    sub     r2, r2, #4
    str     r2, [r12, #FRAME_PC]
    str     r3, [r12, #FRAME_CPSR]
    mrc     p15, 0, r0, c1, c1, 0       @ SCR
    and     r1, r0, #SCR_NS
    str     r1, [r12, #FRAME_WORLD]
    bic     r0, r0, #SCR_NS
    mcr     p15, 0, r0, c1, c1, 0
    isb

    mov     r4, r12
    cps     #ARM_MODE_SYS
    str     sp, [r4, #FRAME_SP_USR]
    str     lr, [r4, #(FRAME_SP_USR + 4)]
    save_bank ARM_MODE_SVC, FRAME_SVC
    save_bank ARM_MODE_ABT, FRAME_ABT
    save_bank ARM_MODE_UND, FRAME_UND
    save_bank ARM_MODE_IRQ, FRAME_IRQ
    save_bank ARM_MODE_FIQ, FRAME_FIQ
    add     r0, r4, #FRAME_FIQ_R8
    stmia   r0, {r8-r12}                @ FIQ mode: its own r8-r12
    cps     #ARM_MODE_MON

#if defined(FIQMON_SMP) && FIQMON_SMP > 1
    mov     r0, r4
    bl      platform_fiq_full           @ CPU 0: the monitor; the others: the roundup
#else
    bl      platform_monitor_enter
    ldr     r0, =cpu_frame
    bl      monitor_fiq_full
    bl      platform_monitor_exit
#endif

    this_cpu_frame r4, r0
    cps     #ARM_MODE_FIQ
    add     r0, r4, #FRAME_FIQ_R8
    ldmia   r0, {r8-r12}
    restore_bank ARM_MODE_FIQ, FRAME_FIQ
    restore_bank ARM_MODE_IRQ, FRAME_IRQ
    restore_bank ARM_MODE_UND, FRAME_UND
    restore_bank ARM_MODE_ABT, FRAME_ABT
    restore_bank ARM_MODE_SVC, FRAME_SVC
    cps     #ARM_MODE_SYS
    ldr     sp, [r4, #FRAME_SP_USR]
    ldr     lr, [r4, #(FRAME_SP_USR + 4)]
    cps     #ARM_MODE_MON

    mov     r12, r4
    ldr     r0, [r12, #FRAME_CPSR]
    msr     spsr_cxsf, r0
    ldr     lr, [r12, #FRAME_PC]
    mrc     p15, 0, r0, c1, c1, 0
    ldr     r1, [r12, #FRAME_WORLD]
    bic     r0, r0, #SCR_NS
    orr     r0, r0, r1
    mcr     p15, 0, r0, c1, c1, 0
    isb
    add     r0, r12, #FRAME_R8
    ldmia   r0, {r8-r11}
    ldmia   r12, {r0-r7}
    ldr     r12, [r12, #(FRAME_R8 + 16)]
    movs    pc, lr
endfunc mon_fiq_entry

/* SMC from the Normal world: r0 = function id, r1-r3 arguments; r0 = result.
 * The other registers are preserved (the SMC calling convention allows r1-r3 to change;
 * fiqmon keeps them). */
func mon_smc_entry
    stmfd   sp!, {r1-r3, r12, lr}
    bl      platform_smc
    ldmfd   sp!, {r1-r3, r12, lr}
    movs    pc, lr
endfunc mon_smc_entry

    .section .bss.buffers.cpu_frame, "aw", %nobits
    .balign 8
    .global cpu_frame
cpu_frame:
#if defined(FIQMON_SMP) && FIQMON_SMP > 1
    .space  FRAME_SIZE * FIQMON_SMP
    .size   cpu_frame, FRAME_SIZE * FIQMON_SMP
#else
    .space  FRAME_SIZE
    .size   cpu_frame, FRAME_SIZE
#endif
