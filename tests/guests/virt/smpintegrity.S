/* SPDX-License-Identifier: MIT */
/* smpintegrity: the per-CPU hot loop.
 *
 * State: r0-r12, lr and NZCV, mixed by integrity_mix.inc (its rules: ../integrity.S).
 * Unlike integrity.S, which keeps its working words beside its code, every CPU here runs
 * the same code at once, so a CPU's working words live in its own (Non-secure, banked
 * per CPU) thread-ID registers, reached without a general register or the flags:
 *   TPIDRURW  iterations left (also sp_svc from the top of an iteration to its store)
 *   TPIDRURO  the C caller's sp during a round
 *   TPIDRPRW  the state's address
 * A roundup that lost or swapped any of them changes the count, the checksum or where
 * the state is stored. */
    .syntax unified
    .arm

    .section .text.smpintegrity, "ax", %progbits
    .balign 4

#include "../integrity_mix.inc"

/* void smp_integrity_round(struct smp_state *s, uint32_t iterations)
 * In: SVC, iterations in 1..0xffff. Out: s's registers and flags advanced; s->errors
 * incremented if the count was found corrupted. r4-r11, sp preserved. */
    .global smp_integrity_round
    .type smp_integrity_round, %function
smp_integrity_round:
    push    {r4-r11, lr}
    mcr     p15, 0, sp, c13, c0, 3      @ TPIDRURO: the caller's sp
    mcr     p15, 0, r0, c13, c0, 4      @ TPIDRPRW: the state
    mcr     p15, 0, r1, c13, c0, 2      @ TPIDRURW: the count
    mov     sp, r0
    ldr     r0, [sp, #56]
    msr     APSR_nzcvq, r0
    ldmia   sp, {r0-r12, lr}

loop:
    mrc     p15, 0, sp, c13, c0, 2      @ iterations left, live until stored back
    mix     r0, r1, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, lr
    mix     r3, r11, lr, r7, r9, r4, r12, r8, r1, r0, r10, r6, r2, r5
    mix     r10, r5, r2, r9, r7, r4, r0, r12, r8, r11, r3, r1, lr, r6
    mix     r5, r4, r11, r8, r1, r12, r7, r2, r10, r3, r0, r6, lr, r9
    mix     r12, lr, r11, r7, r6, r4, r0, r5, r3, r9, r1, r2, r10, r8
    mix     r3, r0, r9, r4, r1, r12, r2, r11, lr, r5, r6, r8, r10, r7
    mix     r3, lr, r6, r10, r0, r11, r2, r12, r5, r7, r8, r4, r9, r1
    mix     r8, r3, r1, r10, r4, r9, r11, r0, r6, r7, lr, r5, r12, r2
    sub     sp, sp, #1
    mcr     p15, 0, sp, c13, c0, 2
    @ Exit test without the flags (as integrity.S): a count not below 0x10000 is a
    @ corrupted one and ends the round as an error; zero ends it normally.
    mov     sp, sp, lsr #16
    clz     sp, sp
    and     sp, sp, #32                 @ 32: sane
    add     pc, pc, sp, lsr #3          @ to 1f (+8) if corrupt, 3f (+12) if sane
    nop
1:  b       corrupt
3:  mrc     p15, 0, sp, c13, c0, 2
    clz     sp, sp
    and     sp, sp, #32                 @ 32: the count reached zero
    add     pc, pc, sp, lsr #3          @ to 1f (+8) or 2f (+12)
    nop
1:  b       loop
2:  mrc     p15, 0, sp, c13, c0, 4
    stmia   sp, {r0-r12, lr}
    mrs     r0, APSR
    str     r0, [sp, #56]
    mrc     p15, 0, sp, c13, c0, 3
    pop     {r4-r11, pc}
corrupt:
    mrc     p15, 0, sp, c13, c0, 4
    stmia   sp, {r0-r12, lr}
    mrs     r0, APSR
    str     r0, [sp, #56]
    ldr     r0, [sp, #60]
    add     r0, r0, #1
    str     r0, [sp, #60]
    mrc     p15, 0, sp, c13, c0, 3
    pop     {r4-r11, pc}
    .size smp_integrity_round, . - smp_integrity_round
