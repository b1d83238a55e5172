/* SPDX-License-Identifier: MIT */
#include "psci.h"

struct psci psci;

void psci_init(unsigned cpus, unsigned boot_cpu, uint64_t ram_base, uint64_t ram_size,
               const struct psci_ops *ops)
{
    psci.cpus = cpus < PSCI_MAX_CPUS ? cpus : PSCI_MAX_CPUS;
    psci.boot_cpu = boot_cpu;
    psci.ram_base = ram_base;
    psci.ram_size = ram_size;
    psci.ops = ops;
    for (unsigned i = 0; i < PSCI_MAX_CPUS; i++)
        psci.cpu[i].state = i == boot_cpu ? PSCI_ON : PSCI_OFF;
}

/* The CPU index a target MPIDR names (affinity level 0 only), or -1. */
static int target_cpu(uint64_t mpidr)
{
    return (mpidr & ~0xffu) == 0 && mpidr < psci.cpus ? (int)mpidr : -1;
}

static int32_t cpu_on(uint64_t target, uint64_t entry, uint64_t context)
{
    int t = target_cpu(target);
    uint32_t expected = PSCI_OFF;
    struct psci_cpu *c;

    if (t < 0)
        return PSCI_INVALID_PARAMETERS;
    if (entry - psci.ram_base >= psci.ram_size)
        return PSCI_INVALID_ADDRESS;
    c = &psci.cpu[t];
    /* two CPUs may race to turn the same one on: exactly one wins OFF -> CLAIMED */
    if (!__atomic_compare_exchange_n(&c->state, &expected, PSCI_CLAIMED, false,
                                     __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        return expected == PSCI_ON ? PSCI_ALREADY_ON : PSCI_ON_PENDING;
    c->entry = entry;
    c->context = context;
    __atomic_store_n(&c->state, PSCI_PENDING, __ATOMIC_RELEASE);
    psci.ops->wake((unsigned)t);
    return PSCI_SUCCESS;
}

bool psci_take_on(unsigned cpu, uint64_t *entry, uint64_t *context)
{
    struct psci_cpu *c = &psci.cpu[cpu];

    if (__atomic_load_n(&c->state, __ATOMIC_ACQUIRE) != PSCI_PENDING)
        return false;
    *entry = c->entry;
    *context = c->context;
    __atomic_store_n(&c->state, PSCI_ON, __ATOMIC_RELEASE);
    return true;
}

static int32_t affinity_info(uint64_t target, uint64_t level)
{
    int t = target_cpu(target);
    uint32_t s;

    if (t < 0 || level != 0)
        return PSCI_INVALID_PARAMETERS;
    s = psci.cpu[t].state;
    return s == PSCI_ON ? 0 : s == PSCI_OFF ? 1 : 2; /* ON, OFF, ON_PENDING */
}

static bool implemented(uint32_t fid)
{
    switch (fid) {
    case PSCI_VERSION: case PSCI_CPU_SUSPEND: case PSCI_CPU_OFF: case PSCI_CPU_ON:
    case PSCI_AFFINITY_INFO: case PSCI_MIGRATE_INFO_TYPE: case PSCI_SYSTEM_OFF:
    case PSCI_SYSTEM_RESET: case PSCI_FEATURES:
        return true;
    default:
        return false;
    }
}

/* The calls whose SMC64 form fiqmon takes (the ones with an address or an MPIDR). */
static bool has_smc64(uint32_t fid)
{
    return fid == PSCI_CPU_SUSPEND || fid == PSCI_CPU_ON || fid == PSCI_AFFINITY_INFO;
}

int32_t psci_call(unsigned cpu, uint32_t fid, uint64_t a1, uint64_t a2, uint64_t a3)
{
    if (fid & PSCI_FID_SMC64) {
        fid &= ~PSCI_FID_SMC64;
        if (!psci.ops->smc64 || !has_smc64(fid))
            return PSCI_NOT_SUPPORTED;
    } else { /* SMC32: the upper halves are not the caller's */
        a1 = (uint32_t)a1;
        a2 = (uint32_t)a2;
        a3 = (uint32_t)a3;
    }
    switch (fid) {
    case PSCI_VERSION:
        return (int32_t)PSCI_VERSION_1_0;
    case PSCI_FEATURES: /* CPU_SUSPEND: 0 = the original power_state format, no OSI */
        return implemented((uint32_t)a1 & ~PSCI_FID_SMC64) &&
                       (!(a1 & PSCI_FID_SMC64) ||
                        (psci.ops->smc64 && has_smc64((uint32_t)a1 & ~PSCI_FID_SMC64)))
                   ? PSCI_SUCCESS
                   : PSCI_NOT_SUPPORTED;
    case PSCI_CPU_ON:
        return cpu_on(a1, a2, a3);
    case PSCI_CPU_OFF:
        /* the debug port's FIQ and the watchdog are the boot CPU's: parked, the debugger
         * would be gone until some other CPU turned it on again */
        if (cpu == psci.boot_cpu)
            return PSCI_DENIED;
        __atomic_store_n(&psci.cpu[cpu].state, PSCI_OFF, __ATOMIC_RELEASE);
        psci.ops->cpu_off(cpu);
        return PSCI_DENIED; /* not reached */
    case PSCI_CPU_SUSPEND:
        /* standby (StateType 0) of this core (power level 0) only */
        if (a1 & ((1u << 16) | (3u << 24)))
            return PSCI_INVALID_PARAMETERS;
        psci.ops->standby();
        return PSCI_SUCCESS;
    case PSCI_AFFINITY_INFO:
        return affinity_info(a1, a2);
    case PSCI_MIGRATE_INFO_TYPE:
        return PSCI_TOS_NOT_PRESENT_MP;
    case PSCI_SYSTEM_OFF:
        psci.ops->system_off();
        return PSCI_DENIED;
    case PSCI_SYSTEM_RESET:
        psci.ops->system_reset();
        return PSCI_DENIED;
    default:
        (void)a3;
        return PSCI_NOT_SUPPORTED;
    }
}
