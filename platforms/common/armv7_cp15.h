/* SPDX-License-Identifier: MIT */
/* ARMv7 system registers fiqmon uses from the Secure side (Security Extensions). */
#ifndef FIQMON_ARMV7_CP15_H
#define FIQMON_ARMV7_CP15_H

#include <stdint.h>

#define SCR_NS  (1u << 0)   /* Normal world */
#define SCR_IRQ (1u << 1)   /* IRQs to Monitor mode */
#define SCR_FIQ (1u << 2)   /* FIQs to Monitor mode */
#define SCR_EA  (1u << 3)
#define SCR_FW  (1u << 4)   /* Normal world may mask FIQ (fiqmon leaves it 0) */
#define SCR_AW  (1u << 5)   /* Normal world may mask external aborts */

#define NSACR_CP10 (1u << 10)
#define NSACR_CP11 (1u << 11)

#define PAR_F       (1u << 0)   /* translation aborted */
#define TTBCR_EAE   (1u << 31)  /* long descriptors (LPAE) */

#define CP15_READ(name, ...)                                                                   \
    static inline uint32_t name(void)                                                          \
    {                                                                                          \
        uint32_t v;                                                                            \
        __asm__ volatile("mrc " #__VA_ARGS__ : "=r"(v));                                      \
        return v;                                                                              \
    }
#define CP15_WRITE(name, ...)                                                                  \
    static inline void name(uint32_t v)                                                        \
    {                                                                                          \
        __asm__ volatile("mcr " #__VA_ARGS__ "\n\tisb" : : "r"(v) : "memory");                 \
    }

CP15_READ(cp15_scr_read, p15, 0, %0, c1, c1, 0)
CP15_WRITE(cp15_scr_write, p15, 0, %0, c1, c1, 0)
CP15_WRITE(cp15_nsacr_write, p15, 0, %0, c1, c1, 2)
CP15_READ(cp15_sctlr_read, p15, 0, %0, c1, c0, 0)
CP15_READ(cp15_mpidr_read, p15, 0, %0, c0, c0, 5)
CP15_READ(cp15_ttbr0_read, p15, 0, %0, c2, c0, 0)
CP15_READ(cp15_ttbr1_read, p15, 0, %0, c2, c0, 1)
CP15_READ(cp15_ttbcr_read, p15, 0, %0, c2, c0, 2)
CP15_READ(cp15_dacr_read, p15, 0, %0, c3, c0, 0)
CP15_READ(cp15_dfsr_read, p15, 0, %0, c5, c0, 0)
CP15_READ(cp15_ifsr_read, p15, 0, %0, c5, c0, 1)
CP15_READ(cp15_dfar_read, p15, 0, %0, c6, c0, 0)
CP15_READ(cp15_ifar_read, p15, 0, %0, c6, c0, 2)
CP15_READ(cp15_contextidr_read, p15, 0, %0, c13, c0, 1)
/* (writes: the Normal world's translation registers lent to another CPU's, mem.c) */
CP15_WRITE(cp15_ttbr0_write, p15, 0, %0, c2, c0, 0)
CP15_WRITE(cp15_ttbr1_write, p15, 0, %0, c2, c0, 1)
CP15_WRITE(cp15_ttbcr_write, p15, 0, %0, c2, c0, 2)
CP15_WRITE(cp15_dacr_write, p15, 0, %0, c3, c0, 0)
CP15_WRITE(cp15_contextidr_write, p15, 0, %0, c13, c0, 1)
CP15_READ(cp15_vbar_read, p15, 0, %0, c12, c0, 0)
CP15_READ(cp15_par_read, p15, 0, %0, c7, c4, 0)
CP15_WRITE(cp15_ats12nsopr, p15, 0, %0, c7, c8, 4)
CP15_READ(cp15_cntfrq_read, p15, 0, %0, c14, c0, 0)
/* From the Secure side (SCR.NS = 0) the CNTP_* registers are the Secure physical timer's
 * (CNTPS): a timer the Normal world cannot reach. */
CP15_WRITE(cp15_cntp_tval_write, p15, 0, %0, c14, c2, 0)
CP15_WRITE(cp15_cntp_ctl_write, p15, 0, %0, c14, c2, 1)
CP15_READ(cp15_cntp_ctl_read, p15, 0, %0, c14, c2, 1)

#define CNTP_CTL_ENABLE  (1u << 0)
#define CNTP_CTL_ISTATUS (1u << 2)  /* the compare value is reached: the output is asserted */

/* Compare values, low words: a kernel that handles its timer interrupt writes a new one.
 * CNTV_CVAL has one instance; CNTP_CVAL is the Normal world's only with SCR.NS = 1. */
static inline uint32_t cp15_cntv_cval_lo_read(void)
{
    uint32_t lo, hi;
    __asm__ volatile("mrrc p15, 3, %0, %1, c14" : "=r"(lo), "=r"(hi));
    return lo;
}

static inline uint32_t cp15_cntp_cval_lo_read(void)
{
    uint32_t lo, hi;
    __asm__ volatile("mrrc p15, 2, %0, %1, c14" : "=r"(lo), "=r"(hi));
    return lo;
}

static inline uint64_t cp15_par64_read(void)
{
    uint32_t lo, hi;
    __asm__ volatile("mrrc p15, 0, %0, %1, c7" : "=r"(lo), "=r"(hi));
    return ((uint64_t)hi << 32) | lo;
}

static inline uint64_t cp15_cntpct_read(void)
{
    uint32_t lo, hi;
    __asm__ volatile("isb\n\tmrrc p15, 0, %0, %1, c14" : "=r"(lo), "=r"(hi));
    return ((uint64_t)hi << 32) | lo;
}

#endif
