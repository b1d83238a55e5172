/* SPDX-License-Identifier: MIT */
/* SMC32 calls from the Normal world (SMC calling convention: function id in r0, arguments
 * in r1-r3, result in r0) and the PSCI 1.0 function ids and return codes the SMP guests
 * use. The numbers are the PSCI specification's (ARM DEN 0022), written out here rather
 * than taken from fiqmon's monitor/psci/psci.h: the guests check fiqmon against them. */
#ifndef GUEST_VIRT_SMC_H
#define GUEST_VIRT_SMC_H

#include <stdint.h>

#define PSCI_VERSION            0x84000000u
#define PSCI_CPU_SUSPEND        0x84000001u
#define PSCI_CPU_OFF            0x84000002u
#define PSCI_CPU_ON             0x84000003u
#define PSCI_AFFINITY_INFO      0x84000004u
#define PSCI_MIGRATE            0x84000005u
#define PSCI_MIGRATE_INFO_TYPE  0x84000006u
#define PSCI_MIGRATE_INFO_UP_CPU 0x84000007u
#define PSCI_SYSTEM_OFF         0x84000008u
#define PSCI_SYSTEM_RESET       0x84000009u
#define PSCI_FEATURES           0x8400000au

#define PSCI_SUCCESS            0
#define PSCI_NOT_SUPPORTED      (-1)
#define PSCI_INVALID_PARAMETERS (-2)
#define PSCI_ALREADY_ON         (-4)
#define PSCI_ON_PENDING         (-5)
#define PSCI_INVALID_ADDRESS    (-9)

/* r0-r3 after the call. */
struct smc_regs {
    uint32_t r[4];
};

static inline struct smc_regs smc4(uint32_t fid, uint32_t a1, uint32_t a2, uint32_t a3)
{
    register uint32_t r0 __asm__("r0") = fid;
    register uint32_t r1 __asm__("r1") = a1;
    register uint32_t r2 __asm__("r2") = a2;
    register uint32_t r3 __asm__("r3") = a3;

    __asm__ volatile(".arch_extension sec\n\tsmc #0"
                     : "+r"(r0), "+r"(r1), "+r"(r2), "+r"(r3)
                     :
                     : "memory");
    return (struct smc_regs){{r0, r1, r2, r3}};
}

static inline int32_t psci(uint32_t fid, uint32_t a1, uint32_t a2, uint32_t a3)
{
    return (int32_t)smc4(fid, a1, a2, a3).r[0];
}

static inline uint32_t cpu_index(void)
{
    uint32_t mpidr;

    __asm__ volatile("mrc p15, 0, %0, c0, c0, 5" : "=r"(mpidr));
    return mpidr & 0xffu;
}

#endif
