/* SPDX-License-Identifier: MIT */
/* branch_tour(seed): ARM and Thumb code through every kind of branch a step must follow
 * (b, bl, blx imm and reg, bx, mov/add/ldr/pop to pc, conditions taken and not, IT blocks,
 * cbz/cbnz, b.n/b.w, tbb, an SVC into the vector table and back). expected_trace lists
 * the address of every instruction it runs, in order: what stepping it from its first
 * instruction must show. Returns seed + 0x0b (leaves and conditions that ran). */
    .syntax unified

    .section .text.tour, "ax", %progbits
    .arm
    .balign 32
    .global steps_vectors
steps_vectors:
    b       .                           @ reset
    b       .                           @ undefined
v_svc:
    movs    pc, lr                      @ svc: straight back
    b       pabt_record                 @ prefetch abort: the guest's own BKPT (below)
    b       .
    b       .
    b       .
    b       .

    .global branch_tour
    .type   branch_tour, %function
branch_tour:
a0:  push    {r4, lr}
a1:  mov     r4, r0
a2:  b       a4                         @ forward
a3:  add     r4, r4, #0x100             @ (skipped)
a4:  cmp     r4, r4
a5:  bne     a3                         @ not taken
a6:  beq     a8                         @ taken
a7:  add     r4, r4, #0x200             @ (skipped)
a8:  addne   r4, r4, #0x400             @ condition false: runs as a nop
a9:  bl      arm_leaf
a10: ldr     r1, =a12
a11: mov     pc, r1
a12: add     pc, pc, #0                 @ pc reads as a12 + 8: skips a13
a13: add     r4, r4, #0x800             @ (skipped)
a14: blx     thumb_part                 @ to Thumb, comes back to a15 with pop {pc}
a15: adr     r1, a17
a16: bx      r1
a17: ldr     pc, =a18
a18: adr     r1, a21
a19: push    {r1}
a20: pop     {pc}
a21: svc     #0                         @ into steps_vectors + 8 and back
a22: mov     r0, r4
a23: pop     {r4, pc}
    .ltorg

    .type   arm_leaf, %function
arm_leaf:
l0:  add     r4, r4, #1
l1:  bx      lr

    .thumb
    .type   thumb_part, %function
    .thumb_func
thumb_part:
t0:  push    {lr}
t1:  movs    r2, #0
t2:  cbz     r2, t4                     @ taken
t3:  adds    r4, #0x10                  @ (skipped)
t4:  cbnz    r2, t12                    @ not taken
t5:  cmp     r2, #0
t6:  it      eq
t7:  addeq   r4, #2                     @ runs
t8:  it      ne
t9:  addne   r4, #4                     @ condition false
t10: bl      thumb_leaf
t11: b.w     t13
t12: adds    r4, #0x20                  @ (skipped)
t13: movs    r3, #1
t14: b.n     t16
t15: adds    r4, #0x80                  @ (skipped)
t16: tbb     [pc, r3]
t16_table:
    .byte   (t17 - t16_table) / 2, (t18 - t16_table) / 2
t17: adds    r4, #0x40                  @ (not chosen)
t18: pop     {pc}                       @ back to ARM at a15

    .type   thumb_leaf, %function
    .thumb_func
thumb_leaf:
u0:  adds    r4, #8
u1:  bx      lr

    .arm
    /* own_bkpt(): the guest's own BKPT, not fiqmon's: with the Hyp shim fiqmon must hand it
     * back as the Prefetch Abort the CPU would have taken (Abort mode, lr = BKPT + 4, IFSR
     * debug event). pabt_record keeps what the handler saw in own_bkpt_seen: lr, spsr,
     * IFSR, cpsr, and returns after the BKPT. */
    .global own_bkpt, own_bkpt_at, own_bkpt_seen
    .type   own_bkpt, %function
own_bkpt:
own_bkpt_at:
    bkpt    #0x12
    bx      lr

pabt_record:
    push    {r0, r1}
    ldr     r0, =own_bkpt_seen
    str     lr, [r0]
    mrs     r1, spsr
    str     r1, [r0, #4]
    mrc     p15, 0, r1, c5, c0, 1       @ IFSR
    str     r1, [r0, #8]
    mrs     r1, cpsr
    str     r1, [r0, #12]
    pop     {r0, r1}
    movs    pc, lr                      @ after the BKPT
    .ltorg

    .section .bss.own_bkpt, "aw", %nobits
    .balign 4
own_bkpt_seen:
    .space  16

    .section .rodata.tour, "a", %progbits
    .balign 4
    .global expected_trace, expected_steps
expected_trace:
    .word   a0, a1, a2, a4, a5, a6, a8, a9, l0, l1, a10, a11, a12, a14
    .word   t0, t1, t2, t4, t5, t6, t7, t8, t9, t10, u0, u1, t11, t13, t14, t16, t18
    .word   a15, a16, a17, a18, a19, a20, a21, v_svc, a22, a23
expected_end:
expected_steps:
    .word   (expected_end - expected_trace) / 4
