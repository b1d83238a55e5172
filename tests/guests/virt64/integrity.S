/* SPDX-License-Identifier: MIT */
/* integrity64: the hot loop, in assembly so that every value lives in a register.
 *
 * State: x0-x30, q0-q31 (all 128 bits), NZCV, FPSR and FPCR, loaded from struct
 * integrity_state (integrity_state.h) at the start of a call and stored back at its end;
 * integrity.c prints a checksum of it per round. The rules that make one bit corrupted by
 * whatever interrupts the loop show in a checksum (this round's or a later one's: the
 * state carries over):
 *
 *  - Every instruction that writes a state register is injective in that register's old
 *    value (add/sub/eor/eon/adcs/sbcs with the destination also the first source and not
 *    the second, madd/mla/usra accumulating into it, rotations and byte reversals of
 *    itself, cinc/cinv), so no register value is ever dead.
 *  - Flags: each mixx block reads N, Z, C and V into data (cinc/cinv on mi, eq, cs, vs)
 *    before each of its two setters (adcs/sbcs, C their carry-in); nothing else writes
 *    them, so no flag value is ever dead either.
 *  - FPSR, FPCR: once per iteration (the exit window below) each is read into a general
 *    register with an eor, then written anew from state data; FPSR is zeroed just before
 *    the floating-point steps, whose flags are read into data just after them. FPCR's
 *    rounding mode, flush-to-zero and default-NaN bits shape those steps' results.
 *  - sp points at the state for the whole call: the working words beside it are reached
 *    through it (integrity_state.h), so a corrupted sp loses the state or the count.
 *  - The exit window: x30 and q31 are spilled to the state for a few instructions while
 *    they serve as scratch (the count, the floating-point results). The test for the end
 *    uses no flags (cbz/cbnz). A count that is not below 0x10000 can only be a corrupted
 *    one: it ends the call and counts in errors.
 *  - The system registers of the lower ELs that fiqmon saves or borrows (SYS_COUNT of
 *    them) are written at the start of a call and read back at its end; integrity.c
 *    compares.
 */
#include "guest_asm.h"
#include "integrity_state.h"

/* QEMU's TCG takes an interrupt only between translation blocks, which end at a branch:
 * one after each mixing block lets a FIQ land there, every state register live, instead
 * of only at the exit window's two tests. (Hardware takes it anywhere.) */
    .macro tb_end
    b       1f
1:
    .endm

/* One block of general-register mixing; a-l are 12 distinct registers of x0-x30. */
    .macro mixx a, b, c, d, e, f, g, h, i, j, k, l
    cinc    \a, \a, mi                  // N, Z, C, V into data, all four before...
    cinv    \b, \b, eq
    cinc    \c, \c, cs
    cinv    \d, \d, vs
    adcs    \e, \e, \f                  // ...a new set of them
    eor     \g, \g, \e, ror #11
    madd    \h, \i, \j, \h              // h += i * j
    add     \k, \k, \g, lsl #3
    ror     \l, \l, #13
    eor     \a, \a, \l, ror #29
    cinc    \f, \f, mi
    cinv    \g, \g, eq
    cinc    \j, \j, cs
    cinv    \k, \k, vs
    sbcs    \i, \i, \k
    sub     \f, \f, \h, lsr #7
    eon     \c, \c, \i, ror #41
    add     \j, \j, \d
    eor     \b, \b, \a, ror #17
    tb_end
    .endm

/* One block of vector mixing; a-h are 8 distinct register numbers of 0-31. */
    .macro mixv a, b, c, d, e, f, g, h
    eor     v\a\().16b, v\a\().16b, v\b\().16b
    add     v\c\().2d, v\c\().2d, v\a\().2d
    mla     v\d\().4s, v\e\().4s, v\f\().4s      // d += e * f, per 32-bit lane
    ext     v\g\().16b, v\g\().16b, v\g\().16b, #5
    sub     v\h\().8h, v\h\().8h, v\c\().8h
    usra    v\b\().2d, v\g\().2d, #23            // b += g >> 23, per 64-bit lane
    rev64   v\e\().16b, v\e\().16b
    add     v\f\().16b, v\f\().16b, v\h\().16b
    eor     v\a\().16b, v\a\().16b, v\d\().16b
    tb_end
    .endm

/* The floating-point steps, x30 and q31 free: results (shaped by FPCR) folded into state
 * registers with eor/add; FPSR collects their flags. */
    .macro fp_steps
    fadd    v31.2d, v0.2d, v1.2d
    eor     v2.16b, v2.16b, v31.16b
    fmul    v31.4s, v3.4s, v4.4s
    eor     v5.16b, v5.16b, v31.16b
    fdiv    v31.2d, v6.2d, v7.2d
    eor     v8.16b, v8.16b, v31.16b
    fsqrt   v31.4s, v9.4s
    add     v10.4s, v10.4s, v31.4s
    frintx  v31.2d, v11.2d              // the rounding mode, as data
    eor     v12.16b, v12.16b, v31.16b
    fcvtzs  v31.4s, v13.4s
    eor     v14.16b, v14.16b, v31.16b
    fmla    v31.2d, v15.2d, v16.2d
    eor     v17.16b, v17.16b, v31.16b
    dup     v31.2d, x9                  // and the two register files into each other
    eor     v18.16b, v18.16b, v31.16b
    .endm

/* void integrity_round(struct integrity_state *s, uint64_t iterations)
 * In: iterations in 1..0xffff. Out: s's registers, flags, FPSR and FPCR advanced;
 * s->sys_seen read; s->errors incremented if the count was found corrupted.
 * AAPCS64: x19-x29, lr and d8-d15 preserved. */
func integrity_round
    stp     x29, x30, [sp, #-160]!
    stp     x19, x20, [sp, #16]
    stp     x21, x22, [sp, #32]
    stp     x23, x24, [sp, #48]
    stp     x25, x26, [sp, #64]
    stp     x27, x28, [sp, #80]
    stp     d8, d9, [sp, #96]
    stp     d10, d11, [sp, #112]
    stp     d12, d13, [sp, #128]
    stp     d14, d15, [sp, #144]
    mov     x2, sp
    str     x2, [x0, #IS_C_SP]
    str     x1, [x0, #IS_COUNT]
    add     x1, x0, #IS_SYS_SET
    ldp     x2, x3, [x1], #16
    msr     sp_el0, x2
    msr     sp_el1, x3
    ldp     x2, x3, [x1], #16
    msr     elr_el1, x2
    msr     spsr_el1, x3
    ldp     x2, x3, [x1], #16
    msr     elr_el2, x2
    msr     spsr_el2, x3
    ldp     x2, x3, [x1], #16
    msr     tpidr_el0, x2
    msr     tpidr_el1, x3
    ldp     x2, x3, [x1], #16
    msr     tpidr_el2, x2
    msr     par_el1, x3
    mov     sp, x0
    ldr     x1, [sp, #IS_NZCV]
    msr     nzcv, x1
    ldr     x1, [sp, #IS_FPSR]
    msr     fpsr, x1
    ldr     x1, [sp, #IS_FPCR]
    msr     fpcr, x1
    ldp     q0, q1, [sp, #(IS_Q + 16 * 0)]
    ldp     q2, q3, [sp, #(IS_Q + 16 * 2)]
    ldp     q4, q5, [sp, #(IS_Q + 16 * 4)]
    ldp     q6, q7, [sp, #(IS_Q + 16 * 6)]
    ldp     q8, q9, [sp, #(IS_Q + 16 * 8)]
    ldp     q10, q11, [sp, #(IS_Q + 16 * 10)]
    ldp     q12, q13, [sp, #(IS_Q + 16 * 12)]
    ldp     q14, q15, [sp, #(IS_Q + 16 * 14)]
    ldp     q16, q17, [sp, #(IS_Q + 16 * 16)]
    ldp     q18, q19, [sp, #(IS_Q + 16 * 18)]
    ldp     q20, q21, [sp, #(IS_Q + 16 * 20)]
    ldp     q22, q23, [sp, #(IS_Q + 16 * 22)]
    ldp     q24, q25, [sp, #(IS_Q + 16 * 24)]
    ldp     q26, q27, [sp, #(IS_Q + 16 * 26)]
    ldp     q28, q29, [sp, #(IS_Q + 16 * 28)]
    ldp     q30, q31, [sp, #(IS_Q + 16 * 30)]
    ldp     x0, x1, [sp, #(IS_X + 8 * 0)]
    ldp     x2, x3, [sp, #(IS_X + 8 * 2)]
    ldp     x4, x5, [sp, #(IS_X + 8 * 4)]
    ldp     x6, x7, [sp, #(IS_X + 8 * 6)]
    ldp     x8, x9, [sp, #(IS_X + 8 * 8)]
    ldp     x10, x11, [sp, #(IS_X + 8 * 10)]
    ldp     x12, x13, [sp, #(IS_X + 8 * 12)]
    ldp     x14, x15, [sp, #(IS_X + 8 * 14)]
    ldp     x16, x17, [sp, #(IS_X + 8 * 16)]
    ldp     x18, x19, [sp, #(IS_X + 8 * 18)]
    ldp     x20, x21, [sp, #(IS_X + 8 * 20)]
    ldp     x22, x23, [sp, #(IS_X + 8 * 22)]
    ldp     x24, x25, [sp, #(IS_X + 8 * 24)]
    ldp     x26, x27, [sp, #(IS_X + 8 * 26)]
    ldp     x28, x29, [sp, #(IS_X + 8 * 28)]
    ldr     x30, [sp, #(IS_X + 8 * 30)]

loop:
    mixx    x23, x29, x30, x15, x21, x16, x3, x4, x6, x28, x22, x13
    mixv    23, 7, 5, 27, 9, 22, 20, 29
    mixv    12, 24, 13, 19, 2, 25, 16, 17
    mixx    x5, x27, x25, x18, x1, x9, x14, x0, x7, x12, x11, x17
    mixv    31, 21, 14, 10, 15, 3, 6, 8
    mixv    1, 28, 18, 4, 30, 26, 0, 11
    mixx    x10, x20, x8, x24, x2, x26, x19, x5, x16, x30, x29, x15
    mixx    x2, x13, x28, x26, x22, x4, x27, x24, x3, x1, x12, x21
    mixv    25, 30, 28, 16, 23, 4, 29, 1
    mixv    2, 22, 21, 9, 26, 18, 8, 13
    mixx    x10, x14, x11, x9, x6, x17, x19, x25, x30, x8, x18, x5
    mixv    12, 14, 20, 0, 6, 17, 11, 7
    mixv    27, 5, 3, 15, 10, 19, 31, 24
    mixx    x7, x20, x23, x29, x15, x0, x16, x11, x21, x17, x22, x18

    // The exit window: x30 is scratch until it is loaded back. No flags used.
    .global integrity_window            // (where the test's samples stop seeing x30 live)
integrity_window:
    str     x30, [sp, #IS_X30]
    ldr     x30, [sp, #IS_COUNT]
    sub     x30, x30, #1
    str     x30, [sp, #IS_COUNT]
    lsr     x30, x30, #16               // a sane count is below 0x10000
    cbnz    x30, corrupt
    mrs     x30, fpsr                   // the FPSR carried since the last window
    eor     x3, x3, x30, ror #19
    mrs     x30, fpcr                   // the FPCR the steps below round with
    eor     x17, x17, x30, ror #7
    msr     fpsr, xzr
    str     q31, [sp, #IS_Q31]
    fp_steps
    ldr     q31, [sp, #IS_Q31]
    mov     x30, v19.d[1]
    add     x21, x21, x30
    mrs     x30, fpsr                   // the steps' flags
    eor     x25, x25, x30, lsl #13
    and     x30, x11, #0x07c00000       // FPCR: AHP, DN, FZ, RMode from data
    msr     fpcr, x30
    and     x30, x12, #0x1f             // FPSR: IXC, UFC, OFC, DZC, IOC, IDC and QC
    bfi     x30, x13, #7, #1
    bfi     x30, x14, #27, #1
    msr     fpsr, x30
    ldr     x30, [sp, #IS_COUNT]
    cbz     x30, done
    ldr     x30, [sp, #IS_X30]
    b       loop

corrupt:
    ldr     x30, [sp, #IS_ERRORS]
    add     x30, x30, #1
    str     x30, [sp, #IS_ERRORS]
done:
    ldr     x30, [sp, #IS_X30]
    stp     x0, x1, [sp, #(IS_X + 8 * 0)]
    stp     x2, x3, [sp, #(IS_X + 8 * 2)]
    stp     x4, x5, [sp, #(IS_X + 8 * 4)]
    stp     x6, x7, [sp, #(IS_X + 8 * 6)]
    stp     x8, x9, [sp, #(IS_X + 8 * 8)]
    stp     x10, x11, [sp, #(IS_X + 8 * 10)]
    stp     x12, x13, [sp, #(IS_X + 8 * 12)]
    stp     x14, x15, [sp, #(IS_X + 8 * 14)]
    stp     x16, x17, [sp, #(IS_X + 8 * 16)]
    stp     x18, x19, [sp, #(IS_X + 8 * 18)]
    stp     x20, x21, [sp, #(IS_X + 8 * 20)]
    stp     x22, x23, [sp, #(IS_X + 8 * 22)]
    stp     x24, x25, [sp, #(IS_X + 8 * 24)]
    stp     x26, x27, [sp, #(IS_X + 8 * 26)]
    stp     x28, x29, [sp, #(IS_X + 8 * 28)]
    str     x30, [sp, #(IS_X + 8 * 30)]
    stp     q0, q1, [sp, #(IS_Q + 16 * 0)]
    stp     q2, q3, [sp, #(IS_Q + 16 * 2)]
    stp     q4, q5, [sp, #(IS_Q + 16 * 4)]
    stp     q6, q7, [sp, #(IS_Q + 16 * 6)]
    stp     q8, q9, [sp, #(IS_Q + 16 * 8)]
    stp     q10, q11, [sp, #(IS_Q + 16 * 10)]
    stp     q12, q13, [sp, #(IS_Q + 16 * 12)]
    stp     q14, q15, [sp, #(IS_Q + 16 * 14)]
    stp     q16, q17, [sp, #(IS_Q + 16 * 16)]
    stp     q18, q19, [sp, #(IS_Q + 16 * 18)]
    stp     q20, q21, [sp, #(IS_Q + 16 * 20)]
    stp     q22, q23, [sp, #(IS_Q + 16 * 22)]
    stp     q24, q25, [sp, #(IS_Q + 16 * 24)]
    stp     q26, q27, [sp, #(IS_Q + 16 * 26)]
    stp     q28, q29, [sp, #(IS_Q + 16 * 28)]
    stp     q30, q31, [sp, #(IS_Q + 16 * 30)]
    mrs     x0, nzcv
    str     x0, [sp, #IS_NZCV]
    mrs     x0, fpsr
    str     x0, [sp, #IS_FPSR]
    mrs     x0, fpcr
    str     x0, [sp, #IS_FPCR]
    add     x1, sp, #IS_SYS_SEEN
    mrs     x2, sp_el0
    mrs     x3, sp_el1
    stp     x2, x3, [x1], #16
    mrs     x2, elr_el1
    mrs     x3, spsr_el1
    stp     x2, x3, [x1], #16
    mrs     x2, elr_el2
    mrs     x3, spsr_el2
    stp     x2, x3, [x1], #16
    mrs     x2, tpidr_el0
    mrs     x3, tpidr_el1
    stp     x2, x3, [x1], #16
    mrs     x2, tpidr_el2
    mrs     x3, par_el1
    stp     x2, x3, [x1], #16
    ldr     x0, [sp, #IS_C_SP]
    mov     sp, x0
    ldp     d14, d15, [sp, #144]
    ldp     d12, d13, [sp, #128]
    ldp     d10, d11, [sp, #112]
    ldp     d8, d9, [sp, #96]
    ldp     x27, x28, [sp, #80]
    ldp     x25, x26, [sp, #64]
    ldp     x23, x24, [sp, #48]
    ldp     x21, x22, [sp, #32]
    ldp     x19, x20, [sp, #16]
    ldp     x29, x30, [sp], #160
    ret
endfunc integrity_round
