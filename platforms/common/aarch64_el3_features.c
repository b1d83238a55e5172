/* SPDX-License-Identifier: MIT */
/* What EL3 must allow before a kernel can use its CPU's newer features: the firmware's
 * side of each (what TF-A's BL31 does at boot). Unset, the feature's instructions and
 * registers trap to EL3 and the kernel dies at its first paciasp or SVE access. Each bit is
 * set only when the CPU's ID registers say the feature is there (on older cores the bit
 * is RES0). */
#include "aarch64_el3_features.h"

#include <stdint.h>

#include "aarch64_sysreg.h"

static unsigned field(uint64_t id, unsigned shift)
{
    return (unsigned)(id >> shift) & 0xf;
}

void aarch64_el3_enable_features(void)
{
    uint64_t pfr0 = sysreg_id_aa64pfr0_el1_read(), pfr1 = sysreg_id_aa64pfr1_el1_read();
    uint64_t isar1 = sysreg_id_aa64isar1_el1_read(), isar2 = sysreg_id_aa64isar2_el1_read();
    uint64_t mmfr0 = sysreg_id_aa64mmfr0_el1_read(), mmfr1 = sysreg_id_aa64mmfr1_el1_read();
    uint64_t scr = sysreg_scr_el3_read(), cptr = 0;

    /* pointer authentication: APA, API, GPA, GPI (ISAR1), APA3, GPA3 (ISAR2) */
    if (field(isar1, 4) || field(isar1, 8) || field(isar1, 24) || field(isar1, 28) ||
        field(isar2, 8) || field(isar2, 12))
        scr |= SCR_EL3_APK | SCR_EL3_API;
    if (field(pfr1, 8) >= 2) /* MTE with tags in memory */
        scr |= SCR_EL3_ATA;
    if (field(pfr0, 56) >= 2) /* CSV2: SCXTNUM_ELx */
        scr |= SCR_EL3_ENSCXT;
    if (field(mmfr0, 56)) /* fine-grained traps */
        scr |= SCR_EL3_FGTEN;
    if (field(mmfr0, 60)) /* enhanced counter virtualization */
        scr |= SCR_EL3_ECVEN;
    if (field(mmfr1, 40)) /* HCRX_EL2 */
        scr |= SCR_EL3_HXEN;
    sysreg_scr_el3_write(scr);

    if (field(pfr0, 32)) { /* SVE: not trapped, the longest vectors the CPU has */
        cptr |= CPTR_EL3_EZ;
        sysreg_cptr_el3_write(cptr);
        sysreg_zcr_el3_write(0xf);
    }
    if (field(pfr1, 24)) { /* SME: likewise */
        cptr |= CPTR_EL3_ESM;
        sysreg_cptr_el3_write(cptr);
        sysreg_smcr_el3_write(SMCR_EL3_FA64 | 0xf);
    }
}
