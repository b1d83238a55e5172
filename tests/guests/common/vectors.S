/* SPDX-License-Identifier: MIT */
/* Guest exception vectors, in fiqmon's layout: entry k (0..6) at 4k is
 * `ldr pc, [pc, #0x1c]`, its target in the literal word at 0x24 + 4k. The FIQ words 0x1c
 * (`ldr pc, [pc, #-4]`) and 0x20 (its target) are fiqmon's and never written. */
#include "asm_macros.S"
#include "arm_cpu.h"

    .syntax unified
    .arm

#define VECTOR_LDR_PC   0xe59ff01c  /* ldr pc, [pc, #0x1c] */
#define VECTOR_LITERALS 0x24
#define FIQ_VECTOR      0x1c

/* In: r0 = the IRQ entry (an assembly routine ending in an exception return).
 * Clobbers r1-r3. Literals first, so no entry ever jumps through a stale word. */
func vectors_install
    mov     r3, #VECTOR_LITERALS
    ldr     r1, =fault_reset
    str     r1, [r3], #4                @ 0x24
    ldr     r1, =fault_undef
    str     r1, [r3], #4                @ 0x28
    ldr     r1, =fault_swi
    str     r1, [r3], #4                @ 0x2c
    ldr     r1, =fault_pabort
    str     r1, [r3], #4                @ 0x30
    ldr     r1, =fault_dabort
    str     r1, [r3], #4                @ 0x34
    ldr     r1, =fault_reserved
    str     r1, [r3], #4                @ 0x38
    str     r0, [r3]                    @ 0x3c: IRQ
    ldr     r1, =VECTOR_LDR_PC
    mov     r3, #0
1:  str     r1, [r3], #4                @ 0x00-0x18
    cmp     r3, #FIQ_VECTOR
    blo     1b
    mov     r1, #0
    mcr     p15, 0, r1, c7, c10, 4      @ drain the write buffer
    mcr     p15, 0, r1, c7, c5, 0       @ invalidate the I-cache
    mrc     p15, 0, r1, c1, c0, 0
    bic     r1, r1, #SCTLR_V            @ low vectors
    mcr     p15, 0, r1, c1, c0, 0
    bx      lr
endfunc vectors_install

/* Generic IRQ entry: IRQ mode, I set by the exception, F still clear. */
func irq_entry
    sub     lr, lr, #4
    stmfd   sp!, {r0-r3, ip, lr}        @ 24 bytes: sp stays 8-byte aligned
    ldr     r0, =irq_handler
    ldr     r0, [r0]
    cmp     r0, #0
    moveq   r0, #6                      @ no handler: report it as a fault
    moveq   r1, lr
    beq     fault_common
    blx     r0
    ldmfd   sp!, {r0-r3, ip, pc}^
endfunc irq_entry

    .macro fault name, kind, adjust
func \name
    mov     r0, #\kind
    sub     r1, lr, #\adjust
    b       fault_common
endfunc \name
    .endm

    fault fault_reset,    0, 0
    fault fault_undef,    1, 4
    fault fault_swi,      2, 4
    fault fault_pabort,   3, 4
    fault fault_dabort,   4, 8
    fault fault_reserved, 5, 0

/* In: r0 = kind, r1 = faulting pc. The mode's own sp may hold anything (the integrity
 * guest keeps test values in sp_abt and sp_und), so switch to the fault stack. */
func fault_common
    ldr     sp, =__stack_fault_top
    mrs     r2, spsr
    b       guest_fault
endfunc fault_common

    .section .bss.irq_handler, "aw", %nobits
    .balign 4
    .global irq_handler
irq_handler:
    .space  4
    .size   irq_handler, 4
