/* SPDX-License-Identifier: MIT */
/* Arm GICv3: distributor, redistributor and the system-register CPU interface, as the
 * Secure firmware sets them up (affinity routing on for both security states). Offsets from
 * the GICv3 architecture specification (IHI 0069). */
#ifndef FIQMON_GICV3_H
#define FIQMON_GICV3_H

#define GICD_CTLR           0x0000
#define GICD_TYPER          0x0004
#define GICD_IGROUPR        0x0080
#define GICD_ISENABLER      0x0100
#define GICD_ICENABLER      0x0180
#define GICD_ISPENDR        0x0200
#define GICD_IPRIORITYR     0x0400
#define GICD_ICFGR          0x0c00
#define GICD_IGRPMODR       0x0d00
#define GICD_IROUTER        0x6000

#define GICD_CTLR_ENABLE_G0     (1u << 0)
#define GICD_CTLR_ENABLE_G1NS   (1u << 1)
#define GICD_CTLR_ENABLE_G1S    (1u << 2)
#define GICD_CTLR_ARE_S         (1u << 4)
#define GICD_CTLR_ARE_NS        (1u << 5)
#define GICD_CTLR_RWP           (1u << 31)

/* each redistributor: RD_base, then SGI_base 64 KiB above it */
#define GICR_STRIDE         0x20000
#define GICR_CTLR           0x0000
#define GICR_TYPER          0x0008
#define GICR_WAKER          0x0014
#define GICR_SGI_BASE       0x10000
#define GICR_IGROUPR0       (GICR_SGI_BASE + 0x0080)
#define GICR_ISENABLER0     (GICR_SGI_BASE + 0x0100)
#define GICR_ICENABLER0     (GICR_SGI_BASE + 0x0180)
#define GICR_ISPENDR0       (GICR_SGI_BASE + 0x0200)
#define GICR_IPRIORITYR     (GICR_SGI_BASE + 0x0400)
#define GICR_IGRPMODR0      (GICR_SGI_BASE + 0x0d00)

#define GICR_WAKER_PROCESSOR_SLEEP  (1u << 1)
#define GICR_WAKER_CHILDREN_ASLEEP  (1u << 2)
#define GICR_TYPER_LAST             (1u << 4)

/* The CPU interface's registers, by encoding (any assembler takes these) */
#define ICC_IAR0_EL1        S3_0_C12_C8_0
#define ICC_EOIR0_EL1       S3_0_C12_C8_1
#define ICC_PMR_EL1         S3_0_C4_C6_0
#define ICC_SGI0R_EL1       S3_0_C12_C11_7
#define ICC_IGRPEN0_EL1     S3_0_C12_C12_6
#define ICC_SRE_EL1         S3_0_C12_C12_5
#define ICC_SRE_EL2         S3_4_C12_C9_5
#define ICC_SRE_EL3         S3_6_C12_C12_5
#define ICC_SRE_ENABLE_ALL  0xf     /* SRE, DFB, DIB, Enable (lower ELs may set theirs) */

#define GIC_INTID_MASK      0xffffff
#define GIC_INTID_SPURIOUS  1023
#define GIC_SPI_BASE        32

#ifndef __ASSEMBLER__
#include <stdbool.h>
#include <stdint.h>

/* Distributor: affinity routing, every SPI Non-secure Group 1 (the kernel's). */
void gicv3_dist_init(uintptr_t gicd);
/* This CPU's redistributor (found by its MPIDR affinity) awake, its SGIs and PPIs Non-secure
 * Group 1; the CPU interface's system registers on, Group 0 signalled. Returns the
 * redistributor's base, 0 if none matches. */
uintptr_t gicv3_cpu_init(uintptr_t gicr_first, uint64_t mpidr);
/* An SPI (INTID >= 32) as Group 0 (FIQ to EL3), priority prio, routed to affinity 0.0.0.0,
 * enabled. */
void gicv3_make_spi_fiq(uintptr_t gicd, unsigned intid, uint8_t prio);
/* A private interrupt (SGI or PPI, < 32) of the redistributor at gicr as Group 0. */
void gicv3_make_private_fiq(uintptr_t gicr, unsigned intid, uint8_t prio);
/* Raise Group 0 SGI intid on the calling CPU itself; on every other CPU; on the CPUs of
 * cluster 0 whose affinity 0 is in the bit list targets. */
void gicv3_sgi0_to_self(unsigned intid, uint64_t mpidr);
void gicv3_sgi0_to_others(unsigned intid);
void gicv3_sgi0_to_list(unsigned intid, uint32_t targets);
uint32_t gicv3_ack_group0(void);
void gicv3_eoi_group0(uint32_t iar);

struct gicv3_line {
    bool group1, enabled, pending;
};
/* A redistributor's private lines (SGIs and PPIs), a bit each. */
struct gicv3_private {
    uint32_t group0, enabled, pending;
};
void gicv3_read_private(uintptr_t gicr, struct gicv3_private *out);

/* Lines the distributor implements (SPIs plus 32 private ones). */
unsigned gicv3_lines(uintptr_t gicd);
/* Line n: private ones (< 32) from the redistributor at gicr, SPIs from the distributor. */
void gicv3_read_line(uintptr_t gicd, uintptr_t gicr, unsigned n, struct gicv3_line *out);
#endif

#endif
