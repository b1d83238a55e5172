/* SPDX-License-Identifier: MIT */
/* What the Normal world's console did through the Hyp shim, counted by fiqmon per register:
 * the kernel's polled console reads FR and writes DR once per byte, so these say where the
 * traps go (the `hyp` command; docs/one-wire.md, docs/benchmarks.md). Portable C. */
#ifndef FIQMON_PL011_ACCESS_COUNTS_H
#define FIQMON_PL011_ACCESS_COUNTS_H

#include <stdbool.h>
#include <stdint.h>

#include "pl011_model.h"

struct pl011_access_counts {
    uint32_t fr_reads, dr_writes, dr_reads; /* the polled console's registers */
    uint32_t other_reads, other_writes;     /* CR, IMSC, ICR, MIS, the IDs... */
    uint32_t irqs_raised;                   /* the model's interrupt output set pending */
};

static inline void pl011_access_count(struct pl011_access_counts *c, bool write,
                                      uint32_t offset)
{
    uint32_t reg = offset & 0xffcu;

    if (reg == PL011M_DR)
        (*(write ? &c->dr_writes : &c->dr_reads))++;
    else if (reg == PL011M_FR && !write)
        c->fr_reads++;
    else
        (*(write ? &c->other_writes : &c->other_reads))++;
}

static inline uint32_t pl011_access_total(const struct pl011_access_counts *c)
{
    return c->fr_reads + c->dr_writes + c->dr_reads + c->other_reads + c->other_writes;
}

#endif
