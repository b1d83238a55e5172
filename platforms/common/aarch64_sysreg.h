/* SPDX-License-Identifier: MIT */
/* AArch64 system register access for EL3 platform code: one accessor pair per register
 * fiqmon uses, and the bits it needs. The GIC's CPU interface registers are in gicv3.h. */
#ifndef FIQMON_AARCH64_SYSREG_H
#define FIQMON_AARCH64_SYSREG_H

#include <stdint.h>

#include "aarch64_bits.h"

#define SYSREG_READ(name)                                                                  \
    static inline uint64_t sysreg_##name##_read(void)                                      \
    {                                                                                      \
        uint64_t v;                                                                        \
        __asm__ volatile("mrs %0, " #name : "=r"(v));                                      \
        return v;                                                                          \
    }
#define SYSREG_WRITE(name)                                                                 \
    static inline void sysreg_##name##_write(uint64_t v)                                   \
    {                                                                                      \
        __asm__ volatile("msr " #name ", %0\n\tisb" : : "r"(v) : "memory");                \
    }

SYSREG_READ(sctlr_el1)
SYSREG_READ(tcr_el1)
SYSREG_READ(ttbr0_el1)
SYSREG_READ(ttbr1_el1)
SYSREG_READ(mair_el1)
SYSREG_READ(esr_el1)
SYSREG_READ(far_el1)
SYSREG_READ(vbar_el1)
SYSREG_READ(contextidr_el1)
SYSREG_READ(tpidr_el1)
SYSREG_READ(hcr_el2)
SYSREG_READ(sctlr_el2)
SYSREG_READ(vbar_el2)
SYSREG_READ(scr_el3)
SYSREG_WRITE(scr_el3)
SYSREG_READ(par_el1)
SYSREG_WRITE(par_el1)
SYSREG_READ(cntpct_el0)
SYSREG_READ(cntfrq_el0)
SYSREG_READ(mpidr_el1)
SYSREG_READ(id_aa64isar1_el1)
SYSREG_READ(id_aa64pfr0_el1)
SYSREG_READ(id_aa64pfr1_el1)
SYSREG_READ(id_aa64mmfr0_el1)
SYSREG_READ(id_aa64mmfr1_el1)
SYSREG_WRITE(cptr_el3)
SYSREG_READ(cntps_ctl_el1)
SYSREG_WRITE(cntps_ctl_el1)
SYSREG_WRITE(cntps_tval_el1)
SYSREG_READ(cntv_cval_el0)
SYSREG_READ(cntp_cval_el0)
SYSREG_READ(cnthp_cval_el2)
SYSREG_READ(S3_4_C14_C3_2) /* CNTHV_CVAL_EL2 (FEAT_VHE) */
#define sysreg_cnthv_cval_el2_read sysreg_S3_4_C14_C3_2_read
/* by encoding: registers of features older assemblers do not name */
SYSREG_READ(S3_0_C0_C6_2)  /* ID_AA64ISAR2_EL1 */
SYSREG_WRITE(S3_6_C1_C2_0) /* ZCR_EL3 */
SYSREG_WRITE(S3_6_C1_C2_6) /* SMCR_EL3 */
#define sysreg_id_aa64isar2_el1_read sysreg_S3_0_C0_C6_2_read
#define sysreg_zcr_el3_write sysreg_S3_6_C1_C2_0_write
#define sysreg_smcr_el3_write sysreg_S3_6_C1_C2_6_write


/* Stage 1 translation of va for a read, as the EL1&0 regime (the kernel without VHE) or
 * the EL2&0 regime (a VHE kernel) sees it; the result in PAR_EL1. */
static inline void at_s1e1r(uint64_t va)
{
    __asm__ volatile("at s1e1r, %0\n\tisb" : : "r"(va) : "memory");
}
static inline void at_s1e2r(uint64_t va)
{
    __asm__ volatile("at s1e2r, %0\n\tisb" : : "r"(va) : "memory");
}

#endif
