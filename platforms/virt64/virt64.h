/* SPDX-License-Identifier: MIT */
/* What the virt64 platform's files share. */
#ifndef FIQMON_VIRT64_H
#define FIQMON_VIRT64_H

#include <stdint.h>

/* FIQs fiqmon took from INTID id (< FIQ_COUNTED_LINES), the noise path's included. */
uint32_t virt64_fiq_count(unsigned id);
/* CPU 0's GICv3 redistributor. */
extern uintptr_t virt64_gicr;

/* The watchdog's sample (watchdog_timer.c): nonzero when a lockup report is due. */
int virt64_watchdog_tick(void);

/* Every core (SMP > 1, smp.c) */
unsigned virt64_cpu_index(void);
void virt64_smp_init(void);
/* A FIQ on a CPU other than 0: nonzero when it must take the full path (the roundup). */
int virt64_smp_fiq(uint32_t iar);
/* PSCI over SMC, from any CPU. */
uint64_t virt64_smp_smc(uint32_t fid, uint64_t a1, uint64_t a2, uint64_t a3);

#endif
