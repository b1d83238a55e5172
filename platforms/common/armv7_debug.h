/* SPDX-License-Identifier: MIT */
/* The ARMv7 debug unit through its cp14 interface (ARM ARM C11): the registers fiqmon
 * programs from Monitor mode, and the Hyp control that routes the Normal world's debug
 * exceptions to the Hyp shim. */
#ifndef FIQMON_ARMV7_DEBUG_H
#define FIQMON_ARMV7_DEBUG_H

#include <stdint.h>

#define DBGDIDR_WRPS_SHIFT   28 /* watchpoints - 1 */
#define DBGDIDR_BRPS_SHIFT   24 /* breakpoints - 1 */
#define DBGDSCR_MDBGEN       (1u << 15) /* monitor debug-mode: debug exceptions on */
#define HDCR_TDE             (1u << 8)  /* debug exceptions (and cp14 accesses) to Hyp */

/* DBGBCR: unlinked address match, Non-secure PL0 and PL1 only (SSC 01, PMC 11) */
#define DBGBCR_ENABLE        (1u << 0)
#define DBGBCR_PMC_PL0_PL1   (3u << 1)
#define DBGBCR_BAS_SHIFT     5
#define DBGBCR_BAS_ARM       0xfu /* the word: an ARM instruction */
#define DBGBCR_BAS_THUMB_LO  0x3u /* the halfword at +0 */
#define DBGBCR_BAS_THUMB_HI  0xcu /* the halfword at +2 */
#define DBGBCR_SSC_NS        (1u << 14)

/* DBGWCR: the same privilege and security fields; LSC selects loads and stores */
#define DBGWCR_ENABLE        (1u << 0)
#define DBGWCR_PAC_PL0_PL1   (3u << 1)
#define DBGWCR_LSC_LOAD      (1u << 3)
#define DBGWCR_LSC_STORE     (2u << 3)
#define DBGWCR_BAS_SHIFT     5
#define DBGWCR_SSC_NS        (1u << 14)

static inline uint32_t dbg_didr_read(void)
{
    uint32_t v;
    __asm__ volatile("mrc p14, 0, %0, c0, c0, 0" : "=r"(v));
    return v;
}

static inline uint32_t dbg_dscr_ext_read(void)
{
    uint32_t v;
    __asm__ volatile("mrc p14, 0, %0, c0, c2, 2" : "=r"(v));
    return v;
}

static inline void dbg_dscr_ext_write(uint32_t v)
{
    __asm__ volatile("mcr p14, 0, %0, c0, c2, 2" ::"r"(v));
}

static inline void dbg_oslar_write(uint32_t v)
{
    __asm__ volatile("mcr p14, 0, %0, c1, c0, 4" ::"r"(v));
}

/* Pair n (0-15) of breakpoint (op2 4, 5) or watchpoint (6, 7) registers: CRm is n. */
#define DBG_PAIR_WRITE(n, op2, v) __asm__ volatile("mcr p14, 0, %0, c0, c" #n ", " #op2 ::"r"(v))

#endif
