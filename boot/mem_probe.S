/* SPDX-License-Identifier: MIT */
/* Fault-safe memory access on a user's behalf. Each probe clears probe_fault_pc, makes
 * one access, and reports whether the data abort handler had to skip it. The handler
 * recognises probe faults by the faulting pc, so every other abort stays fatal.
 * bool probe_readN(uint32_t addr, uint32_t *out); bool probe_writeN(uint32_t addr, uint32_t v)
 * Clobbers r2, r3, ip. */
#include "asm_macros.S"
#include "cpu_frame.h"

    .syntax unified
    .arm

    .section .text.mem_probe, "ax", %progbits
    .balign 4
probe_code_start:

    .macro probe_read name, insn
    .global \name
    .type \name, %function
\name:
    ldr     r2, =probe_fault_pc
    mov     r3, #0
    str     r3, [r2]
    \insn   r3, [r0]                    @ may fault: skipped by dabort_entry
    ldr     ip, [r2]
    cmp     ip, #0
    streq   r3, [r1]
    moveq   r0, #1
    movne   r0, #0
    bx      lr
    .size \name, . - \name
    .endm

    .macro probe_write name, insn
    .global \name
    .type \name, %function
\name:
    ldr     r2, =probe_fault_pc
    mov     r3, #0
    str     r3, [r2]
    \insn   r1, [r0]                    @ may fault: skipped by dabort_entry
    ldr     ip, [r2]
    cmp     ip, #0
    moveq   r0, #1
    movne   r0, #0
    bx      lr
    .size \name, . - \name
    .endm

    probe_read  probe_read8,  ldrb
    probe_read  probe_read16, ldrh
    probe_read  probe_read32, ldr
    probe_write probe_write8,  strb
    probe_write probe_write16, strh
    probe_write probe_write32, str
    .ltorg
probe_code_end:

/* Data abort. A fault inside a probe: note it and resume after the access. sp_abt is
 * used as scratch: the full FIQ path saved the abt bank and restores it on exit.
 * Any other abort is fatal. */
func dabort_entry
    ldr     sp, =(probe_code_start + 8)
    cmp     lr, sp
    blo     1f
    ldr     sp, =(probe_code_end + 8)
    cmp     lr, sp
    bhs     1f
    ldr     sp, =probe_fault_pc
    str     lr, [sp]
    subs    pc, lr, #4
1:  ldr     sp, =__stack_abt_top
    b       dabort_fatal
endfunc dabort_entry

    .bss
    .balign 4
    .global probe_fault_pc
probe_fault_pc:
    .space  4
