/* SPDX-License-Identifier: MIT */
/* smpidle: every CPU on and idle in WFI (virt, SMP). The roundup bench (scripts/
 * bench_roundup.py) stops and releases them under an instruction trace: idle CPUs log
 * nothing but fiqmon's own instructions. */
#include "console.h"
#include "smc.h"

#define MAX_CPUS 8u

void secondary_entry(void);
void secondary_main(uint32_t cpu);

void secondary_main(uint32_t cpu)
{
    (void)cpu; /* back to smp_start.S's WFI loop */
}

int main(void)
{
    uint32_t cpus = 1;

    for (; cpus < MAX_CPUS; cpus++)
        if (psci(PSCI_CPU_ON, cpus, (uint32_t)secondary_entry, cpus) != PSCI_SUCCESS)
            break;
    puts_("guest smpidle: cpus ");
    putdec(cpus);
    puts_("\n");
    return 0; /* start.S's WFI loop */
}
