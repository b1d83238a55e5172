/* SPDX-License-Identifier: MIT */
/* The FIQ hot path: runs for every received byte, so it is kept short. */
#include "mmio.h"
#include "monitor.h"
#include "pl011.h"
#include "pl190_vic.h"
#include "platform.h"
#include "platform_def.h"
#include "port.h"
#include "service.h"
#include "versatilepb_fiq.h"

uint32_t vic_fiq_counts[VIC_LINES];
static uint32_t spurious_fiqs; /* FIQs with no source pending in the VIC */

/* Sources fiqmon does not consume would hold the line high and storm: clear them, and
 * mask TX, which cannot be cleared (the seed's clear_irqs). */
static void silence_other_sources(void)
{
    if (mmio_read_32(DEBUG_UART_BASE + PL011_MIS) & ~(PL011_INT_RX | PL011_INT_RT))
        pl011_clear_irqs(DEBUG_UART_BASE);
}

void debug_uart_drain(void)
{
    const uintptr_t uart = DEBUG_UART_BASE;

    while (!(mmio_read_32(uart + PL011_FR) & PL011_FR_RXFE)) {
        uint32_t dr = mmio_read_32(uart + PL011_DR);
        if (dr & PL011_DR_ERROR_MASK)
            mon_stats.rx_errors++;
        ring_put(&mon_rx, (uint8_t)dr);
    }
}

/* A service call: the kernel (or fiqmon's own boot code) wrote the mailbox and raised the
 * software interrupt of the service line. */
static int service_call(void)
{
    int need_full;
    uint32_t request = fiqmon_mailbox.request;

    vic_soft_raise(VIC_BASE, SERVICE_VIC_LINE, false);
    fiqmon_mailbox.request = FIQMON_SVC_NONE;
    fiqmon_mailbox.response = monitor_service(request, &need_full);
    return need_full;
}

int platform_fiq_fast(void)
{
    const uintptr_t uart = DEBUG_UART_BASE;
    uint32_t pending = vic_fiq_status(VIC_BASE);
    int need_full = 0;
    bool got_byte = false;
    /* Plain noise while waiting for a knock stops in this loop; everything else, and
     * everything after it (order matters), goes through the ring to the monitor. */
    bool filter = mon_filtering && !ring_count(&mon_rx);

    if (pending == 1u << DEBUG_UART_LINE) {
        vic_fiq_counts[DEBUG_UART_LINE]++;
    } else {
        for (unsigned line = 0; line < VIC_LINES; line++)
            vic_fiq_counts[line] += (pending >> line) & 1;
        if (!pending)
            spurious_fiqs++;
        if (pending & (1u << SERVICE_VIC_LINE))
            need_full = service_call();
    }
    while (!(mmio_read_32(uart + PL011_FR) & PL011_FR_RXFE)) {
        uint32_t dr = mmio_read_32(uart + PL011_DR);
        got_byte = true;
        if (filter && !(dr & PL011_DR_ERROR_MASK) && knock_quiet_noise(&mon_knock, (uint8_t)dr))
            continue;
        filter = false;
        if (dr & PL011_DR_ERROR_MASK)
            mon_stats.rx_errors++;
        ring_put(&mon_rx, (uint8_t)dr);
    }
    if (!got_byte) {
        silence_other_sources(); /* a FIQ with no byte: is something else asserting? */
        need_full |= monitor_fiq_fast((pending >> DEBUG_UART_LINE) & 1);
    } else if (!filter) {
        need_full |= monitor_fiq_fast((pending >> DEBUG_UART_LINE) & 1);
    }
    return need_full;
}

uint32_t port_fiqs_taken(void)
{
    uint32_t n = spurious_fiqs;

    for (unsigned line = 0; line < VIC_LINES; line++)
        n += vic_fiq_counts[line];
    return n;
}
