/* SPDX-License-Identifier: MIT */
#include "pl011.h"
#include "mmio.h"

void pl011_init(const struct pl011_config *cfg)
{
    uintptr_t base = cfg->base;
    /* divisor in 64ths: clock * 4 / baud, rounded */
    uint32_t div64 = (cfg->clock_hz * 4u + cfg->baud / 2u) / cfg->baud;

    mmio_write_32(base + PL011_CR, 0);
    mmio_write_32(base + PL011_IMSC, 0);
    mmio_write_32(base + PL011_ICR, PL011_INT_ALL);
    mmio_write_32(base + PL011_RSR_ECR, 0);
    mmio_write_32(base + PL011_IBRD, div64 >> 6);
    mmio_write_32(base + PL011_FBRD, div64 & 0x3f);
    /* LCR_H last: it latches the divisors. 8N1, FIFOs on. */
    mmio_write_32(base + PL011_LCR_H, PL011_LCR_H_WLEN_8 | PL011_LCR_H_FEN);
    mmio_write_32(base + PL011_IFLS, 0); /* RX interrupt at 1/8 full; RT covers the rest */
    mmio_write_32(base + PL011_CR, PL011_CR_UARTEN | PL011_CR_TXE | PL011_CR_RXE);
}

void pl011_putc(uintptr_t base, uint8_t c)
{
    while (mmio_read_32(base + PL011_FR) & PL011_FR_TXFF) {
    }
    mmio_write_32(base + PL011_DR, c);
}

bool pl011_tx_idle(uintptr_t base)
{
    return !(mmio_read_32(base + PL011_FR) & PL011_FR_BUSY);
}

int pl011_getc(uintptr_t base)
{
    if (mmio_read_32(base + PL011_FR) & PL011_FR_RXFE)
        return -1;
    return (int)(mmio_read_32(base + PL011_DR) & 0xfffu);
}

void pl011_rx_irq_enable(uintptr_t base, bool enable)
{
    uint32_t bits = PL011_INT_RX | PL011_INT_RT;

    mmio_clrsetbits_32(base + PL011_IMSC, bits | PL011_INT_TX, enable ? bits : 0);
}

void pl011_clear_irqs(uintptr_t base)
{
    mmio_write_32(base + PL011_ICR, mmio_read_32(base + PL011_MIS));
    mmio_clrsetbits_32(base + PL011_IMSC, PL011_INT_TX, 0);
}
