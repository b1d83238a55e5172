/* SPDX-License-Identifier: MIT */
/* The debug port on a PL011, shared by every platform that has one: polled output that
 * keeps receiving, and the FIQ hot path's drain loop (inline: every noise byte runs it).
 * DEBUG_UART_BASE comes from the platform's platform_def.h. */
#ifndef FIQMON_PL011_DEBUG_PORT_H
#define FIQMON_PL011_DEBUG_PORT_H

#include <stdbool.h>
#include <stdint.h>

#include "knock.h"
#include "mmio.h"
#include "monitor.h"
#include "pl011.h"
#include "platform_def.h"

enum debug_drain {
    DRAIN_NOTHING,  /* no byte was waiting */
    DRAIN_FILTERED, /* every byte was plain noise, dropped by knock_quiet_noise */
    DRAIN_QUEUED,   /* bytes are in mon_rx for the monitor */
};

/* Move everything the debug UART holds into mon_rx (polled use). */
void debug_uart_drain(void);
/* Wait until every byte written has left the transmitter. */
void debug_uart_flush(void);
/* A FIQ with no byte: clear UART sources fiqmon does not consume (they would storm). */
void debug_uart_silence_others(void);

/* The hot path: drain the receiver. Plain noise while waiting for a knock stops here;
 * everything else, and everything after it (order matters), goes through the ring. */
static inline enum debug_drain debug_uart_drain_fiq(void)
{
    const uintptr_t uart = DEBUG_UART_BASE;
    bool filter = mon_filtering && !ring_count(&mon_rx);
    enum debug_drain result = DRAIN_NOTHING;

    while (!(mmio_read_32(uart + PL011_FR) & PL011_FR_RXFE)) {
        uint32_t dr = mmio_read_32(uart + PL011_DR);
        result = DRAIN_FILTERED;
        if (filter && !(dr & PL011_DR_ERROR_MASK) && knock_quiet_noise(&mon_knock, (uint8_t)dr))
            continue;
        filter = false;
        result = DRAIN_QUEUED; /* from here on every byte goes through the ring */
        if (dr & PL011_DR_ERROR_MASK)
            mon_stats.rx_errors++;
        ring_put(&mon_rx, (uint8_t)dr);
        /* a flood refills the FIFO while this loop reads it: leave the rest in the UART
         * (its interrupt stays up) rather than drop it from a full ring */
        if (ring_count(&mon_rx) == RING_SIZE)
            break;
    }
    /* no byte is DRAIN_NOTHING in every state: callers service other sources on it */
    return result;
}

#endif
