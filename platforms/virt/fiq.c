/* SPDX-License-Identifier: MIT */
/* The FIQ hot path and the SMC service call, in Monitor mode. */
#include "gicv2.h"
#include "monitor.h"
#include "pl011_debug_port.h"
#include "platform.h"
#include "platform_def.h"
#include "service.h"
#include "virt.h"

uint32_t gic_fiq_counts[FIQ_COUNTED_LINES];
_Static_assert(DEBUG_UART_INTID < FIQ_COUNTED_LINES, "the debug port's FIQs are counted");
static uint32_t other_fiqs;

int platform_fiq_fast(void)
{
    uint32_t iar = gicv2_ack(GICC_BASE);
    uint32_t id = iar & GIC_INTID_MASK;
    int need_full = 0;
    enum debug_drain drained;

    if (id == DEBUG_UART_INTID) { /* the noise path: one compare, nothing else to ask */
        gic_fiq_counts[DEBUG_UART_INTID]++;
    } else {
        if (id < FIQ_COUNTED_LINES)
            gic_fiq_counts[id]++;
        else
            other_fiqs++;
#if FIQMON_WATCHDOG
        /* The timer's output is a level: acknowledge it at its source on every path (a
         * byte waiting too, any monitor state), or it asserts again the moment it is EOId. */
        if (id == WATCHDOG_TIMER_INTID)
            need_full = virt_watchdog_tick();
#endif
    }
    drained = debug_uart_drain_fiq();
    if (drained == DRAIN_NOTHING) /* off the noise path: a noise byte always drains */
        debug_uart_silence_others();
    if (drained != DRAIN_FILTERED)
        need_full |= monitor_fiq_fast(id == DEBUG_UART_INTID);
    if (id != GIC_INTID_SPURIOUS)
        gicv2_eoi(GICC_BASE, iar);
    return need_full;
}

uint32_t port_fiqs_taken(void)
{
    uint32_t n = other_fiqs;

    for (unsigned i = 0; i < FIQ_COUNTED_LINES; i++)
        n += gic_fiq_counts[i];
    return n;
}

/* SMC from the Normal world: function ids FIQMON_SMC_BASE + FIQMON_SVC_*. Anything else
 * answers "not supported" (-1), as the SMC calling convention asks. */
uint32_t platform_smc(uint32_t fid, uint32_t a1, uint32_t a2, uint32_t a3);

uint32_t platform_smc(uint32_t fid, uint32_t a1, uint32_t a2, uint32_t a3)
{
    int need_full;
    uint32_t response;

    (void)a1;
    (void)a2;
    (void)a3;
    if (fid - FIQMON_SMC_BASE - 1u >= FIQMON_SVC_ENTER)
        return FIQMON_SVC_UNKNOWN;
    response = monitor_service(fid - FIQMON_SMC_BASE, &need_full);
    if (need_full)
        platform_raise_service_fiq(); /* taken as soon as the SMC returns */
    return response;
}
