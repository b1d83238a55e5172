/* SPDX-License-Identifier: MIT */
/* The FIQ hot path: runs for every received byte, so it is kept short. */
#include "mmio.h"
#include "monitor.h"
#include "pl011.h"
#include "pl190_vic.h"
#include "platform.h"
#include "platform_def.h"
#include "versatilepb_fiq.h"

uint32_t vic_fiq_counts[VIC_LINES];

void debug_uart_drain(void)
{
    const uintptr_t uart = DEBUG_UART_BASE;

    while (!(mmio_read_32(uart + PL011_FR) & PL011_FR_RXFE)) {
        uint32_t dr = mmio_read_32(uart + PL011_DR);
        if (dr & PL011_DR_ERROR_MASK)
            mon_stats.rx_errors++;
        ring_put(&mon_rx, (uint8_t)dr);
    }
    /* Sources fiqmon does not consume would hold the line high and storm: clear them, and
     * mask TX, which cannot be cleared (the seed's clear_irqs). */
    if (mmio_read_32(uart + PL011_MIS) & ~(PL011_INT_RX | PL011_INT_RT))
        pl011_clear_irqs(uart);
}

int platform_fiq_fast(void)
{
    uint32_t pending = vic_fiq_status(VIC_BASE);

    if (pending == 1u << DEBUG_UART_LINE) {
        vic_fiq_counts[DEBUG_UART_LINE]++;
    } else {
        for (unsigned line = 0; pending; line++, pending >>= 1)
            vic_fiq_counts[line] += pending & 1;
    }
    debug_uart_drain();
    return monitor_fiq_fast();
}
