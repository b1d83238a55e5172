/* SPDX-License-Identifier: MIT */
/* The FIQ's C path (every FIQ the noise path, fiq_noise.S, does not finish alone) and the
 * SMC service call, at EL3. */
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

/* A trap from the kernel to EL3, not an SMC: with SCR_EL3.FIQ set, the Normal world's
 * accesses to the GIC CPU interface's Group 0 registers (ICC_IAR0_EL1, ICC_IGRPEN0_EL1 ...)
 * come here. Group 0 is fiqmon's: reads as 0 (IAR0 and HPPIR0 as 1023, spurious, so a
 * confused kernel never acknowledges a phantom INTID), writes ignored. Anything else EL3
 * was not asked to trap is skipped alike; each is counted. */
#define ESR_EC_SYSREG 0x18
#define ESR_SYSREG_READ 1u
#define ESR_SYSREG_RT(esr) (((esr) >> 5) & 31u)
/* Op0, Op2, Op1, CRn, CRm of the access (the ISS without Rt and the direction) */
#define ESR_SYSREG_ID(esr) ((esr) & 0x3ffc1eu)
#define SYSREG_ID(op0, op1, crn, crm, op2)                                                         \
    ((uint64_t)(op0) << 20 | (uint64_t)(op2) << 17 | (uint64_t)(op1) << 14 | (uint64_t)(crn) << 10 | \
     (uint64_t)(crm) << 1)

uint32_t virt64_lower_traps;

void platform_lower_trap(uint64_t esr, struct cpu_frame *f);

void platform_lower_trap(uint64_t esr, struct cpu_frame *f)
{
    unsigned rt = ESR_SYSREG_RT(esr);

    virt64_lower_traps++;
    if (esr >> 26 == ESR_EC_SYSREG && (esr & ESR_SYSREG_READ) && rt != 31) {
        uint64_t id = ESR_SYSREG_ID(esr);
        bool ack = id == SYSREG_ID(3, 0, 12, 8, 0) || id == SYSREG_ID(3, 0, 12, 8, 2);
        f->x[rt] = ack ? GIC_INTID_SPURIOUS : 0;
    }
    f->pc += 4; /* past the instruction: every trap here is a 32-bit one */
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
