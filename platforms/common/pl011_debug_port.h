/* SPDX-License-Identifier: MIT */
/* The debug port on a PL011, shared by every platform that has one: polled output that
 * keeps receiving, and the FIQ's drain into the ring (plain noise never gets there: the
 * platform's noise path drops it, pl011_noise.h). DEBUG_UART_BASE comes from the
 * platform's platform_def.h. */
#ifndef FIQMON_PL011_DEBUG_PORT_H
#define FIQMON_PL011_DEBUG_PORT_H

#include <stdbool.h>
#include <stdint.h>

#include "knock.h"
#include "mmio.h"
#include "monitor.h"
#include "pl011.h"
#include "pl011_noise.h"
#include "platform_def.h"

/* Move everything the debug UART holds into mon_rx (polled use). */
void debug_uart_drain(void);
/* Wait until every byte written has left the transmitter. */
void debug_uart_flush(void);
/* One wire (CONSOLE=shared builds): a BREAK came in; the drain stopped at it. The FIQ
 * path clears it and passes it on (monitor_console_break) after the bytes before it. */
extern bool debug_uart_break;
/* A FIQ with no byte: clear UART sources fiqmon does not consume (they would storm). */
void debug_uart_silence_others(void);

/* The FIQ's C path, after the platform's noise path (pl011_noise.h): first is the value
 * it read from the data register and did not drop (PL011_NO_BYTE: none). That byte and
 * everything after it go through the ring, in order; while the monitor waits for a knock,
 * that byte alone (monitor_rx_byte_at_a_time): the rest raise the next FIQ. false: there
 * was no byte at all. */
bool debug_uart_drain_fiq(uint32_t first);
/* The same, the rest only while mon_rx holds fewer than cap bytes (one wire: no more than
 * the kernel's side can take, so none is dropped; the UART holds the rest). */
bool debug_uart_drain_fiq_upto(uint32_t first, uint32_t cap);

#endif
