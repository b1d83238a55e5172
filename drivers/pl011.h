/* SPDX-License-Identifier: MIT */
/* ARM PrimeCell PL011 UART: register offsets and bits (DDI0183). */
#ifndef FIQMON_PL011_H
#define FIQMON_PL011_H

#define PL011_DR        0x000   /* data; bits 8-11 are receive error flags */
#define PL011_RSR_ECR   0x004   /* receive status / error clear */
#define PL011_FR        0x018   /* flags */
#define PL011_IBRD      0x024   /* integer baud divisor */
#define PL011_FBRD      0x028   /* fractional baud divisor (64ths) */
#define PL011_LCR_H     0x02c   /* line control */
#define PL011_CR        0x030   /* control */
#define PL011_IFLS      0x034   /* FIFO interrupt level select */
#define PL011_IMSC      0x038   /* interrupt mask set/clear (1 = enabled) */
#define PL011_RIS       0x03c   /* raw interrupt status */
#define PL011_MIS       0x040   /* masked interrupt status */
#define PL011_ICR       0x044   /* interrupt clear (write 1s) */

#define PL011_DR_ERROR_MASK 0xf00   /* OE | BE | PE | FE */
#define PL011_DR_BE     (1u << 10)  /* break: the line held low for a whole frame */

#define PL011_FR_RXFE   (1u << 4)   /* receive FIFO empty */
#define PL011_FR_TXFF   (1u << 5)   /* transmit FIFO full */
#define PL011_FR_BUSY   (1u << 3)   /* still shifting bits out */

#define PL011_LCR_H_FEN     (1u << 4)   /* FIFOs enabled */
#define PL011_LCR_H_WLEN_8  (3u << 5)

#define PL011_CR_UARTEN (1u << 0)
#define PL011_CR_TXE    (1u << 8)
#define PL011_CR_RXE    (1u << 9)

/* Interrupt bits, identical in IMSC, RIS, MIS and ICR. */
#define PL011_INT_RX    (1u << 4)   /* RXIM: receive FIFO at trigger level */
#define PL011_INT_TX    (1u << 5)   /* TXIM: cannot be cleared while TX FIFO is low, only masked */
#define PL011_INT_RT    (1u << 6)   /* RTIM: receive timeout */
#define PL011_INT_ALL   0x7ffu

#ifndef __ASSEMBLER__
#include <stdbool.h>
#include <stdint.h>

struct pl011_config {
    uintptr_t base;
    uint32_t clock_hz;  /* UARTCLK */
    uint32_t baud;
};

void pl011_init(const struct pl011_config *cfg);
void pl011_putc(uintptr_t base, uint8_t c);
bool pl011_tx_idle(uintptr_t base);
/* Returns the next received byte, or -1 when the FIFO is empty. Errored bytes have bit 8 set. */
int pl011_getc(uintptr_t base);
void pl011_rx_irq_enable(uintptr_t base, bool enable);
/* The seed's clear_irqs: clear every pending source and mask TX, which cannot be cleared. */
void pl011_clear_irqs(uintptr_t base);
#endif

#endif
