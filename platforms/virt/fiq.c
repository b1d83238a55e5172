/* SPDX-License-Identifier: MIT */
/* The FIQ's C path (every FIQ the noise path, fiq_noise.S, does not finish alone) and
 * the SMC service call, in Monitor mode. */
#include "cpu_frame.h"
#include "gicv2.h"
#include "hyp_abi.h"
#include "monitor.h"
#include "noise_gate.h"
#if FIQMON_HYP
#include "pl011_access_counts.h"
#endif
#include "pl011_debug_port.h"
#include "platform.h"
#include "platform_def.h"
#include "psci.h"
#include "service.h"
#include "spinlock.h"
#include "virt.h"
#if FIQMON_WATCHDOG
#include "watchdog.h"
#endif

static uint32_t gic_fiq_counts[FIQ_COUNTED_LINES]; /* FIQs the C path took, per INTID */
_Static_assert(DEBUG_UART_INTID < FIQ_COUNTED_LINES, "the debug port's FIQs are counted");
static uint32_t other_fiqs;

int platform_fiq_fast(uint32_t iar, uint32_t first)
{
    uint32_t id = iar & GIC_INTID_MASK;
    int need_full = 0;

#if FIQMON_SMP > 1
    if (virt_cpu_index() != 0) /* the monitor, its port and its watchdog are CPU 0's */
        return virt_smp_fiq(iar);
#endif

    if (id == DEBUG_UART_INTID) { /* one compare, nothing else to ask */
        gic_fiq_counts[DEBUG_UART_INTID]++;
    } else {
        if (id < FIQ_COUNTED_LINES)
            gic_fiq_counts[id]++;
        else
            other_fiqs++;
#if FIQMON_CONSOLE_SHARED
        if (id == HOLD_TIMER_INTID) /* a quiet time or a throttle's deadline is over */
            virt_console_deadline();  /* (stops the timer: its output is a level) */
#endif
#if FIQMON_WATCHDOG
        /* The timer's output is a level: acknowledge it at its source on every path (a
         * byte waiting too, any monitor state), or it asserts again the moment it is EOId. */
        if (id == WATCHDOG_TIMER_INTID && virt_watchdog_tick()) {
            monitor_request_lockup_report();
            need_full = 1;
        }
#if FIQMON_SMP > 1
        /* another CPU stopped on its own lockup and waits for the report (smp.c) */
        if (id == CPU_SGI && watchdog_due(&mon_watchdog)) {
            monitor_request_lockup_report();
            need_full = 1;
        }
#endif
#endif
#if FIQMON_SMP > 1 && FIQMON_HYP
        /* another CPU stopped on a debug event and waits for CPU 0's verdict (smp.c) */
        if (id == CPU_SGI && virt_smp_debug_due())
            need_full = 1;
#endif
    }
#if FIQMON_CONSOLE_SHARED
    /* the wire waits while the kernel's ring is full (console_shared.c); the noise gate
     * never opens in this mode, so the noise path has read nothing (first: none) */
    bool drained = !virt_console_throttled &&
                   debug_uart_drain_fiq_upto(first, virt_console_rx_cap());
#else
    bool drained = debug_uart_drain_fiq(first);
#endif
    if (!drained) /* no byte: is something else asserting? */
        debug_uart_silence_others();
    need_full |= monitor_fiq_fast(id == DEBUG_UART_INTID);
#if FIQMON_CONSOLE_SHARED
    if (debug_uart_break) { /* behind the bytes just consumed; the rest waits in the UART */
        debug_uart_break = false;
        monitor_console_break();
    }
#endif
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

#if FIQMON_HYP
struct pl011_access_counts virt_console_counts;
struct spinlock virt_console_lock; /* the kernel's console, reached from every CPU */
#endif

/* SMC from the Normal world: function ids FIQMON_SMC_BASE + FIQMON_SVC_*. Anything else
 * answers "not supported" (-1), as the SMC calling convention asks. */
uint32_t platform_smc(uint32_t fid, uint32_t a1, uint32_t a2, uint32_t a3);

uint32_t platform_smc(uint32_t fid, uint32_t a1, uint32_t a2, uint32_t a3)
{
    int need_full;
    uint32_t response;

#if FIQMON_HYP
    if (fid == HYP_SMC_MMIO_READ || fid == HYP_SMC_MMIO_WRITE) {
        uint32_t spsr;
        __asm__ volatile("mrs %0, spsr" : "=r"(spsr));
        /* only the shim may: the kernel itself gets "not supported" */
        if ((spsr & ARM_MODE_MASK) != ARM_MODE_HYP || (a2 != 1 && a2 != 2 && a2 != 4))
            return FIQMON_SVC_UNKNOWN;
        spin_lock(&virt_console_lock);
        pl011_access_count(&virt_console_counts, fid == HYP_SMC_MMIO_WRITE, a1);
        uint32_t value = virt_emulated_access(fid == HYP_SMC_MMIO_WRITE, a1, a2, a3);
        spin_unlock(&virt_console_lock);
        return value;
    }
    if (fid == HYP_SMC_DEBUG_EVENT) {
        uint32_t spsr;
        __asm__ volatile("mrs %0, spsr" : "=r"(spsr));
        if ((spsr & ARM_MODE_MASK) != ARM_MODE_HYP)
            return FIQMON_SVC_UNKNOWN; /* the shim's call, never the kernel's */
        return virt_debug_event(a1, a2, a3);
    }
#endif
#if FIQMON_SMP > 1
    if (psci_is_call(fid))
        return virt_smp_smc(fid, a1, a2, a3);
    if (virt_cpu_index() != 0) /* fiqmon's own service calls: CPU 0's (docs/every-core.md) */
        return FIQMON_SVC_UNKNOWN;
#endif
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
