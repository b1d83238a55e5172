/* SPDX-License-Identifier: MIT */
/* Exception vectors for ARMv5 (no VBAR: the table lives at address 0).
 * The FIQ entry is "ldr pc, [pc, #-4]" with its target in the next word, so FIQ takes
 * exactly the words 0x1c and 0x20; the other entries use literals at 0x24-0x3c. */
#include "asm_macros.S"
#include "cpu_frame.h"

    .syntax unified
    .arm

#define VECTOR_BASE 0

    .section .rodata.vector_template, "a"
    .balign 4
vector_template:
    ldr     pc, [pc, #0x1c]     @ 0x00 reset      -> 0x24
    ldr     pc, [pc, #0x1c]     @ 0x04 undef      -> 0x28
    ldr     pc, [pc, #0x1c]     @ 0x08 swi        -> 0x2c
    ldr     pc, [pc, #0x1c]     @ 0x0c pabort     -> 0x30
    ldr     pc, [pc, #0x1c]     @ 0x10 dabort     -> 0x34
    ldr     pc, [pc, #0x1c]     @ 0x14 reserved   -> 0x38
    ldr     pc, [pc, #0x1c]     @ 0x18 irq        -> 0x3c
    ldr     pc, [pc, #-4]       @ 0x1c fiq        -> 0x20
    .word   fiq_noise           @ 0x20: the platform's noise path
    .word   _start_resident_reset @ 0x24
    .word   undef_entry         @ 0x28
    .word   swi_entry           @ 0x2c
    .word   pabort_entry        @ 0x30
    .word   dabort_entry        @ 0x34
    .word   reserved_entry      @ 0x38
    .word   irq_entry           @ 0x3c
vector_template_end:
    .global vector_template_size
    .set    vector_template_size, vector_template_end - vector_template
    .if     vector_template_end - vector_template != 0x40
    .error  "vector table must be 64 bytes"
    .endif

/* Out: the table at VECTOR_BASE. Clobbers r0-r3, ip. */
func vectors_install
    ldr     r0, =vector_template
    mov     r1, #VECTOR_BASE
    add     r2, r0, #0x40
1:  ldr     r3, [r0], #4
    str     r3, [r1], #4
    cmp     r0, r2
    blo     1b
    bx      lr
endfunc vectors_install

/* A jump through address 0 lands here: treat it like a reset. */
func _start_resident_reset
    b       resident_start
endfunc _start_resident_reset

