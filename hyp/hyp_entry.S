/* SPDX-License-Identifier: MIT */
/* The Hyp shim's vectors and trap entry (HVBAR). Only the Hyp trap vector is used: stage 2
 * sends the kernel's accesses to the emulated page here (HSR EC 0x24). The trapped mode's
 * sp and lr are banked: the entry reads them into the frame so the decode can name them
 * as r13/r14 (Hyp's own lr is the User mode's), and writes them back.
 *
 * Frame on sp_hyp: r0-r12, r13, r14 of the trapped mode, then Hyp's lr (= lr_usr). */
#include "hyp_abi.h"

    .syntax unified
    .arm
    .arch_extension virt

#define MODE_MASK 0x1f
#define MODE_FIQ  0x11
#define MODE_IRQ  0x12
#define MODE_SVC  0x13
#define MODE_ABT  0x17
#define MODE_UND  0x1b

    .section .text.hyp_vectors, "ax", %progbits
    .global hyp_vectors
    .balign 32
hyp_vectors:
    b       .                   @ reset: not used
    b       .                   @ undefined instruction in Hyp
    b       .                   @ hypervisor call from Hyp
    b       .                   @ prefetch abort in Hyp
    b       .                   @ data abort in Hyp
    b       hyp_trap_entry      @ Hyp trap: from the Normal world's PL0/PL1
    b       .                   @ IRQ (HCR.IMO = 0: never here)
    b       .                   @ FIQ (SCR.FIQ: to Monitor)
    .word   hyp_stats           @ HYP_STATS_PTR: fiqmon reads the counters here


    .text
    .type hyp_trap_entry, %function
hyp_trap_entry:
    sub     sp, sp, #12
    push    {r0-r12}
    str     lr, [sp, #60]
    mrs     r0, spsr
    and     r0, r0, #MODE_MASK
    @ In: r0 = the trapped mode. Out: r1 = its sp, r2 = its lr.
    cmp     r0, #MODE_SVC       @ the kernel's console runs in SVC: first
    bne     1f
    mrs     r1, sp_svc
    mrs     r2, lr_svc
    b       9f
1:  cmp     r0, #MODE_IRQ
    bne     2f
    mrs     r1, sp_irq
    mrs     r2, lr_irq
    b       9f
2:  cmp     r0, #MODE_ABT
    bne     3f
    mrs     r1, sp_abt
    mrs     r2, lr_abt
    b       9f
3:  cmp     r0, #MODE_UND
    bne     4f
    mrs     r1, sp_und
    mrs     r2, lr_und
    b       9f
4:  cmp     r0, #MODE_FIQ       @ (r8-r12 would be FIQ's own: no NS FIQ mode here)
    bne     5f
    mrs     r1, sp_fiq
    mrs     r2, lr_fiq
    b       9f
5:  mrs     r1, sp_usr          @ usr, sys
    mov     r2, lr
9:  add     r3, sp, #52
    stmia   r3, {r1, r2}

    mov     r0, sp
    bl      hyp_c_entry         @ r0 = bytes to step ELR_hyp over
    mrs     r1, elr_hyp
    add     r1, r1, r0
    msr     elr_hyp, r1

    ldr     r1, [sp, #52]
    ldr     r2, [sp, #56]
    mrs     r0, spsr
    and     r0, r0, #MODE_MASK
    cmp     r0, #MODE_SVC
    bne     1f
    msr     sp_svc, r1
    msr     lr_svc, r2
    b       9f
1:  cmp     r0, #MODE_IRQ
    bne     2f
    msr     sp_irq, r1
    msr     lr_irq, r2
    b       9f
2:  cmp     r0, #MODE_ABT
    bne     3f
    msr     sp_abt, r1
    msr     lr_abt, r2
    b       9f
3:  cmp     r0, #MODE_UND
    bne     4f
    msr     sp_und, r1
    msr     lr_und, r2
    b       9f
4:  cmp     r0, #MODE_FIQ
    bne     5f
    msr     sp_fiq, r1
    msr     lr_fiq, r2
    b       9f
5:  msr     sp_usr, r1
    str     r2, [sp, #60]       @ usr/sys lr is Hyp's own: reloaded below
9:  pop     {r0-r12}
    ldr     lr, [sp, #8]
    add     sp, sp, #12
    eret
    .size hyp_trap_entry, . - hyp_trap_entry
