/* SPDX-License-Identifier: MIT */
/* Shared between the virt platform's files. */
#ifndef FIQMON_VIRT_H
#define FIQMON_VIRT_H

#include <stdint.h>

#define FIQ_COUNTED_LINES 64u /* per-INTID FIQ counts for SGIs, PPIs and the first SPIs */
/* FIQs fiqmon took with this INTID (< FIQ_COUNTED_LINES). */
uint32_t gic_fiq_count(unsigned id);

/* The watchdog's timer FIQ: re-arm it and take a sample. True when a report is due. */
int virt_watchdog_tick(void);

/* The Normal world's CP15 state, read when the monitor is entered. */
struct ns_sysregs {
    uint32_t sctlr, ttbr0, ttbr1, ttbcr, dacr, contextidr, dfsr, dfar, ifsr, ifar, vbar;
};
extern struct ns_sysregs ns_sysregs;

#endif
