/* SPDX-License-Identifier: MIT */
/* The FIQ vector's target: the noise path. Every byte of line noise runs it, so it is
 * assembly and calls nothing. It finishes one kind of FIQ alone: the debug UART's line and
 * no other, the noise gate open (noise_gate.h), every byte in the FIFO plain noise; those
 * are counted and dropped. Anything else goes on to fiq_entry (boot/armv5/fiq_entry.S)
 * with the interrupted r0-r3, r12 and lr on the FIQ stack, r0 = the VIC's FIQ status and
 * r1 = the value it read from the UART's data register and did not drop (PL011_NO_BYTE:
 * none). docs/benchmarks.md counts its instructions. */
#include "asm_macros.S"
#include "pl011_noise.h"
#include "pl190_vic.h"
#include "platform_def.h"

    .syntax unified
    .arm

#define DEBUG_ONLY (1 << DEBUG_UART_LINE)

func fiq_noise
    ldr     sp, =__stack_fiq_top        @ FIQ mode is fiqmon's (docs/kernel-contract.md)
    stmfd   sp!, {r0-r3, r12, lr}
    adr     r12, 9f
    ldmia   r12, {r0-r2}                @ the VIC, &noise_gate, the debug UART
    ldr     r3, [r0, #VIC_FIQSTATUS]
    cmp     r3, #DEBUG_ONLY
    bne     2f                          @ another source, several, or none
    pl011_drop_noise r2, r1, r3, r12, lr, 1f, 3f
    ldmfd   sp!, {r0-r3, r12, lr}
    subs    pc, lr, #4

3:  mov     r1, r3                      @ the value kept
    b       4f
1:  mvn     r1, #0                      @ PL011_NO_BYTE
4:  mov     r0, #DEBUG_ONLY
    b       fiq_entry
2:  mov     r0, r3
    mvn     r1, #0
    b       fiq_entry

    .balign 4
9:  .word   VIC_BASE, noise_gate, DEBUG_UART_BASE
endfunc fiq_noise
