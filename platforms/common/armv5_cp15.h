/* SPDX-License-Identifier: MIT */
/* ARMv5 (ARM926EJ-S) system control coprocessor: the few operations fiqmon needs. */
#ifndef FIQMON_ARMV5_CP15_H
#define FIQMON_ARMV5_CP15_H

#include <stdint.h>

#define SCTLR_M (1u << 0)   /* MMU */
#define SCTLR_A (1u << 1)   /* alignment fault checking */
#define SCTLR_C (1u << 2)   /* D-cache */
#define SCTLR_I (1u << 12)  /* I-cache */
#define SCTLR_V (1u << 13)  /* high vectors (0xffff0000) */

static inline uint32_t cp15_sctlr_read(void)
{
    uint32_t v;
    __asm__ volatile("mrc p15, 0, %0, c1, c0, 0" : "=r"(v));
    return v;
}

static inline void cp15_sctlr_write(uint32_t v)
{
    __asm__ volatile("mcr p15, 0, %0, c1, c0, 0" : : "r"(v) : "memory");
}

/* Write back every dirty D-cache line ("test and clean" until the cache reports clean). */
static inline void cp15_dcache_clean_all(void)
{
    __asm__ volatile("1: mrc p15, 0, APSR_nzcv, c7, c10, 3\n\tbne 1b" : : : "cc", "memory");
}

static inline void cp15_dcache_invalidate_all(void)
{
    __asm__ volatile("mcr p15, 0, %0, c7, c6, 0" : : "r"(0) : "memory");
}

static inline void cp15_icache_invalidate_all(void)
{
    __asm__ volatile("mcr p15, 0, %0, c7, c5, 0" : : "r"(0) : "memory");
}

static inline void cp15_drain_write_buffer(void)
{
    __asm__ volatile("mcr p15, 0, %0, c7, c10, 4" : : "r"(0) : "memory");
}

#endif
