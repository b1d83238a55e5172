/* SPDX-License-Identifier: MIT */
/* Normal-world test guest start-up for virt (Cortex-A15, NS SVC, MMU off): a stack, a
 * vector table whose aborts are counted and skipped (so a guest can try forbidden
 * accesses and carry on), IRQs handed to guest_irq() (a guest that enables them defines
 * it), then main(). */
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
    cps     #0x12
    ldr     sp, =__irq_stack_top
    cps     #0x13
    ldr     r0, =guest_vectors
    mcr     p15, 0, r0, c12, c0, 0      @ VBAR (Non-secure)
    isb
    bl      main
1:  wfi
    b       1b

    .balign 32
    .global guest_vectors
guest_vectors:
    b       .                           @ reset
    b       undef_skip
    b       .                           @ svc
    b       pabort_hang
    b       dabort_skip
    b       .
    b       irq_entry
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

irq_entry:
    sub     lr, lr, #4
    push    {r0-r3, r12, lr}
    bl      guest_irq
    ldm     sp!, {r0-r3, r12, pc}^

    .weak   guest_irq                   @ a guest that never unmasks IRQs needs none
guest_irq:
    b       guest_irq

    .bss
    .balign 4
    .global guest_aborts, guest_undefs
guest_aborts:
    .word   0
guest_undefs:
    .word   0
