/* SPDX-License-Identifier: MIT */
#include "pl011_debug_port.h"

#include "platform.h"

#include "build_options.h"

bool debug_uart_break;

/* A value read from the data register, into the ring (its error flags counted). One wire:
 * a BREAK is not a byte; it ends the drain (false) so that the FIQ path hands the bytes
 * before it on first (debug_uart_break). */
static bool take(uint32_t dr)
{
    if (dr & PL011_DR_ERROR_MASK)
        mon_stats.rx_errors++;
    if (FIQMON_CONSOLE_SHARED && (dr & PL011_DR_BE)) {
        debug_uart_break = true;
        return false;
    }
    ring_put(&mon_rx, (uint8_t)dr);
    return true;
}

static void drain_upto(uint32_t cap)
{
    const uintptr_t uart = DEBUG_UART_BASE;

    /* a full ring leaves the rest in the UART (its interrupt stays up): a flood can refill
     * the FIFO as fast as this loop reads it */
    while (ring_count(&mon_rx) < cap && !(mmio_read_32(uart + PL011_FR) & PL011_FR_RXFE))
        if (!take(mmio_read_32(uart + PL011_DR)))
            break;
}

void debug_uart_drain(void)
{
    drain_upto(RING_SIZE);
}

bool debug_uart_drain_fiq(uint32_t first)
{
    return debug_uart_drain_fiq_upto(first, RING_SIZE);
}

bool debug_uart_drain_fiq_upto(uint32_t first, uint32_t cap)
{
    if (first == PL011_NO_BYTE) {
        if (mmio_read_32(DEBUG_UART_BASE + PL011_FR) & PL011_FR_RXFE)
            return false;
        first = mmio_read_32(DEBUG_UART_BASE + PL011_DR);
    }
    if (take(first) && !monitor_rx_byte_at_a_time())
        drain_upto(cap);
    return true;
}

void debug_uart_silence_others(void)
{
    if (mmio_read_32(DEBUG_UART_BASE + PL011_MIS) & ~(PL011_INT_RX | PL011_INT_RT))
        pl011_clear_irqs(DEBUG_UART_BASE);
}

void port_putc(uint8_t c)
{
    /* keep receiving while the transmitter is busy, so a long answer loses no input */
    while (mmio_read_32(DEBUG_UART_BASE + PL011_FR) & PL011_FR_TXFF)
        debug_uart_drain();
    mmio_write_32(DEBUG_UART_BASE + PL011_DR, c);
}

void port_rx_poll(void)
{
    debug_uart_drain();
}

void platform_early_puts(const char *s)
{
    for (; *s; s++)
        pl011_putc(DEBUG_UART_BASE, (uint8_t)*s);
}

void debug_uart_flush(void)
{
    while (!pl011_tx_idle(DEBUG_UART_BASE)) {
    }
}
