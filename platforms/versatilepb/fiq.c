/* SPDX-License-Identifier: MIT */
/* The FIQ hot path: runs for every received byte, so it is kept short. */
#include "mmio.h"
#include "monitor.h"
#include "pl011.h"
#include "pl190_vic.h"
#include "platform.h"
#include "pl011_debug_port.h"
#include "platform_def.h"
#include "service.h"
#include "sp804.h"
#include "watchdog.h"
#include "versatilepb_fiq.h"

uint32_t vic_fiq_counts[VIC_LINES];
static uint32_t spurious_fiqs; /* FIQs with no source pending in the VIC */

/* A service call: the kernel (or fiqmon's own boot code) wrote the mailbox and raised the
 * software interrupt of the service line. */
static int service_call(void)
{
    int need_full;
    uint32_t request = fiqmon_mailbox.request;

    vic_soft_raise(VIC_BASE, SERVICE_VIC_LINE, false);
    if (request == FIQMON_SVC_NONE)
        return 0; /* fiqmon's own doorbell (end of boot): nothing for the mailbox */
    fiqmon_mailbox.response = monitor_service(request, &need_full);
    fiqmon_mailbox.request = FIQMON_SVC_NONE; /* last: the kernel polls for it */
    return need_full;
}

int platform_fiq_fast(void)
{
    uint32_t pending = vic_fiq_status(VIC_BASE);
    int need_full = 0;
    enum debug_drain drained;

    if (pending == 1u << DEBUG_UART_LINE) {
        vic_fiq_counts[DEBUG_UART_LINE]++;
    } else {
        for (unsigned line = 0; line < VIC_LINES; line++)
            vic_fiq_counts[line] += (pending >> line) & 1;
        if (!pending)
            spurious_fiqs++;
        if (pending & (1u << SERVICE_VIC_LINE))
            need_full = service_call();
#if FIQMON_WATCHDOG
        if (pending & (1u << WATCHDOG_TIMER_LINE)) {
            sp804_ack(WATCHDOG_TIMER_BASE);
            if (watchdog_sample(&mon_watchdog, vic_raw_status(VIC_BASE) >> WATCHDOG_WATCH_LINE & 1)) {
                monitor_request_lockup_report();
                need_full = 1;
            }
        }
#endif
    }
    drained = debug_uart_drain_fiq();
    if (drained == DRAIN_NOTHING)
        debug_uart_silence_others(); /* a FIQ with no byte: is something else asserting? */
    if (drained != DRAIN_FILTERED)
        need_full |= monitor_fiq_fast((pending >> DEBUG_UART_LINE) & 1);
    return need_full;
}

uint32_t port_fiqs_taken(void)
{
    uint32_t n = spurious_fiqs;

    for (unsigned line = 0; line < VIC_LINES; line++)
        n += vic_fiq_counts[line];
    return n;
}
