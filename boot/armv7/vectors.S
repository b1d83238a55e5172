/* SPDX-License-Identifier: MIT */
/* Secure vectors (VBAR) and Monitor vectors (MVBAR). The Normal world has its own VBAR and
 * never reaches these. FIQs are routed to Monitor mode (SCR.FIQ), SMCs land there too. */
#include "asm_macros.S"
#include "cpu_frame.h"

    .syntax unified
    .arm

    .section .text.vectors, "ax", %progbits
    .balign 32
    .global secure_vectors
secure_vectors:
    b       resident_start              @ reset (not taken: reset uses the reset vector)
    b       undef_entry
    b       swi_entry
    b       pabort_entry
    b       dabort_entry                @ probes: boot/mem_probe.S
    b       reserved_entry
    b       irq_entry
    b       reserved_entry              @ FIQ goes to Monitor mode, never here

    .balign 32
    .global monitor_vectors
monitor_vectors:
    b       reserved_entry
    b       reserved_entry
    b       mon_smc_entry               @ service calls from the Normal world
    b       pabort_entry
    b       dabort_entry
    b       reserved_entry
    b       irq_entry
    b       fiq_noise                   @ the platform's noise path
