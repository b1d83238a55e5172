/* SPDX-License-Identifier: MIT */
/* The FIQ vector's target at EL3: the noise path. Every byte of line noise runs it, so it
 * is assembly and calls nothing. It finishes one kind of FIQ alone: the debug UART's
 * interrupt, the noise gate open (noise_gate.h), every byte in the FIFO plain noise; those
 * are counted and dropped. Anything else goes on to mon_fiq_entry
 * (boot/aarch64/fiq_entry.S) with the interrupted x0-x3 on SP_EL3, x0 = the Group 0 IAR
 * (acknowledged here; the C path ends it) and w1 = the value read from the UART's data
 * register and not dropped (PL011_NO_BYTE: none). The same three compares as the AArch32
 * platforms' pl011_drop_noise (knock_quiet_byte, knock.h). docs/benchmarks.md counts its
 * instructions. */
#include "asm_macros.S"
#include "gicv3.h"
#include "noise_gate.h"
#include "pl011.h"
#include "platform_def.h"

func fiq_noise
    stp     x0, x1, [sp, #-32]!         // SP_EL3 is fiqmon's: the Normal world cannot reach it
    stp     x2, x3, [sp, #16]
    mrs     x0, ICC_IAR0_EL1
    cmp     w0, #DEBUG_UART_INTID
    b.ne    other_source                // another source, or spurious
    adr     x1, noise_gate
    ldr     w3, [x1, #NOISE_GATE_OPEN]
    cbz     w3, no_byte                 // closed: the C path takes every byte
    mov     x2, #DEBUG_UART_BASE
    ldr     w3, [x2, #PL011_FR]
    tbnz    w3, #4, no_byte             // RXFE: no byte; the C path asks what else is asserted
    ldr     w0, [x1, #NOISE_GATE_NOISE] // (the IAR is DEBUG_UART_INTID: rebuilt below)
    mov     w3, #0xff                   // (ccmp takes 5-bit immediates only)
1:  ldr     w1, [x2, #PL011_DR]
    cmp     w1, #0x24                   // '$': a knock or a GDB packet may start here
    ccmp    w1, #0x0d, #4, ne           // CR and LF: a new line, and its prompt
    ccmp    w1, #0x0a, #4, ne
    ccmp    w1, w3, #2, ne              // an error flag (bits 8-11) makes it 0x100 or more
    b.hi    kept                        // (an equal compare above lands here too)
    add     w0, w0, #1
    ldr     w1, [x2, #PL011_FR]
    tbz     w1, #4, 1b                  // the FIFO may hold several
    adr     x1, noise_gate
    ldr     w3, [x1, #NOISE_GATE_FIQS]
    add     w3, w3, #1
    stp     w0, w3, [x1, #NOISE_GATE_NOISE]
    mov     x0, #DEBUG_UART_INTID
    msr     ICC_EOIR0_EL1, x0
    ldp     x2, x3, [sp, #16]
    ldp     x0, x1, [sp], #32
    eret

kept:                                   // w1 = the value kept; the bytes before it counted
    adr     x2, noise_gate
    str     w0, [x2, #NOISE_GATE_NOISE]
    mov     x0, #DEBUG_UART_INTID
    b       mon_fiq_entry
no_byte:
    mov     w1, #-1                     // PL011_NO_BYTE
    b       mon_fiq_entry
other_source:
    mov     w1, #-1
    b       mon_fiq_entry
endfunc fiq_noise
