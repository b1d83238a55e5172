/* SPDX-License-Identifier: MIT */
/* The FIQ's C path: every FIQ the noise path (fiq_noise.S) does not finish alone. */
#include "mmio.h"
#include "monitor.h"
#include "noise_gate.h"
#include "pl011.h"
#include "pl190_vic.h"
#include "platform.h"
#include "pl011_debug_port.h"
#include "platform_def.h"
#include "service.h"
#include "sp804.h"
#include "watchdog.h"
#include "versatilepb_fiq.h"

static uint32_t vic_fiq_counts[VIC_LINES]; /* FIQs the C path took, per VIC line */
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
#if FIQMON_CONSOLE_SHARED
    if (request == FIQMON_SVC_CONSOLE) {
        need_full = 0;
        fiqmon_mailbox.response = vpb_console_call();
    } else
#endif
        fiqmon_mailbox.response = monitor_service(request, &need_full);
    fiqmon_mailbox.request = FIQMON_SVC_NONE; /* last: the kernel polls for it */
    return need_full;
}

int platform_fiq_fast(uint32_t pending, uint32_t first)
{
    int need_full = 0;

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
            bool stuck = vic_raw_status(VIC_BASE) >> WATCHDOG_WATCH_LINE & 1;
            if (watchdog_sample(&mon_watchdog, 0, stuck)) {
                monitor_request_lockup_report();
                need_full = 1;
            }
        }
#endif
    }
    if (!debug_uart_drain_fiq(first))
        debug_uart_silence_others(); /* a FIQ with no byte: is something else asserting? */
    return need_full | monitor_fiq_fast((pending >> DEBUG_UART_LINE) & 1);
}

uint32_t vic_fiq_count(unsigned line)
{
    /* the noise path counts the FIQs it finishes alone, all the debug port's */
    return vic_fiq_counts[line] + (line == DEBUG_UART_LINE ? noise_gate.fiqs : 0);
}

uint32_t port_fiqs_taken(void)
{
    uint32_t n = spurious_fiqs;

    for (unsigned line = 0; line < VIC_LINES; line++)
        n += vic_fiq_count(line);
    return n;
}
