/* SPDX-License-Identifier: MIT */
/* GICv3 set up by the Secure firmware (EL3): fiqmon's lines are Group 0 (delivered as FIQ,
 * to EL3 while SCR_EL3.FIQ is set), everything else Non-secure Group 1, the kernel's. */
#include "gicv3.h"

#include "mmio.h"

#define STR(x) #x
#define XSTR(x) STR(x)
#define ICC_WRITE(reg, v) __asm__ volatile("msr " XSTR(reg) ", %0\n\tisb" : : "r"((uint64_t)(v)) : "memory")
#define ICC_READ(reg, v) __asm__ volatile("mrs %0, " XSTR(reg) : "=r"(v) : : "memory")

static void dist_wait_rwp(uintptr_t gicd)
{
    for (unsigned i = 0; i < 1000000 && (mmio_read_32(gicd + GICD_CTLR) & GICD_CTLR_RWP); i++) {
    }
}

unsigned gicv3_lines(uintptr_t gicd)
{
    unsigned n = 32 * ((mmio_read_32(gicd + GICD_TYPER) & 0x1f) + 1);

    return n > 1020 ? 1020 : n;
}

void gicv3_dist_init(uintptr_t gicd)
{
    unsigned lines = gicv3_lines(gicd);

    mmio_write_32(gicd + GICD_CTLR, GICD_CTLR_ARE_S | GICD_CTLR_ARE_NS);
    dist_wait_rwp(gicd);
    for (unsigned i = 1; i < lines / 32; i++) {
        mmio_write_32(gicd + GICD_IGROUPR + 4 * i, 0xffffffffu);
        mmio_write_32(gicd + GICD_IGRPMODR + 4 * i, 0);
    }
    mmio_write_32(gicd + GICD_CTLR, GICD_CTLR_ARE_S | GICD_CTLR_ARE_NS | GICD_CTLR_ENABLE_G0 |
                                        GICD_CTLR_ENABLE_G1NS | GICD_CTLR_ENABLE_G1S);
    dist_wait_rwp(gicd);
}

uintptr_t gicv3_cpu_init(uintptr_t gicr_first, uint64_t mpidr)
{
    uint32_t affinity = (uint32_t)(mpidr & 0xffffff) | (uint32_t)((mpidr >> 32 & 0xff) << 24);
    uintptr_t gicr = gicr_first;

    for (unsigned i = 0; i < 64; i++, gicr += GICR_STRIDE) {
        uint64_t typer = mmio_read_32(gicr + GICR_TYPER) |
                         (uint64_t)mmio_read_32(gicr + GICR_TYPER + 4) << 32;
        if ((uint32_t)(typer >> 32) == affinity)
            break;
        if (typer & GICR_TYPER_LAST)
            return 0;
    }
    mmio_clrsetbits_32(gicr + GICR_WAKER, GICR_WAKER_PROCESSOR_SLEEP, 0);
    for (unsigned i = 0; i < 1000000 && (mmio_read_32(gicr + GICR_WAKER) & GICR_WAKER_CHILDREN_ASLEEP);
         i++) {
    }
    mmio_write_32(gicr + GICR_IGROUPR0, 0xffffffffu);
    mmio_write_32(gicr + GICR_IGRPMODR0, 0);

    /* the system-register interface for EL3 and, enabled, for the lower ELs to set up */
    ICC_WRITE(ICC_SRE_EL3, ICC_SRE_ENABLE_ALL);
    ICC_WRITE(ICC_SRE_EL2, ICC_SRE_ENABLE_ALL);
    ICC_WRITE(ICC_SRE_EL1, 0x7); /* (the Secure copy: SCR_EL3.NS is 0 here) */
    ICC_WRITE(ICC_PMR_EL1, 0xff);
    ICC_WRITE(ICC_IGRPEN0_EL1, 1);
    return gicr;
}

static void set_priority(uintptr_t reg_base, unsigned intid, uint8_t prio)
{
    mmio_write_8(reg_base + intid, prio);
}

void gicv3_make_spi_fiq(uintptr_t gicd, unsigned intid, uint8_t prio)
{
    uint32_t bit = 1u << (intid % 32);

    mmio_clrsetbits_32(gicd + GICD_IGROUPR + 4 * (intid / 32), bit, 0);
    mmio_clrsetbits_32(gicd + GICD_IGRPMODR + 4 * (intid / 32), bit, 0);
    set_priority(gicd + GICD_IPRIORITYR, intid, prio);
    mmio_write_32(gicd + GICD_IROUTER + 8 * intid, 0);
    mmio_write_32(gicd + GICD_IROUTER + 8 * intid + 4, 0);
    mmio_write_32(gicd + GICD_ISENABLER + 4 * (intid / 32), bit);
    dist_wait_rwp(gicd);
}

void gicv3_make_private_fiq(uintptr_t gicr, unsigned intid, uint8_t prio)
{
    uint32_t bit = 1u << intid;

    mmio_clrsetbits_32(gicr + GICR_IGROUPR0, bit, 0);
    mmio_clrsetbits_32(gicr + GICR_IGRPMODR0, bit, 0);
    set_priority(gicr + GICR_IPRIORITYR, intid, prio);
    mmio_write_32(gicr + GICR_ISENABLER0, bit);
}

void gicv3_sgi0_to_self(unsigned intid, uint64_t mpidr)
{
    /* ICC_SGI0R_EL1: INTID, Aff3.Aff2.Aff1 of the target, and a target list of Aff0 */
    uint64_t v = (uint64_t)(intid & 0xf) << 24 | ((mpidr >> 8) & 0xff) << 16 |
                 ((mpidr >> 16) & 0xff) << 32 | ((mpidr >> 32) & 0xff) << 48 |
                 (1u << (mpidr & 0xf));

    __asm__ volatile("dsb ishst" ::: "memory");
    ICC_WRITE(ICC_SGI0R_EL1, v);
}

void gicv3_sgi0_to_others(unsigned intid)
{
    __asm__ volatile("dsb ishst" ::: "memory");
    ICC_WRITE(ICC_SGI0R_EL1, (uint64_t)(intid & 0xf) << 24 | 1ull << 40); /* IRM: all but self */
}

void gicv3_sgi0_to_list(unsigned intid, uint32_t targets)
{
    __asm__ volatile("dsb ishst" ::: "memory");
    ICC_WRITE(ICC_SGI0R_EL1, (uint64_t)(intid & 0xf) << 24 | (targets & 0xffff));
}

void gicv3_read_private(uintptr_t gicr, struct gicv3_private *out)
{
    out->group0 = ~mmio_read_32(gicr + GICR_IGROUPR0);
    out->enabled = mmio_read_32(gicr + GICR_ISENABLER0);
    out->pending = mmio_read_32(gicr + GICR_ISPENDR0);
}

uint32_t gicv3_ack_group0(void)
{
    uint64_t v;

    ICC_READ(ICC_IAR0_EL1, v);
    return (uint32_t)v;
}

void gicv3_eoi_group0(uint32_t iar)
{
    ICC_WRITE(ICC_EOIR0_EL1, iar);
}

void gicv3_read_line(uintptr_t gicd, uintptr_t gicr, unsigned n, struct gicv3_line *out)
{
    uint32_t bit = 1u << (n % 32);
    uintptr_t grp = n < 32 ? gicr + GICR_IGROUPR0 : gicd + GICD_IGROUPR + 4 * (n / 32);
    uintptr_t en = n < 32 ? gicr + GICR_ISENABLER0 : gicd + GICD_ISENABLER + 4 * (n / 32);
    uintptr_t pend = n < 32 ? gicr + GICR_ISPENDR0 : gicd + GICD_ISPENDR + 4 * (n / 32);

    out->group1 = mmio_read_32(grp) & bit;
    out->enabled = mmio_read_32(en) & bit;
    out->pending = mmio_read_32(pend) & bit;
}
