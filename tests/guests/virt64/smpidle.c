/* SPDX-License-Identifier: MIT */
/* smpidle64: turns every other CPU on with PSCI (SMC64 CPU_ON) and leaves them all in WFI
 * with interrupts masked, so that once it has said how many CPUs run, only fiqmon executes
 * (the roundup bench, scripts/bench_roundup.py). */
#include <stdint.h>

#include "console.h"
#include "smc.h"

#define PSCI_CPU_ON64        0xc4000003u
#define PSCI_AFFINITY_INFO64 0xc4000004u
#define MAX_CPUS             8u

/* the other CPUs' entry: interrupts masked, WFI for ever (no stack needed) */
void smpidle_secondary(void);
__asm__(".section .text.smpidle_secondary, \"ax\", %progbits\n"
        ".global smpidle_secondary\n"
        "smpidle_secondary:\n"
        "    msr daifset, #0xf\n"
        "1:  wfi\n"
        "    b 1b\n");

static int64_t psci(uint32_t fid, uint64_t a1, uint64_t a2, uint64_t a3)
{
    uint64_t r[8] = {fid, a1, a2, a3, 0, 0, 0, 0};

    smc_call(r);
    return (int64_t)r[0];
}

int main(void);

int main(void)
{
    unsigned cpus = 1;

    for (unsigned cpu = 1; cpu < MAX_CPUS; cpu++) {
        if (psci(PSCI_CPU_ON64, cpu, (uint64_t)(uintptr_t)smpidle_secondary, 0) != 0)
            break; /* INVALID_PARAMETERS: no such CPU */
        while (psci(PSCI_AFFINITY_INFO64, cpu, 0, 0) != 0) /* until it is ON */
            ;
        cpus++;
    }
    con_puts("guest smpidle64: cpus ");
    con_dec(cpus);
    con_puts("\n");
    __asm__ volatile("msr daifset, #0xf");
    for (;;)
        __asm__ volatile("wfi");
}
