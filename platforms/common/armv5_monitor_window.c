/* SPDX-License-Identifier: MIT */
/* ARMv5 has no VBAR and no security state: while the monitor runs, fiqmon borrows the
 * CPU from the kernel and must give it back bit for bit.
 *
 * On the way in: write back the D-cache, then run with the MMU and D-cache off (md/mw see
 * physical memory), low vectors, alignment checking on, and fiqmon's data-abort handler
 * in the vector words 0x10/0x14 (0x14 is the architecturally unused vector, so a
 * "ldr pc, [pc, #-4]" at 0x10 finds its target there). On the way out: restore both
 * words, discard the D-cache (it was clean, so only stale lines go; mw writes become
 * visible), invalidate the I-cache (mw may have patched code), restore SCTLR. */
#include <stdint.h>

#include "arm_mem_probe.h"
#include "armv5_cp15.h"
#include "platform.h"

#define VECTOR_DABORT   0x10u
#define VECTOR_RESERVED 0x14u
#define LDR_PC_PC_MINUS_4 0xe51ff004u

static struct {
    uint32_t sctlr;
    uint32_t words[2];
} saved;

static volatile uint32_t *word_at(uint32_t addr)
{
    return (volatile uint32_t *)(uintptr_t)addr;
}

void platform_monitor_enter(void)
{
    uint32_t sctlr = cp15_sctlr_read();

    saved.sctlr = sctlr;
    if (sctlr & SCTLR_C)
        cp15_dcache_clean_all();
    cp15_drain_write_buffer();
    cp15_sctlr_write((sctlr & ~(SCTLR_M | SCTLR_C | SCTLR_V)) | SCTLR_A);
    saved.words[0] = *word_at(VECTOR_DABORT);
    saved.words[1] = *word_at(VECTOR_RESERVED);
    *word_at(VECTOR_DABORT) = LDR_PC_PC_MINUS_4;
    *word_at(VECTOR_RESERVED) = (uint32_t)(uintptr_t)dabort_entry;
    cp15_drain_write_buffer();
    cp15_icache_invalidate_all();
}

void platform_monitor_exit(void)
{
    *word_at(VECTOR_DABORT) = saved.words[0];
    *word_at(VECTOR_RESERVED) = saved.words[1];
    cp15_drain_write_buffer();
    if (saved.sctlr & SCTLR_C)
        cp15_dcache_invalidate_all();
    cp15_icache_invalidate_all();
    cp15_sctlr_write(saved.sctlr);
}
