/* SPDX-License-Identifier: MIT */
/* The FIQ vector's target (Monitor mode): the noise path. Every byte of line noise runs
 * it, so it is assembly and calls nothing. It finishes one kind of FIQ alone: the debug
 * UART's interrupt, the noise gate open (noise_gate.h), every byte in the FIFO plain noise;
 * those are counted and dropped. Anything else goes on to mon_fiq_entry
 * (boot/armv7/fiq_entry.S) with the interrupted r0-r3, r12 and lr on the Monitor stack,
 * r0 = the GIC's IAR (acknowledged here; the C path ends it) and r1 = the value read from
 * the UART's data register and not dropped (PL011_NO_BYTE: none). docs/benchmarks.md
 * counts its instructions. */
#include "asm_macros.S"
#include "gicv2.h"
#include "pl011_noise.h"
#include "platform_def.h"

    .syntax unified
    .arm

func fiq_noise
    stmfd   sp!, {r0-r3, r12, lr}       @ sp_mon is fiqmon's: the Normal world cannot reach it
    adr     r12, 9f
    ldmia   r12, {r0-r2}                @ the GIC's CPU interface, &noise_gate, the debug UART
    ldr     r3, [r0, #GICC_IAR]
    cmp     r3, #DEBUG_UART_INTID       @ an SPI's IAR is its INTID alone
    bne     2f                          @ another source (the watchdog's timer), or spurious
    pl011_drop_noise r2, r1, r3, r12, lr, 1f, 3f
    mov     r3, #DEBUG_UART_INTID
    str     r3, [r0, #GICC_EOIR]
    ldmfd   sp!, {r0-r3, r12, lr}
    subs    pc, lr, #4

3:  mov     r1, r3                      @ the value kept
    b       4f
1:  mvn     r1, #0                      @ PL011_NO_BYTE
4:  mov     r0, #DEBUG_UART_INTID
    b       mon_fiq_entry
2:  mov     r0, r3
    mvn     r1, #0
    b       mon_fiq_entry

    .balign 4
9:  .word   GICC_BASE, noise_gate, DEBUG_UART_BASE
endfunc fiq_noise
