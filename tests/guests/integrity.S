/* SPDX-License-Identifier: MIT */
/* integrity: the hot loop, in assembly so that every value lives in a register.
 *
 * State: r0-r12, lr and the flags NZCV, loaded from and stored to struct integrity_state
 * (integrity.c) only at the start and the end of a round. The rules that make a single
 * corrupted bit anywhere show up in the checksum (this round's, or a later one's: the
 * state carries over):
 *
 *  - Registers: every instruction that writes a state register is injective in that
 *    register's old value (add/sub/eor/adc/sbc/rsc with Rd = Rn and Rm != Rd, a rotate of
 *    itself, mla/umlal accumulating into it), so no register value is ever dead.
 *  - Flags: nothing overwrites the flags but adcs/sbcs/rscs (carry-in: C is data)
 *    conditional on GT or LE. GT is the one ARM condition that every single flip of N, Z
 *    or V turns false, so an executing GT setter consumes all four flags; one that does
 *    not execute leaves them to the next setter. GT-false states need an LE setter to
 *    move on; it loses a flipped Z when N != V (and a flipped N or V in the rare Z = 1
 *    case), so there is one per block, right after an `eorne` that feeds Z into the
 *    data: the boundary between the two is the only place where a flag can die (no ARMv5
 *    code can do better: some flag-writing instruction must run in GT-false states, and
 *    no condition reads N, Z and V there). mi/eq/ne/cs/vs instructions feed the flags
 *    into the data too.
 *  - Banked registers: each iteration checks and then refills sp/lr/spsr of ABT and UND
 *    mode and sp/lr of SYS (the usr bank) with values copied from the state registers.
 *    The check uses only the mode's own sp and lr as scratch, compares without touching
 *    the flags (clz of the difference) and counts mismatches in integrity_bank_errors.
 *    spsr_svc gets a new value per round, checked when the round ends.
 *  - sp_svc is the iteration counter (kept in memory across the exit test, which needs a
 *    scratch register and must not use the flags: clz again, and a computed branch). A
 *    count that is not below 0x10000 can only be a corrupted one: it counts as an error.
 *
 * Working words live in this section and are reached pc-relative, since no register is
 * free to hold an address (MMU off: the section is ordinary RAM). */
#include "arm_cpu.h"

    .syntax unified
    .arm

#define MODE_RUN(mode)  (mode)  /* I and F clear: IRQs arrive in every mode */

    .section .text.integrity, "ax", %progbits
    .balign 4

#include "integrity_mix.inc"

/* In: lr = observed ^ expected. Out: integrity_bank_errors += (lr != 0).
 * Clobbers lr and sp of the current mode; flags untouched. */
    .macro count_mismatch
    clz     lr, lr                      @ 32 iff equal
    eor     lr, lr, #32
    mov     lr, lr, lsr #5              @ 0 iff equal, else 1
    ldr     sp, integrity_bank_errors
    add     sp, sp, lr
    str     sp, integrity_bank_errors
    .endm

/* Switch to `mode`, check its sp, lr (and spsr) against the values stored last time,
 * store new ones copied from state registers, and return to SVC mode. */
    .macro bank_visit mode, pfx, rsp, rlr, rpsr=none
    msr     cpsr_c, #MODE_RUN(\mode)
    str     lr, bank_seen_lr
    ldr     lr, \pfx\()_sp
    eor     lr, lr, sp
    count_mismatch
    ldr     sp, bank_seen_lr
    ldr     lr, \pfx\()_lr
    eor     lr, lr, sp
    count_mismatch
    .ifnc \rpsr, none
    mrs     sp, spsr
    ldr     lr, \pfx\()_spsr
    eor     lr, lr, sp
    count_mismatch
    @ New spsr: NZCV and I, F, T from the state register, a fixed mode (only
    @ architecturally defined bits, so it reads back exactly).
    and     lr, \rpsr, #ARM_PSR_NZCV
    and     sp, \rpsr, #(ARM_PSR_I | ARM_PSR_F | ARM_PSR_T)
    orr     lr, lr, sp
    orr     lr, lr, #ARM_MODE_USR
    str     lr, \pfx\()_spsr
    msr     spsr_fsxc, lr
    .endif
    mov     sp, \rsp
    str     sp, \pfx\()_sp
    mov     lr, \rlr
    str     lr, \pfx\()_lr
    msr     cpsr_c, #MODE_RUN(ARM_MODE_SVC)
    .endm

/* void integrity_round(struct integrity_state *s, uint32_t iterations)
 * In: SVC mode, IRQs enabled; iterations >= 1. Runs the loop on s's registers and flags
 * and stores them back. Out: r4-r11 and sp preserved. */
    .global integrity_round
    .type integrity_round, %function
integrity_round:
    stmfd   sp!, {r4-r11, lr}
    str     sp, c_sp
    str     r0, state_ptr
    str     r1, loop_count
    @ spsr_svc, unused by the loop, gets a value that changes every round; checked at the end.
    ldmia   r0, {r1, r2}
    and     r1, r1, #ARM_PSR_NZCV
    and     r2, r2, #(ARM_PSR_I | ARM_PSR_F | ARM_PSR_T)
    orr     r1, r1, r2
    orr     r1, r1, #ARM_MODE_SYS
    str     r1, exp_svc_spsr
    msr     spsr_fsxc, r1
    mov     sp, r0
    ldr     r0, [sp, #56]
    msr     cpsr_f, r0
    ldmia   sp, {r0-r12, lr}

loop:
    ldr     sp, loop_count              @ iterations left, live until the exit test
    mix     r0, r1, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, lr
    mix     r3, r11, lr, r7, r9, r4, r12, r8, r1, r0, r10, r6, r2, r5
    mix     r10, r5, r2, r9, r7, r4, r0, r12, r8, r11, r3, r1, lr, r6
    bank_visit ARM_MODE_ABT, exp_abt, r1, r2, r3
    mix     r5, r4, r11, r8, r1, r12, r7, r2, r10, r3, r0, r6, lr, r9
    mix     r12, lr, r11, r7, r6, r4, r0, r5, r3, r9, r1, r2, r10, r8
    bank_visit ARM_MODE_UND, exp_und, r4, r5, r6
    mix     r3, r0, r9, r4, r1, r12, r2, r11, lr, r5, r6, r8, r10, r7
    mix     r3, lr, r6, r10, r0, r11, r2, r12, r5, r7, r8, r4, r9, r1
    bank_visit ARM_MODE_SYS, exp_sys, r7, r8
    mix     r8, r3, r1, r10, r4, r9, r11, r0, r6, r7, lr, r5, r12, r2

    @ Exit test without flags. A sane count is below 0x10000: a corrupted high bit ends
    @ the round at once as an error instead of stalling it for 2^n iterations.
    sub     sp, sp, #1
    str     sp, loop_count
    mov     sp, sp, lsr #16
    clz     sp, sp
    and     sp, sp, #32                 @ 32: sane
    add     pc, pc, sp, lsr #3          @ to 1f (+8) if corrupt, 3f (+12) if sane
    nop
1:  b       count_corrupt
3:  ldr     sp, loop_count
    clz     sp, sp
    and     sp, sp, #32                 @ 32: the count reached zero
    add     pc, pc, sp, lsr #3          @ to 1f (+8) or 2f (+12)
    nop
1:  b       loop
2:  ldr     sp, state_ptr
    stmia   sp, {r0-r12, lr}
    mrs     r0, cpsr
    str     r0, [sp, #56]
    mrs     r0, spsr
    ldr     r1, exp_svc_spsr
    teq     r0, r1
    ldrne   r0, integrity_bank_errors
    addne   r0, r0, #1
    strne   r0, integrity_bank_errors
    ldr     sp, c_sp
    ldmfd   sp!, {r4-r11, pc}
count_corrupt:
    ldr     sp, integrity_bank_errors
    add     sp, sp, #1
    str     sp, integrity_bank_errors
    b       2b
    .size integrity_round, . - integrity_round

/* void integrity_banks_init(void): take the current banked sp/lr/spsr of ABT, UND and
 * SYS as the expected values for the first check. Clobbers r0-r3. */
    .global integrity_banks_init
    .type integrity_banks_init, %function
integrity_banks_init:
    mrs     r3, cpsr
    msr     cpsr_c, #(ARM_MODE_ABT | ARM_PSR_I)
    str     sp, exp_abt_sp
    str     lr, exp_abt_lr
    mrs     r0, spsr
    str     r0, exp_abt_spsr
    msr     cpsr_c, #(ARM_MODE_UND | ARM_PSR_I)
    str     sp, exp_und_sp
    str     lr, exp_und_lr
    mrs     r0, spsr
    str     r0, exp_und_spsr
    msr     cpsr_c, #(ARM_MODE_SYS | ARM_PSR_I)
    str     sp, exp_sys_sp
    str     lr, exp_sys_lr
    msr     cpsr_c, r3
    bx      lr
    .size integrity_banks_init, . - integrity_banks_init

/* IRQ entry: before anything uses sp_irq, check that it is the stack top it must be at
 * every entry (no nesting: I is set in IRQ mode); repair and count it if not. Then the
 * C handler, and an exception return that restores the interrupted cpsr. */
    .global integrity_irq_entry
    .type integrity_irq_entry, %function
integrity_irq_entry:
    str     r0, irq_scratch
    ldr     r0, irq_sp_expected
    teq     r0, sp                      @ IRQ mode's own flags: spsr_irq keeps the state's
    beq     1f
    mov     sp, r0
    ldr     r0, integrity_irq_sp_errors
    add     r0, r0, #1
    str     r0, integrity_irq_sp_errors
1:  ldr     r0, irq_scratch
    sub     lr, lr, #4
    stmfd   sp!, {r0-r3, ip, lr}
    bl      integrity_irq
    ldmfd   sp!, {r0-r3, ip, pc}^
    .size integrity_irq_entry, . - integrity_irq_entry

/* ---- working words (pc-relative from the code above) ---------------------------------- */
    .balign 4
c_sp:           .word 0     /* the C caller's sp during a round */
state_ptr:      .word 0
loop_count:     .word 0
bank_seen_lr:   .word 0
exp_abt_sp:     .word 0
exp_abt_lr:     .word 0
exp_abt_spsr:   .word 0
exp_und_sp:     .word 0
exp_und_lr:     .word 0
exp_und_spsr:   .word 0
exp_sys_sp:     .word 0
exp_sys_lr:     .word 0
exp_svc_spsr:   .word 0
irq_scratch:    .word 0
irq_sp_expected: .word __stack_irq_top
    .global integrity_bank_errors
    .global integrity_irq_sp_errors
integrity_bank_errors:   .word 0
integrity_irq_sp_errors: .word 0
