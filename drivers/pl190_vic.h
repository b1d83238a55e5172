/* SPDX-License-Identifier: MIT */
/* ARM PrimeCell PL190 Vectored Interrupt Controller: register offsets (DDI0181). */
#ifndef FIQMON_PL190_VIC_H
#define FIQMON_PL190_VIC_H

#define VIC_IRQSTATUS       0x000   /* enabled, IRQ-routed, asserted */
#define VIC_FIQSTATUS       0x004   /* enabled, FIQ-routed, asserted */
#define VIC_RAWINTR         0x008   /* asserted before masking */
#define VIC_INTSELECT       0x00c   /* 1 = FIQ, 0 = IRQ */
#define VIC_INTENABLE       0x010   /* write 1 to enable; read: enabled lines */
#define VIC_INTENCLEAR      0x014   /* write 1 to disable */
#define VIC_SOFTINT         0x018   /* write 1 to raise a software interrupt */
#define VIC_SOFTINTCLEAR    0x01c   /* write 1 to clear it */
#define VIC_PROTECTION      0x020   /* 1 = registers privileged-only */

#define VIC_LINES           32

#ifndef __ASSEMBLER__
#include <stdbool.h>
#include <stdint.h>

struct vic_state {
    uint32_t raw;       /* RAWINTR */
    uint32_t enabled;   /* INTENABLE */
    uint32_t fiq_select;/* INTSELECT */
    uint32_t irq_status;
    uint32_t fiq_status;
    uint32_t soft;      /* SOFTINT */
};

#include "mmio.h"

void vic_route(uintptr_t base, unsigned line, bool to_fiq);
void vic_enable(uintptr_t base, unsigned line, bool enable);

/* Inline: read on every FIQ. */
static inline uint32_t vic_fiq_status(uintptr_t base)
{
    return mmio_read_32(base + VIC_FIQSTATUS);
}

static inline uint32_t vic_raw_status(uintptr_t base)
{
    return mmio_read_32(base + VIC_RAWINTR);
}
void vic_soft_raise(uintptr_t base, unsigned line, bool raise);
void vic_read_state(uintptr_t base, struct vic_state *st);
#endif

#endif
