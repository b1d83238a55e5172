/* SPDX-License-Identifier: MIT */
/* Fault-safe memory access on a user's behalf (arm_mem_probe.h). Each probe clears
 * probe_fault, makes one access, and reports whether EL3's synchronous exception handler
 * (vectors.S) had to skip it. The handler recognises probe faults by the faulting pc, so
 * every other exception stays fatal.
 * bool probe_readN(uintptr_t addr, uint32_t *out); bool probe_writeN(uintptr_t addr, uint32_t v)
 * Clobbers x2-x4. */
#include "asm_macros.S"

    .section .text.mem_probe, "ax", %progbits
    .balign 4
    .global probe_code_start, probe_code_end
probe_code_start:

    .macro probe_read name, insn
    .global \name
    .type \name, %function
\name:
    adr     x2, probe_fault
    str     wzr, [x2]
    \insn   w3, [x0]                    // may fault: skipped by el3_sync
    ldr     w4, [x2]
    cbnz    w4, 1f
    str     w3, [x1]
    mov     w0, #1
    ret
1:  mov     w0, #0
    ret
    .size \name, . - \name
    .endm

    .macro probe_write name, insn
    .global \name
    .type \name, %function
\name:
    adr     x2, probe_fault
    str     wzr, [x2]
    \insn   w1, [x0]                    // may fault: skipped by el3_sync
    ldr     w4, [x2]
    cmp     w4, #0
    cset    w0, eq
    ret
    .size \name, . - \name
    .endm

    probe_read  probe_read8,  ldrb
    probe_read  probe_read16, ldrh
    probe_read  probe_read32, ldr
    probe_write probe_write8,  strb
    probe_write probe_write16, strh
    probe_write probe_write32, str
probe_code_end:

    .section .bss.probe_fault, "aw", %nobits
    .balign 4
    .global probe_fault
probe_fault:
    .space  4
