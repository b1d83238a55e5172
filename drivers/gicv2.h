/* SPDX-License-Identifier: MIT */
/* ARM Generic Interrupt Controller v2 (IHI0048B): distributor and CPU interface.
 * With the Security Extensions, group 0 is Secure (signalled as FIQ when GICC_CTLR.FIQEn)
 * and the Normal world sees group 0 registers as RAZ/WI: that is what isolates fiqmon. */
#ifndef FIQMON_GICV2_H
#define FIQMON_GICV2_H

#define GICD_CTLR       0x000   /* bit 0 EnableGrp0, bit 1 EnableGrp1 (Secure view) */
#define GICD_TYPER      0x004   /* ITLinesNumber in bits 4:0: 32 * (N + 1) interrupts */
#define GICD_IGROUPR    0x080   /* 1 bit per interrupt: 0 = group 0 (Secure), 1 = group 1 */
#define GICD_ISENABLER  0x100
#define GICD_ICENABLER  0x180
#define GICD_ISPENDR    0x200
#define GICD_ICPENDR    0x280
#define GICD_ISACTIVER  0x300
#define GICD_IPRIORITYR 0x400   /* 1 byte per interrupt; 0 = highest */
#define GICD_ITARGETSR  0x800   /* 1 byte per interrupt: CPU mask */
#define GICD_ICFGR      0xc00
#define GICD_SGIR       0xf00   /* software-generated interrupts */

#define GICD_CTLR_ENABLE_GRP0   (1u << 0)
#define GICD_CTLR_ENABLE_GRP1   (1u << 1)
#define GICD_SGIR_TO_SELF       (2u << 24)  /* TargetListFilter: only the requesting CPU */
#define GICD_SGIR_NSATT         (1u << 15)  /* 1: forward only if the SGI is group 1 */

#define GICC_CTLR       0x000   /* Secure view: EnableGrp0, EnableGrp1, AckCtl, FIQEn */
#define GICC_PMR        0x004   /* priority mask: 0xff lets everything through */
#define GICC_BPR        0x008
#define GICC_IAR        0x00c   /* acknowledge: INTID in bits 9:0 */
#define GICC_EOIR       0x010
#define GICC_HPPIR      0x018

#define GICC_CTLR_ENABLE_GRP0   (1u << 0)
#define GICC_CTLR_ENABLE_GRP1   (1u << 1)
#define GICC_CTLR_FIQ_EN        (1u << 3)   /* group 0 as FIQ */

#define GIC_INTID_MASK      0x3ffu
#define GIC_INTID_SPURIOUS  1023u
#define GIC_SPI_BASE        32u     /* SPI n is INTID 32 + n */

#ifndef __ASSEMBLER__
#include <stdbool.h>
#include <stdint.h>

#include "mmio.h"

struct gicv2_config {
    uintptr_t dist_base, cpu_base;
};

struct gicv2_line {
    bool pending, active, enabled, group1;
    uint8_t priority, targets;
};

unsigned gicv2_lines(uintptr_t dist);
/* Secure init: every interrupt group 1 (the Normal world's), distributor on for both groups. */
void gicv2_dist_init_all_group1(uintptr_t dist);
/* Per-CPU: banked SGI/PPI groups, CPU interface with group 0 as FIQ. */
void gicv2_cpu_init_secure(uintptr_t dist, uintptr_t cpu);
/* A group 0 (Secure, FIQ) interrupt at the given priority, targeted at cpu_mask, enabled. */
void gicv2_make_secure_fiq(uintptr_t dist, unsigned intid, uint8_t priority, uint8_t cpu_mask);
/* Disable one interrupt (the group stays as it is). */
void gicv2_disable(uintptr_t dist, unsigned intid);
/* Make an interrupt pending, or not, from software (an emulated device's output line). */
void gicv2_set_pending(uintptr_t dist, unsigned intid, bool pending);
void gicv2_read_line(uintptr_t dist, unsigned intid, struct gicv2_line *out);
/* Raise a software-generated interrupt on this CPU (group 0 if it is configured so). */
void gicv2_sgi_to_self(uintptr_t dist, unsigned sgi);

/* Inline: on every FIQ. */
static inline uint32_t gicv2_ack(uintptr_t cpu)
{
    return mmio_read_32(cpu + GICC_IAR);
}

/* SGIs and PPIs (INTIDs 0-31, banked per CPU) that are both pending and enabled. */
static inline uint32_t gicv2_private_pending_enabled(uintptr_t dist)
{
    return mmio_read_32(dist + GICD_ISPENDR) & mmio_read_32(dist + GICD_ISENABLER);
}

/* This CPU's banked SGIs and PPIs (INTIDs 0-31), a bit each. */
static inline void gicv2_read_private(uintptr_t dist, uint32_t *group0, uint32_t *enabled,
                                      uint32_t *pending)
{
    *group0 = ~mmio_read_32(dist + GICD_IGROUPR);
    *enabled = mmio_read_32(dist + GICD_ISENABLER);
    *pending = mmio_read_32(dist + GICD_ISPENDR);
}

static inline void gicv2_eoi(uintptr_t cpu, uint32_t iar)
{
    mmio_write_32(cpu + GICC_EOIR, iar);
}
#endif

#endif
