/* SPDX-License-Identifier: MIT */
/* FIQ and SMC entry at EL3. SP_EL3 is fiqmon's and unreachable from the Normal world.
 *
 * Plain noise never gets here: the vector goes to the platform's noise path
 * (fiq_noise.S), which finishes those FIQs alone and comes here with the interrupted x0-x3
 * stacked and platform_fiq_fast()'s arguments loaded (x0 the IAR, w1 the byte kept).
 *
 * C path: save x0-x30, ELR_EL3 and SPSR_EL3 into cpu_frame (the C code may take and catch
 * an exception of its own, which overwrites ELR/SPSR_EL3), call platform_fiq_fast(); if it
 * returns 0, restore and return. Full path: add the stack pointers and exception
 * registers of EL0-EL2 and the world (SCR_EL3.NS), run the monitor, restore all of it
 * (a hand-off rewrites the frame) and return. SCR_EL3.NS stays as the interrupted world
 * had it while the monitor runs: AT S1E1R then walks the kernel's own tables. */
#include "asm_macros.S"
#include "aarch64_bits.h"
#include "cpu_frame.h"

/* This CPU's frame: cpu_frame is one per CPU (SMP > 1), CPU 0's first. */
    .macro this_cpu_frame reg, tmp
    adr     \reg, cpu_frame
#if defined(FIQMON_SMP) && FIQMON_SMP > 1
    mrs     \tmp, mpidr_el1
    and     \tmp, \tmp, #0xff          // affinity 0 is the index
    add     \reg, \reg, \tmp, lsl #8   // FRAME_SIZE = 320 = 256 + 64
    add     \reg, \reg, \tmp, lsl #6
#endif
    .endm

/* The interrupted context into this CPU's frame, from x4-x30 as they are, x0-x3 as the
 * entry stacked them (popped), ELR_EL3 and SPSR_EL3. x0 and x1 are kept; x2 = the frame. */
    .macro save_context
    this_cpu_frame x2, x3
    stp     x4, x5, [x2, #(FRAME_X0 + 32)]
    stp     x6, x7, [x2, #(FRAME_X0 + 48)]
    stp     x8, x9, [x2, #(FRAME_X0 + 64)]
    stp     x10, x11, [x2, #(FRAME_X0 + 80)]
    stp     x12, x13, [x2, #(FRAME_X0 + 96)]
    stp     x14, x15, [x2, #(FRAME_X0 + 112)]
    stp     x16, x17, [x2, #(FRAME_X0 + 128)]
    stp     x18, x19, [x2, #(FRAME_X0 + 144)]
    stp     x20, x21, [x2, #(FRAME_X0 + 160)]
    stp     x22, x23, [x2, #(FRAME_X0 + 176)]
    stp     x24, x25, [x2, #(FRAME_X0 + 192)]
    stp     x26, x27, [x2, #(FRAME_X0 + 208)]
    stp     x28, x29, [x2, #(FRAME_X0 + 224)]
    str     x30, [x2, #(FRAME_X0 + 240)]
    ldp     x4, x5, [sp]                // the interrupted x0-x3, as the noise path stacked them
    stp     x4, x5, [x2, #FRAME_X0]
    ldp     x4, x5, [sp, #16]
    stp     x4, x5, [x2, #(FRAME_X0 + 16)]
    add     sp, sp, #32
    mrs     x4, elr_el3
    str     x4, [x2, #FRAME_PC]
    mrs     x4, spsr_el3
    str     w4, [x2, #FRAME_PSTATE]
    .endm

func mon_fiq_entry
    save_context
    bl      platform_fiq_fast
    cbnz    w0, full_path

restore_return:
    this_cpu_frame x2, x3
    ldr     x4, [x2, #FRAME_PC]
    msr     elr_el3, x4
    ldr     w4, [x2, #FRAME_PSTATE]
    msr     spsr_el3, x4
    ldp     x0, x1, [x2, #FRAME_X0]
    ldp     x4, x5, [x2, #(FRAME_X0 + 32)]
    ldp     x6, x7, [x2, #(FRAME_X0 + 48)]
    ldp     x8, x9, [x2, #(FRAME_X0 + 64)]
    ldp     x10, x11, [x2, #(FRAME_X0 + 80)]
    ldp     x12, x13, [x2, #(FRAME_X0 + 96)]
    ldp     x14, x15, [x2, #(FRAME_X0 + 112)]
    ldp     x16, x17, [x2, #(FRAME_X0 + 128)]
    ldp     x18, x19, [x2, #(FRAME_X0 + 144)]
    ldp     x20, x21, [x2, #(FRAME_X0 + 160)]
    ldp     x22, x23, [x2, #(FRAME_X0 + 176)]
    ldp     x24, x25, [x2, #(FRAME_X0 + 192)]
    ldp     x26, x27, [x2, #(FRAME_X0 + 208)]
    ldp     x28, x29, [x2, #(FRAME_X0 + 224)]
    ldr     x30, [x2, #(FRAME_X0 + 240)]
    ldp     x2, x3, [x2, #(FRAME_X0 + 16)]
    eret

full_path:
    this_cpu_frame x2, x3
    mrs     x4, sp_el0
    mrs     x5, sp_el1
    stp     x4, x5, [x2, #FRAME_SP_EL0]
    mrs     x4, elr_el1
    mrs     x5, spsr_el1
    stp     x4, x5, [x2, #FRAME_ELR_EL1]
    mrs     x4, sp_el2
    mrs     x5, elr_el2
    stp     x4, x5, [x2, #FRAME_SP_EL2]
    mrs     x4, spsr_el2
    str     x4, [x2, #FRAME_SPSR_EL2]
    mrs     x4, scr_el3
    and     x4, x4, #SCR_EL3_NS
    str     w4, [x2, #FRAME_WORLD]

#if defined(FIQMON_SMP) && FIQMON_SMP > 1
    mov     x0, x2
    bl      platform_fiq_full           // CPU 0: the monitor; the others: the roundup
#else
    bl      platform_monitor_enter
    adr     x0, cpu_frame
    bl      monitor_fiq_full
    bl      platform_monitor_exit
#endif

    this_cpu_frame x2, x3
    ldp     x4, x5, [x2, #FRAME_SP_EL0]
    msr     sp_el0, x4
    msr     sp_el1, x5
    ldp     x4, x5, [x2, #FRAME_ELR_EL1]
    msr     elr_el1, x4
    msr     spsr_el1, x5
    ldp     x4, x5, [x2, #FRAME_SP_EL2]
    msr     sp_el2, x4
    msr     elr_el2, x5
    ldr     x4, [x2, #FRAME_SPSR_EL2]
    msr     spsr_el2, x4
    mrs     x4, scr_el3
    bic     x4, x4, #SCR_EL3_NS
    ldr     w5, [x2, #FRAME_WORLD]
    orr     x4, x4, x5
    msr     scr_el3, x4
    isb
    b       restore_return
endfunc mon_fiq_entry

/* A trap from the kernel to EL3 other than an SMC (vectors.S), with the interrupted x0-x3
 * stacked as the noise path stacks them: x0 = ESR_EL3. The platform answers it through the
 * frame (platform_lower_trap) and the context resumes as the frame says. */
func mon_trap_entry
    save_context
    mov     x1, x2
    bl      platform_lower_trap
    b       restore_return
endfunc mon_trap_entry

/* SMC from the kernel: w0 = function id, x1-x3 arguments; x0 = result (SMCCC). The other
 * registers are preserved (SMCCC lets x4-x17 change; fiqmon keeps them). */
func el3_smc_entry
    stp     x1, x2, [sp, #-96]!
    stp     x3, x4, [sp, #16]
    stp     x5, x6, [sp, #32]
    stp     x7, x8, [sp, #48]
    stp     x9, x10, [sp, #64]
    stp     x11, x12, [sp, #80]
    sub     sp, sp, #64
    stp     x13, x14, [sp]
    stp     x15, x16, [sp, #16]
    stp     x17, x18, [sp, #32]
    str     x30, [sp, #48]
    mrs     x4, elr_el3
    mrs     x5, spsr_el3
    stp     x4, x5, [sp, #-16]!
    bl      platform_smc
    ldp     x4, x5, [sp], #16
    msr     elr_el3, x4
    msr     spsr_el3, x5
    ldp     x13, x14, [sp]
    ldp     x15, x16, [sp, #16]
    ldp     x17, x18, [sp, #32]
    ldr     x30, [sp, #48]
    add     sp, sp, #64
    ldp     x3, x4, [sp, #16]
    ldp     x5, x6, [sp, #32]
    ldp     x7, x8, [sp, #48]
    ldp     x9, x10, [sp, #64]
    ldp     x11, x12, [sp, #80]
    ldp     x1, x2, [sp], #96
    eret
endfunc el3_smc_entry

    .section .bss.buffers.cpu_frame, "aw", %nobits
    .balign 16
    .global cpu_frame
cpu_frame:
#if defined(FIQMON_SMP) && FIQMON_SMP > 1
    .space  FRAME_SIZE * FIQMON_SMP
    .size   cpu_frame, FRAME_SIZE * FIQMON_SMP
#else
    .space  FRAME_SIZE
    .size   cpu_frame, FRAME_SIZE
#endif
