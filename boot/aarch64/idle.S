/* SPDX-License-Identifier: MIT */
/* Where fiqmon waits when it has no kernel to run: EL3 on SP_EL0 (EL3t), IRQs masked,
 * FIQs enabled. It keeps known values in x0-x30 and the flags and checks them after every
 * wake-up, so any register the FIQ path failed to restore is reported, and `regs` has
 * known values to show: 0 in x0, (0xa00 + n) << 12 in xn, values cmp takes as immediates,
 * so the checks need no scratch register and every register keeps its value throughout. */
#include "asm_macros.S"


#define IDLE_NZCV (0xa << 28)                  /* N and C set, Z and V clear */

func idle_loop
    mov     x0, #0
    .irp n, 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30
    mov     x\n, #(0xa00 + \n)
    lsl     x\n, x\n, #12
    .endr
    mov     x0, #IDLE_NZCV
    msr     nzcv, x0
    mov     x0, #0
    msr     daifclr, #1                 // FIQ on: values are in place
    .global idle_wait
idle_wait:
    wfi
    b.pl    idle_corrupted              // N must still be set
    b.cc    idle_corrupted              // C must still be set
    b.eq    idle_corrupted              // Z must still be clear
    b.vs    idle_corrupted              // V must still be clear
    cbnz    x0, idle_corrupted
    .irp n, 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30
    cmp     x\n, #(0xa00 + \n), lsl #12
    b.ne    idle_corrupted
    .endr
    cmp     x0, #0                      // the compares changed the flags: Z set, so ...
    ccmp    x0, #0, #0xa, ne            // ... ne fails and the flags become N and C again
    b       idle_wait
endfunc idle_loop

func idle_corrupted
    msr     daifset, #0xf
    ldr     x0, =__stack_svc_top
    mov     sp, x0
    bl      idle_report_corruption
1:  wfi
    b       1b
    .ltorg
endfunc idle_corrupted
