/* SPDX-License-Identifier: MIT */
/* The FIQ hot path: runs for every received byte, so it is kept short. */
#include "mmio.h"
#include "monitor.h"
#include "pl011.h"
#include "pl190_vic.h"
#include "platform.h"
#include "platform_def.h"
#include "service.h"
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
    uint32_t pending = vic_fiq_status(VIC_BASE);
    int need_full = 0;

    if (pending == 1u << DEBUG_UART_LINE) {
        vic_fiq_counts[DEBUG_UART_LINE]++;
    } else {
        for (unsigned line = 0; line < VIC_LINES; line++)
            vic_fiq_counts[line] += (pending >> line) & 1;
        if (pending & (1u << SERVICE_VIC_LINE))
            need_full = service_call();
    }
    debug_uart_drain();
    return monitor_fiq_fast((pending >> DEBUG_UART_LINE) & 1) | need_full;
}
