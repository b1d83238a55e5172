/* SPDX-License-Identifier: MIT */
/* The PL011 part of the FIQ's noise path, shared by each platform's fiq_noise.S: drain the
 * debug UART while every byte is plain noise and the noise gate is open (noise_gate.h).
 * Its three compares are knock_quiet_byte's (knock.h). */
#ifndef FIQMON_PL011_NOISE_H
#define FIQMON_PL011_NOISE_H

#include "noise_gate.h"
#include "pl011.h"

/* What the noise path passes on when it read nothing from the data register. */
#define PL011_NO_BYTE 0xffffffff

#ifdef __ASSEMBLER__
/* In: uart = the debug UART's base, gate = &noise_gate; t, noise and fiqs are scratch,
 * noise numbered below fiqs. Branches to `closed` if the gate is shut or the FIFO holds no
 * byte (nothing read), to `kept` with t = a value read from the data register that is not
 * plain noise (the bytes dropped before it counted); falls through when the FIFO is empty
 * and every byte was dropped (counted, and this FIQ with them). Clobbers the flags. */
    .macro pl011_drop_noise uart, gate, t, noise, fiqs, closed, kept
    ldmia   \gate, {\t, \noise, \fiqs}  @ open, noise, fiqs
    teq     \t, #0
    beq     \closed
    ldr     \t, [\uart, #PL011_FR]
    tst     \t, #PL011_FR_RXFE
    beq     .Lbyte\@
    b       \closed                     @ no byte: the C path asks what else is asserted
.Lkept\@:
    str     \noise, [\gate, #NOISE_GATE_NOISE]
    b       \kept
.Lbyte\@:
    ldr     \t, [\uart, #PL011_DR]
    cmp     \t, #0x24                   @ '$': a knock or a GDB packet may start here
    cmpne   \t, #0x0d                   @ CR and LF: a new line, and its prompt
    cmpne   \t, #0x0a
    cmpne   \t, #0x100                  @ an error flag (bits 8-11) makes it 0x100 or more
    bhs     .Lkept\@                    @ (an equal compare leaves C set too)
    add     \noise, \noise, #1
    ldr     \t, [\uart, #PL011_FR]
    tst     \t, #PL011_FR_RXFE
    beq     .Lbyte\@                    @ the FIFO may hold several
    add     \fiqs, \fiqs, #1
    stmib   \gate, {\noise, \fiqs}
    .endm
#endif

#endif
