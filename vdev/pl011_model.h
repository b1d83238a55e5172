/* SPDX-License-Identifier: MIT */
/* A PL011 for the Normal world, in software (docs/one-wire.md): the registers Linux's
 * amba-pl011 driver uses, 32-entry FIFOs, the interrupt logic, and received BREAKs.
 * Portable C with no hardware access: fiqmon's platform feeds it the bytes the wire
 * brought, takes the bytes the kernel sent, and turns its interrupt output into a GIC
 * pending bit. Host-tested (tests/unit/test_pl011_model.c). */
#ifndef FIQMON_PL011_MODEL_H
#define FIQMON_PL011_MODEL_H

#include <stdbool.h>
#include <stdint.h>

/* Register offsets */
#define PL011M_DR     0x000
#define PL011M_RSR    0x004 /* read: RSR; write: ECR (clears it) */
#define PL011M_FR     0x018
#define PL011M_ILPR   0x020
#define PL011M_IBRD   0x024
#define PL011M_FBRD   0x028
#define PL011M_LCR_H  0x02c
#define PL011M_CR     0x030
#define PL011M_IFLS   0x034
#define PL011M_IMSC   0x038
#define PL011M_RIS    0x03c
#define PL011M_MIS    0x040
#define PL011M_ICR    0x044
#define PL011M_DMACR  0x048
#define PL011M_ID     0xfe0 /* eight ID words, 0xfe0-0xffc */

/* DR's receive status bits (RSR has the same four at bits 0-3) */
#define PL011M_DR_FE  (1u << 8)
#define PL011M_DR_PE  (1u << 9)
#define PL011M_DR_BE  (1u << 10)
#define PL011M_DR_OE  (1u << 11)

#define PL011M_FR_BUSY (1u << 3)
#define PL011M_FR_RXFE (1u << 4)
#define PL011M_FR_TXFF (1u << 5)
#define PL011M_FR_RXFF (1u << 6)
#define PL011M_FR_TXFE (1u << 7)

#define PL011M_LCR_H_BRK (1u << 0)
#define PL011M_LCR_H_FEN (1u << 4)

#define PL011M_CR_UARTEN (1u << 0)
#define PL011M_CR_LBE    (1u << 7)
#define PL011M_CR_TXE    (1u << 8)
#define PL011M_CR_RXE    (1u << 9)

/* Interrupt bits (RIS, IMSC, MIS, ICR) */
#define PL011M_INT_RX (1u << 4)
#define PL011M_INT_TX (1u << 5)
#define PL011M_INT_RT (1u << 6)
#define PL011M_INT_FE (1u << 7)
#define PL011M_INT_PE (1u << 8)
#define PL011M_INT_BE (1u << 9)
#define PL011M_INT_OE (1u << 10)
#define PL011M_INT_ALL 0x7ffu

#define PL011M_FIFO 32u

struct pl011_model {
    uint16_t rx[PL011M_FIFO]; /* data and DR bits 8-11 */
    uint8_t tx[PL011M_FIFO];
    uint8_t rx_first, rx_count, tx_first, tx_count;
    uint16_t cr, lcr_h, ibrd, fbrd, ifls, imsc, ris, ilpr, dmacr;
    uint8_t rsr;
    bool irq_level;
    uint32_t tx_lost; /* bytes written to a full transmitter or flushed from it (FEN) */
    /* the interrupt output: called with true after every access that finds it asserted
     * (the GIC forgets a pending bit once the kernel acknowledges it: re-pend) and with
     * false when it drops */
    void (*irq)(void *ctx, bool level);
    /* optional: takes a byte written to DR at once when the transmit FIFO is empty (nothing
     * waits ahead of it); false leaves it to the FIFO (pl011_model_set_tx_out) */
    bool (*tx_out)(void *ctx, uint8_t c);
    void *ctx;
};

/* Reset state: CR TXE|RXE (UARTEN off), IFLS 1/2 both, FIFOs empty, no interrupts. */
void pl011_model_init(struct pl011_model *m, void (*irq)(void *ctx, bool level), void *ctx);

/* The fast path for the kernel's polled output: a byte written to an empty, enabled
 * transmitter (not in loopback) is offered to tx_out first and skips the FIFO if it takes
 * it, as if sent and popped at once; the FIFO's level, FR and the TX interrupt are as
 * after pl011_model_tx_pop(). Once a byte waits in the FIFO, the next ones queue behind it. */
void pl011_model_set_tx_out(struct pl011_model *m, bool (*tx_out)(void *ctx, uint8_t c));

/* The Normal world's accesses (width 1, 2 or 4 at offset in the 4 KiB page). */
uint32_t pl011_model_read(struct pl011_model *m, uint32_t offset, unsigned width);
void pl011_model_write(struct pl011_model *m, uint32_t offset, unsigned width, uint32_t value);

/* The wire side. */
/* Room in the receive FIFO (receive only when there is: a full FIFO is an overrun). */
unsigned pl011_model_rx_room(const struct pl011_model *m);
/* A byte arrived (status: PL011M_DR_* bits, e.g. PL011M_DR_BE with 0 for a BREAK). Dropped
 * unless UARTEN and RXE; counted as an overrun if the FIFO is full. */
void pl011_model_rx_push(struct pl011_model *m, uint8_t c, uint32_t status);
/* The line has been idle since the last byte: the receive timeout interrupt, if any wait. */
void pl011_model_rx_idle(struct pl011_model *m);
/* The next byte the kernel sent, when the transmitter is enabled; -1 if none. */
int pl011_model_tx_pop(struct pl011_model *m);
/* Bytes the kernel sent that wait in the transmit FIFO. */
unsigned pl011_model_tx_count(const struct pl011_model *m);

#endif
