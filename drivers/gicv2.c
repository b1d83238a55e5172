/* SPDX-License-Identifier: MIT */
#include "gicv2.h"

static uintptr_t bit_reg(uintptr_t dist, uintptr_t reg, unsigned intid)
{
    return dist + reg + 4u * (intid / 32u);
}

static uint32_t bit(unsigned intid)
{
    return 1u << (intid % 32u);
}

static void write_byte_field(uintptr_t dist, uintptr_t reg, unsigned intid, uint8_t value)
{
    uintptr_t addr = dist + reg + (intid & ~3u);
    unsigned shift = 8u * (intid & 3u);

    mmio_clrsetbits_32(addr, 0xffu << shift, (uint32_t)value << shift);
}

static uint8_t read_byte_field(uintptr_t dist, uintptr_t reg, unsigned intid)
{
    return (uint8_t)(mmio_read_32(dist + reg + (intid & ~3u)) >> (8u * (intid & 3u)));
}

unsigned gicv2_lines(uintptr_t dist)
{
    unsigned n = 32u * ((mmio_read_32(dist + GICD_TYPER) & 0x1fu) + 1u);

    return n > 1020u ? 1020u : n;
}

void gicv2_dist_init_all_group1(uintptr_t dist)
{
    unsigned lines = gicv2_lines(dist);

    mmio_write_32(dist + GICD_CTLR, 0);
    for (unsigned i = GIC_SPI_BASE; i < lines; i += 32)
        mmio_write_32(bit_reg(dist, GICD_IGROUPR, i), ~0u);
    mmio_write_32(dist + GICD_CTLR, GICD_CTLR_ENABLE_GRP0 | GICD_CTLR_ENABLE_GRP1);
}

void gicv2_cpu_init_secure(uintptr_t dist, uintptr_t cpu)
{
    mmio_write_32(dist + GICD_IGROUPR, ~0u); /* banked SGIs and PPIs: the Normal world's */
    mmio_write_32(cpu + GICC_PMR, 0xff);
    mmio_write_32(cpu + GICC_CTLR,
                  GICC_CTLR_ENABLE_GRP0 | GICC_CTLR_ENABLE_GRP1 | GICC_CTLR_FIQ_EN);
}

void gicv2_make_secure_fiq(uintptr_t dist, unsigned intid, uint8_t priority, uint8_t cpu_mask)
{
    mmio_write_32(bit_reg(dist, GICD_ICENABLER, intid), bit(intid));
    mmio_clrsetbits_32(bit_reg(dist, GICD_IGROUPR, intid), bit(intid), 0);
    write_byte_field(dist, GICD_IPRIORITYR, intid, priority);
    if (intid >= GIC_SPI_BASE)
        write_byte_field(dist, GICD_ITARGETSR, intid, cpu_mask);
    mmio_write_32(bit_reg(dist, GICD_ISENABLER, intid), bit(intid));
}

void gicv2_disable(uintptr_t dist, unsigned intid)
{
    mmio_write_32(bit_reg(dist, GICD_ICENABLER, intid), bit(intid));
}

void gicv2_set_pending(uintptr_t dist, unsigned intid, bool pending)
{
    mmio_write_32(bit_reg(dist, pending ? GICD_ISPENDR : GICD_ICPENDR, intid), bit(intid));
}

void gicv2_read_line(uintptr_t dist, unsigned intid, struct gicv2_line *out)
{
    uint32_t b = bit(intid);

    out->pending = (mmio_read_32(bit_reg(dist, GICD_ISPENDR, intid)) & b) != 0;
    out->active = (mmio_read_32(bit_reg(dist, GICD_ISACTIVER, intid)) & b) != 0;
    out->enabled = (mmio_read_32(bit_reg(dist, GICD_ISENABLER, intid)) & b) != 0;
    out->group1 = (mmio_read_32(bit_reg(dist, GICD_IGROUPR, intid)) & b) != 0;
    out->priority = read_byte_field(dist, GICD_IPRIORITYR, intid);
    out->targets = read_byte_field(dist, GICD_ITARGETSR, intid);
}

void gicv2_sgi_to_self(uintptr_t dist, unsigned sgi)
{
    mmio_write_32(dist + GICD_SGIR, GICD_SGIR_TO_SELF | (sgi & 0xfu));
}
