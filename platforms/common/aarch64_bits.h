/* SPDX-License-Identifier: MIT */
/* Bits of the AArch64 system registers fiqmon sets or reads, for C and assembly (Arm ARM,
 * D19). */
#ifndef FIQMON_AARCH64_BITS_H
#define FIQMON_AARCH64_BITS_H

#define SCTLR_M             (1 << 0)
#define SCTLR_A             (1 << 1)
#define SCTLR_C             (1 << 2)

#define SCTLR_EL2_RES1      0x30c50830  /* its RES1 bits: MMU, caches, alignment off */

#define SCR_EL3_NS          (1 << 0)
#define SCR_EL3_FIQ         (1 << 2)
#define SCR_EL3_RES1        (3 << 4)
#define SCR_EL3_HCE         (1 << 8)
#define SCR_EL3_RW          (1 << 10)
#define SCR_EL3_APK         (1ull << 16)
#define SCR_EL3_API         (1ull << 17)
#define SCR_EL3_ENSCXT      (1ull << 25)
#define SCR_EL3_ATA         (1ull << 26)
#define SCR_EL3_FGTEN       (1ull << 27)
#define SCR_EL3_ECVEN       (1ull << 28)
#define SCR_EL3_HXEN        (1ull << 38)

#define CPTR_EL3_EZ         (1ull << 8)
#define CPTR_EL3_ESM        (1ull << 12)
#define SMCR_EL3_FA64       (1ull << 31)

#define HCR_EL2_TGE         (1ull << 27)
#define HCR_EL2_E2H         (1ull << 34)

#define PAR_EL1_F           (1ull << 0)
#define PAR_EL1_PA_MASK     0x0000fffffffff000ull

#define ESR_EC_SHIFT        26
#define ESR_EC_SMC64        0x17
#define ESR_EC_DABT_CUR     0x25

#endif
