/* SPDX-License-Identifier: MIT */
/* EL3's vector table (VBAR_EL3). FIQs, from the kernel (lower EL) or from fiqmon's idle
 * loop (EL3t), go to the platform's noise path; SMCs from the kernel to the SMC entry; a
 * data abort in one of fiqmon's own probes (EL3h) back to the probe; anything else is
 * fatal and reported. */
#include "asm_macros.S"
#include "aarch64_bits.h"

    .macro vector target
    .balign 0x80
    b       \target
    .endm

    .macro fatal_stub name, kind
func \name
    ldr     x0, =__stack_svc_top        // shared with the idle loop, which never comes back
    mov     sp, x0
    mov     x0, #\kind
    mrs     x1, elr_el3
    mrs     x2, spsr_el3
    bl      fatal_exception
1:  wfi
    b       1b
    .ltorg
endfunc \name
    .endm

    .section .text.el3_vectors, "ax", %progbits
    .balign 0x800
    .global el3_vectors
el3_vectors:
    vector  el3_fatal_sync              // current EL, SP_EL0 (the idle loop)
    vector  el3_fatal_irq
    vector  fiq_noise
    vector  el3_fatal_serror
    vector  el3_sync                    // current EL, SP_EL3 (the monitor)
    vector  el3_fatal_irq
    vector  el3_fatal_fiq
    vector  el3_fatal_serror
    vector  el3_lower_sync              // lower EL in AArch64: the kernel
    vector  el3_fatal_irq
    vector  fiq_noise
    vector  el3_fatal_serror
    vector  el3_fatal_sync              // lower EL in AArch32
    vector  el3_fatal_irq
    vector  fiq_noise
    vector  el3_fatal_serror

    fatal_stub el3_fatal_sync, 1
    fatal_stub el3_fatal_serror, 5
    fatal_stub el3_fatal_irq, 6
    fatal_stub el3_fatal_fiq, 7

/* A synchronous exception in fiqmon itself: a probe's access that faulted resumes after
 * it with probe_fault set (mem_probe.S); anything else is fatal. */
func el3_sync
    stp     x0, x1, [sp, #-16]!
    mrs     x0, elr_el3
    ldr     x1, =probe_code_start
    cmp     x0, x1
    b.lo    1f
    ldr     x1, =probe_code_end
    cmp     x0, x1
    b.hs    1f
    add     x0, x0, #4
    msr     elr_el3, x0
    ldr     x1, =probe_fault
    mov     w0, #1
    str     w0, [x1]
    ldp     x0, x1, [sp], #16
    eret
1:  ldp     x0, x1, [sp], #16
    b       el3_fatal_sync
    .ltorg
endfunc el3_sync

/* From the kernel: an SMC (fiqmon's service calls, PSCI) goes to the SMC entry; any other
 * trap (its access to the GIC's Group 0 registers, which SCR_EL3.FIQ traps) to the
 * platform, through the trap entry: never fatal, whatever the kernel does. */
func el3_lower_sync
    stp     x0, x1, [sp, #-32]!
    stp     x2, x3, [sp, #16]
    mrs     x0, esr_el3
    lsr     x1, x0, #ESR_EC_SHIFT
    cmp     x1, #ESR_EC_SMC64
    b.ne    mon_trap_entry
    ldp     x2, x3, [sp, #16]
    ldp     x0, x1, [sp], #32
    b       el3_smc_entry
endfunc el3_lower_sync
