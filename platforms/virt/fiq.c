/* SPDX-License-Identifier: MIT */
/* The FIQ's C path (every FIQ the noise path, fiq_noise.S, does not finish alone) and
 * the SMC service call, in Monitor mode. */
#include "gicv2.h"
#include "monitor.h"
#include "noise_gate.h"
#include "pl011_debug_port.h"
#include "platform.h"
#include "platform_def.h"
#include "service.h"
#include "virt.h"

static uint32_t gic_fiq_counts[FIQ_COUNTED_LINES]; /* FIQs the C path took, per INTID */
_Static_assert(DEBUG_UART_INTID < FIQ_COUNTED_LINES, "the debug port's FIQs are counted");
static uint32_t other_fiqs;

int platform_fiq_fast(uint32_t iar, uint32_t first)
{
    uint32_t id = iar & GIC_INTID_MASK;
    int need_full = 0;

    if (id == DEBUG_UART_INTID) { /* one compare, nothing else to ask */
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
    if (!debug_uart_drain_fiq(first)) /* no byte: is something else asserting? */
        debug_uart_silence_others();
    need_full |= monitor_fiq_fast(id == DEBUG_UART_INTID);
    if (id != GIC_INTID_SPURIOUS)
        gicv2_eoi(GICC_BASE, iar);
    return need_full;
}

uint32_t gic_fiq_count(unsigned id)
{
    /* the noise path counts the FIQs it finishes alone, all the debug port's */
    return gic_fiq_counts[id] + (id == DEBUG_UART_INTID ? noise_gate.fiqs : 0);
}

uint32_t port_fiqs_taken(void)
{
    uint32_t n = other_fiqs;

    for (unsigned i = 0; i < FIQ_COUNTED_LINES; i++)
        n += gic_fiq_count(i);
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
