/* SPDX-License-Identifier: MIT */
/* What the virt64 platform's files share. */
#ifndef FIQMON_VIRT64_H
#define FIQMON_VIRT64_H

#include <stdint.h>

/* FIQs fiqmon took from INTID id (< FIQ_COUNTED_LINES), the noise path's included. */
uint32_t virt64_fiq_count(unsigned id);
/* This CPU's GICv3 redistributor. */
extern uintptr_t virt64_gicr;

#endif
