/* SPDX-License-Identifier: MIT */
/* Where fiqmon waits when it has no kernel to run: SVC mode, IRQs masked, FIQs enabled.
 * It keeps known values in r0-r12, lr and the flags and checks them after every wake-up,
 * so any register the FIQ path failed to restore is reported, and `regs` has known values
 * to show. The values are ARM immediates (0x0aN00000 in rN) so checks need no scratch. */
#include "asm_macros.S"
#include "cpu_frame.h"

    .syntax unified
    .arm

#define IDLE_FLAGS 0xa0000000   /* N and C set, Z and V clear */

    .macro check reg, value
    teq     \reg, #\value
    bne     idle_corrupted
    .endm

func idle_loop
    mov     r0, #0                  @ also the WFI operand, which should be zero
    mov     r1, #0x0a100000
    mov     r2, #0x0a200000
    mov     r3, #0x0a300000
    mov     r4, #0x0a400000
    mov     r5, #0x0a500000
    mov     r6, #0x0a600000
    mov     r7, #0x0a700000
    mov     r8, #0x0a800000
    mov     r9, #0x0a900000
    mov     r10, #0x0aa00000
    mov     r11, #0x0ab00000
    mov     r12, #0x0ac00000
    mov     lr, #0x0ae00000
    msr     cpsr_f, #IDLE_FLAGS
    msr     cpsr_c, #(ARM_MODE_SVC | ARM_PSR_I) @ FIQ on, IRQ off: values are in place
    .global idle_wait
idle_wait:
#if __ARM_ARCH >= 7
    wfi
#else
    mcr     p15, 0, r0, c7, c0, 4   @ wait for interrupt (ARMv5: a CP15 operation)
#endif
    bpl     idle_corrupted          @ N must still be set
    bcc     idle_corrupted          @ C must still be set
    beq     idle_corrupted          @ Z must still be clear
    bvs     idle_corrupted          @ V must still be clear
    check   r0, 0
    check   r1, 0x0a100000
    check   r2, 0x0a200000
    check   r3, 0x0a300000
    check   r4, 0x0a400000
    check   r5, 0x0a500000
    check   r6, 0x0a600000
    check   r7, 0x0a700000
    check   r8, 0x0a800000
    check   r9, 0x0a900000
    check   r10, 0x0aa00000
    check   r11, 0x0ab00000
    check   r12, 0x0ac00000
    check   lr, 0x0ae00000
    msr     cpsr_f, #IDLE_FLAGS     @ teq changed the flags
    b       idle_wait
endfunc idle_loop

func idle_corrupted
    ldr     sp, =__stack_svc_top
    bl      idle_report_corruption
1:  b       1b
endfunc idle_corrupted
