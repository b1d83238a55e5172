/* SPDX-License-Identifier: MIT */
/* Normal-world test guest start-up for virt64 (Cortex-A57). fiqmon enters at EL2h with
 * DAIF masked, MMU and caches off, x0 = a device tree or 0. Here: EL2's controls set to
 * known values (MMU off, FP/SIMD not trapped, EL1 AArch64), a stack, .bss cleared, the
 * vector table, then main(x0).
 *
 * The vectors of EL2 and EL1 (hostile.c drops to EL1 half-way: el1.S): a synchronous data
 * abort or an undefined instruction taken at the guest's own EL is counted and skipped
 * (ELR += 4), so a guest can try a forbidden access and carry on; anything else is
 * reported by guest_unexpected() and stops the guest. */
#include "arch.h"
#include "guest_asm.h"

    .section .text.start, "ax", %progbits
    .global _start
_start:
    mov     x19, x0
    ldr     x1, =SCTLR_EL2_RES1
    msr     sctlr_el2, x1
    mov     x1, #HCR_EL2_RW
    msr     hcr_el2, x1
    mov     x1, #CPTR_EL2_RES1
    msr     cptr_el2, x1
    ldr     x1, =guest_el2_vectors
    msr     vbar_el2, x1
    isb
    ldr     x1, =__stack_top
    mov     sp, x1
    ldr     x1, =__bss_start
    ldr     x2, =__bss_end
1:  cmp     x1, x2
    b.hs    2f
    str     xzr, [x1], #8
    b       1b
2:  mov     x0, x19
    bl      main
3:  wfi                                 // main returned: nothing left to do
    b       3b
    .ltorg

/* A synchronous exception at the guest's own EL: count and skip a data abort or an
 * undefined instruction. The flags the compares change come back from SPSR on eret. */
    .macro sync_handler el
func guest_el\el\()_sync
    stp     x0, x1, [sp, #-16]!
    mrs     x0, esr_el\el
    lsr     x0, x0, #ESR_EC_SHIFT
    cmp     x0, #ESR_EC_DABT_CUR
    b.eq    1f
    cmp     x0, #ESR_EC_UNKNOWN
    b.ne    3f
    ldr     x1, =guest_undefs
    b       2f
1:  ldr     x1, =guest_aborts
2:  ldr     x0, [x1]
    add     x0, x0, #1
    str     x0, [x1]
    mrs     x0, elr_el\el
    add     x0, x0, #4
    msr     elr_el\el, x0
    ldp     x0, x1, [sp], #16
    eret
3:  ldp     x0, x1, [sp], #16
    mov     x0, #4                      // the vector: current EL with SP_ELx, synchronous
    b       guest_el\el\()_other
    .ltorg
endfunc guest_el\el\()_sync

/* Any other vector: report it and stop (x0 = the vector's number, 0-15). */
func guest_el\el\()_other
    mov     x1, #\el
    mrs     x2, esr_el\el
    mrs     x3, elr_el\el
    mrs     x4, far_el\el
    bl      guest_unexpected
1:  wfi
    b       1b
endfunc guest_el\el\()_other

/* 16 entries of 0x80 bytes: {current EL with SP_EL0, with SP_ELx, lower EL AArch64,
 * AArch32} x {synchronous, IRQ, FIQ, SError}. */
    .section .text.guest_el\el\()_vectors, "ax", %progbits
    .balign 0x800
    .global guest_el\el\()_vectors
guest_el\el\()_vectors:
    .irp n, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
    .balign 0x80
    .if \n == 4
    b       guest_el\el\()_sync
    .else
    mov     x0, #\n
    b       guest_el\el\()_other
    .endif
    .endr
    .endm

    sync_handler 2
    sync_handler 1

    .bss
    .balign 8
    .global guest_aborts, guest_undefs
guest_aborts:
    .quad   0
guest_undefs:
    .quad   0
