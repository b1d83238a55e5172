/* SPDX-License-Identifier: MIT */
/* Exceptions fiqmon does not expect: report on the debug port and stop. Each stub runs on
 * the stack of the mode the exception entered (set up at boot). */
#include "asm_macros.S"
#include "cpu_frame.h"

    .syntax unified
    .arm

    .macro unexpected name, kind, adjust
func \name
    sub     lr, lr, #\adjust
    stmfd   sp!, {r0-r3, ip, lr}
    mov     r0, #\kind
    mov     r1, lr
    mrs     r2, spsr
    bl      fatal_exception
1:  b       1b
endfunc \name
    .endm

    unexpected undef_entry,    1, 4
    unexpected swi_entry,      2, 4
    unexpected pabort_entry,   3, 4
    unexpected dabort_fatal,   4, 8
    unexpected reserved_entry, 5, 0
    unexpected irq_entry,      6, 4
