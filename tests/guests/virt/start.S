/* SPDX-License-Identifier: MIT */
/* Normal-world test guest start-up for virt (Cortex-A15, NS SVC, MMU off): a stack, a
 * vector table whose aborts are counted and skipped (so a guest can try forbidden
 * accesses and carry on), then main(). */
    .syntax unified
    .arm

    .section .text.start, "ax", %progbits
    .global _start
_start:
    ldr     sp, =__stack_top
    cps     #0x17                       @ abort mode gets its own stack
    ldr     sp, =__abt_stack_top
    cps     #0x1b
    ldr     sp, =__abt_stack_top
    cps     #0x13
    ldr     r0, =guest_vectors
    mcr     p15, 0, r0, c12, c0, 0      @ VBAR (Non-secure)
    isb
    bl      main
1:  wfi
    b       1b

    .balign 32
guest_vectors:
    b       .                           @ reset
    b       undef_skip
    b       .                           @ svc
    b       pabort_hang
    b       dabort_skip
    b       .
    b       .                           @ irq
    b       .                           @ fiq: never ours

dabort_skip:
    push    {r0, r1}
    ldr     r0, =guest_aborts
    ldr     r1, [r0]
    add     r1, r1, #1
    str     r1, [r0]
    pop     {r0, r1}
    subs    pc, lr, #4                  @ skip the faulting access

undef_skip:
    push    {r0, r1}
    ldr     r0, =guest_undefs
    ldr     r1, [r0]
    add     r1, r1, #1
    str     r1, [r0]
    pop     {r0, r1}
    movs    pc, lr

pabort_hang:
    b       pabort_hang
