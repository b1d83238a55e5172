/* SPDX-License-Identifier: MIT */
/* fiqmon as the PSCI firmware (Arm DEN 0022, PSCI 1.0 over SMC32 and, for an AArch64
 * kernel, the SMC64 calls that carry addresses: the SMC calling convention's r0-r3 /
 * x0-x3): which CPUs are on, off or on their way, and what each call does to that. Portable: the platform parks, wakes and powers CPUs through struct psci_ops, and
 * calls psci_call() from its SMC handler on the calling CPU. */
#ifndef FIQMON_PSCI_H
#define FIQMON_PSCI_H

#include <stdbool.h>
#include <stdint.h>

/* Function ids (SMC32) */
#define PSCI_VERSION            0x84000000u
#define PSCI_CPU_SUSPEND        0x84000001u
#define PSCI_CPU_OFF            0x84000002u
#define PSCI_CPU_ON             0x84000003u
#define PSCI_AFFINITY_INFO      0x84000004u
#define PSCI_MIGRATE_INFO_TYPE  0x84000006u
#define PSCI_SYSTEM_OFF         0x84000008u
#define PSCI_SYSTEM_RESET       0x84000009u
#define PSCI_FEATURES           0x8400000au
#define PSCI_FID_FIRST          0x84000000u /* the standard service's PSCI range */
#define PSCI_FID_LAST           0x8400001fu
/* SMC64: the same function with 64-bit arguments (CPU_SUSPEND, CPU_ON, AFFINITY_INFO) */
#define PSCI_FID_SMC64          0x40000000u

/* Return codes */
#define PSCI_SUCCESS            0
#define PSCI_NOT_SUPPORTED      (-1)
#define PSCI_INVALID_PARAMETERS (-2)
#define PSCI_DENIED             (-3)
#define PSCI_ALREADY_ON         (-4)
#define PSCI_ON_PENDING         (-5)
#define PSCI_INVALID_ADDRESS    (-9)

#define PSCI_VERSION_1_0        0x00010000u
#define PSCI_TOS_NOT_PRESENT_MP 2u    /* MIGRATE_INFO_TYPE: no Trusted OS to migrate */
#define PSCI_MAX_CPUS           8u

/* A CPU's state. OFF is 0 so a zeroed table has every CPU off. CLAIMED: a CPU_ON won the
 * race for it and is writing the entry point; PENDING: the entry point waits for it. */
enum psci_state { PSCI_OFF = 0, PSCI_CLAIMED, PSCI_PENDING, PSCI_ON };

struct psci_cpu {
    volatile uint32_t state;      /* enum psci_state */
    volatile uint64_t entry;      /* CPU_ON's entry point and context, for the target */
    volatile uint64_t context;
};

struct psci_ops {
    void (*wake)(unsigned cpu);           /* a CPU_ON is waiting for cpu (parked) */
    void (*standby)(void);                /* wait for an interrupt, then return */
    void (*cpu_off)(unsigned cpu);        /* park this CPU; never returns */
    void (*system_off)(void);             /* never return */
    void (*system_reset)(void);
    bool smc64; /* an AArch64 kernel: the SMC64 calls exist (AArch32 has SMC32 only) */
};

struct psci {
    unsigned cpus;                        /* CPUs 0..cpus-1, MPIDR affinity 0 = index */
    unsigned boot_cpu;                    /* the monitor's: CPU_OFF is DENIED there */
    uint64_t ram_base, ram_size;          /* where a CPU_ON entry point may be */
    const struct psci_ops *ops;
    struct psci_cpu cpu[PSCI_MAX_CPUS];
};

extern struct psci psci;

/* Every CPU off but the boot CPU. */
void psci_init(unsigned cpus, unsigned boot_cpu, uint64_t ram_base, uint64_t ram_size,
               const struct psci_ops *ops);

static inline bool psci_is_call(uint32_t fid)
{
    return (fid & ~PSCI_FID_SMC64) - PSCI_FID_FIRST <= PSCI_FID_LAST - PSCI_FID_FIRST;
}

/* One PSCI call on CPU cpu: r0's value to return (an SMC32 call's arguments are the low 32
 * bits of what the caller passes). CPU_OFF and the SYSTEM_* calls do not return when they
 * succeed. */
int32_t psci_call(unsigned cpu, uint32_t fid, uint64_t a1, uint64_t a2, uint64_t a3);

/* A parked CPU: if a CPU_ON is waiting for it, mark it on and give the entry point and
 * context (true); else false. */
bool psci_take_on(unsigned cpu, uint64_t *entry, uint64_t *context);

#endif
