/* SPDX-License-Identifier: MIT */
/* The FIQ's C path (every FIQ the noise path, fiq_noise.S, does not finish alone) and the
 * SMC service call, at EL3. */
#include "aarch64_el3_trap.h"
#include "cpu_frame.h"
#include "gicv3.h"
#include "monitor.h"
#include "noise_gate.h"
#include "pl011_debug_port.h"
#include "platform.h"
#include "platform_def.h"
#include "psci.h"
#include "service.h"
#include "virt64.h"

static uint32_t gic_fiq_counts[FIQ_COUNTED_LINES]; /* FIQs the C path took, per INTID */
_Static_assert(DEBUG_UART_INTID < FIQ_COUNTED_LINES, "the debug port's FIQs are counted");
static uint32_t other_fiqs;

int platform_fiq_fast(uint32_t iar, uint32_t first)
{
    uint32_t id = iar & GIC_INTID_MASK;
    int need_full;

#if FIQMON_SMP > 1
    if (virt64_cpu_index() != 0) /* the monitor and its port are CPU 0's */
        return virt64_smp_fiq(iar);
#endif
    need_full = 0;
    if (id < FIQ_COUNTED_LINES)
        gic_fiq_counts[id]++;
    else
        other_fiqs++;
#if FIQMON_WATCHDOG
    if (id == WATCHDOG_TIMER_INTID && virt64_watchdog_tick()) {
        monitor_request_lockup_report();
        need_full = 1;
    }
#endif
    if (!debug_uart_drain_fiq(first)) /* no byte: is something else asserting? */
        debug_uart_silence_others();
    need_full |= monitor_fiq_fast(id == DEBUG_UART_INTID);
    if (id != GIC_INTID_SPURIOUS)
        gicv3_eoi_group0(iar);
    return need_full;
}

uint32_t virt64_fiq_count(unsigned id)
{
    /* the noise path counts the FIQs it finishes alone, all the debug port's */
    return gic_fiq_counts[id] + (id == DEBUG_UART_INTID ? noise_gate.fiqs : 0);
}

uint32_t port_fiqs_taken(void)
{
    uint32_t n = other_fiqs;

    for (unsigned i = 0; i < FIQ_COUNTED_LINES; i++)
        n += virt64_fiq_count(i);
    return n;
}

/* A trap from the kernel to EL3, not an SMC (its Group 0 GIC register accesses):
 * answered as aarch64_el3_trap.h says, past the instruction, counted. */
uint32_t virt64_lower_traps;

void platform_lower_trap(uint64_t esr, struct cpu_frame *f);

void platform_lower_trap(uint64_t esr, struct cpu_frame *f)
{
    struct el3_trap_answer a = el3_trap_answer(esr);

    virt64_lower_traps++;
    if (a.write_rt)
        f->x[a.rt] = a.value;
    f->pc += 4; /* every trap taken here is of a 32-bit instruction */
}

/* SMC from the Normal world: function ids FIQMON_SMC_BASE + FIQMON_SVC_* (SMC32, fiqmon's
 * SiP range). Anything else answers "not supported" (-1), as the SMC calling convention
 * asks. */
int64_t platform_smc(uint32_t fid, uint64_t a1, uint64_t a2, uint64_t a3);

int64_t platform_smc(uint32_t fid, uint64_t a1, uint64_t a2, uint64_t a3)
{
    int need_full;
    uint32_t response;

#if FIQMON_SMP > 1
    if (psci_is_call(fid))
        return (int64_t)virt64_smp_smc(fid, a1, a2, a3);
    if (virt64_cpu_index() != 0) /* fiqmon's own service calls: CPU 0's */
        return -1;
#endif
    (void)a1;
    (void)a2;
    (void)a3;
    if (fid - FIQMON_SMC_BASE - 1u >= FIQMON_SVC_ENTER)
        return -1;
    response = monitor_service(fid - FIQMON_SMC_BASE, &need_full);
    if (need_full)
        platform_raise_service_fiq(); /* taken as soon as the SMC returns */
    return (int32_t)response;
}
