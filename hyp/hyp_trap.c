/* SPDX-License-Identifier: MIT */
#include "hyp_trap.h"

#include <stdbool.h>

#include "hyp_abi.h"

static uint32_t extend(uint32_t v, unsigned width, int sign)
{
    unsigned bits = width * 8u;

    if (bits == 32)
        return v;
    v &= (1u << bits) - 1u;
    if (sign && (v >> (bits - 1)))
        v |= ~0u << bits;
    return v;
}

/* The kernel's own use of the debug unit: it reads as absent (DBGDIDR 0: Linux's
 * hw_breakpoint says its debug architecture is unsupported) and writes are dropped, so
 * it can neither see nor move fiqmon's breakpoints (docs/breakpoints.md). */
static uint32_t cp14_raz_wi(struct hyp_regs *regs, uint32_t hsr, uint32_t ec, uint32_t len,
                            struct hyp_stats *stats)
{
    unsigned rt = (hsr >> HSR_CP_RT_SHIFT) & 0xfu, rt2 = (hsr >> HSR_CP_RT2_SHIFT) & 0xfu;

    stats->cp14++;
    if (ec != HSR_EC_CP14_LS && (hsr & HSR_CP_READ)) {
        if (rt < 15)
            regs->r[rt] = 0;
        if (ec == HSR_EC_CP14_RR && rt2 < 15)
            regs->r[rt2] = 0;
    }
    return len;
}

uint32_t hyp_trap(struct hyp_regs *regs, uint32_t hsr, uint32_t hdfar, uint32_t hpfar,
                  const struct hyp_mmio *mmio, const struct hyp_debug *debug,
                  struct hyp_stats *stats)
{
    uint32_t ec = hsr >> HSR_EC_SHIFT;
    uint32_t len = hsr & HSR_IL ? 4u : 2u;
    bool debug_event = (hsr & HSR_FSC_MASK) == HSR_FSC_DEBUG;

    if ((ec == HSR_EC_PABT_LOWER || ec == HSR_EC_DABT_LOWER) && debug_event && debug) {
        stats->debug++; /* fiqmon decides, and may move the pc: no step here */
        debug->event(regs, ec == HSR_EC_PABT_LOWER ? HYP_DEBUG_BREAKPOINT : HYP_DEBUG_WATCHPOINT,
                     hdfar);
        return 0;
    }
    if (ec == HSR_EC_CP14_MR || ec == HSR_EC_CP14_LS || ec == HSR_EC_CP14_RR)
        return cp14_raz_wi(regs, hsr, ec, len, stats);
    if (ec == HSR_EC_HVC) {
        regs->r[0] = 0xffffffffu; /* no hypercalls: "not supported"; ELR is already past */
        stats->other++;
        return 0;
    }
    if (ec != HSR_EC_DABT_LOWER) {
        stats->other++; /* nothing else is enabled: step over it rather than trap forever */
        return len;
    }
    unsigned srt = (hsr >> HSR_SRT_SHIFT) & 0xfu;
    unsigned width = 1u << ((hsr >> HSR_SAS_SHIFT) & 3u);
    int write = (hsr & HSR_WNR) != 0;
    uint32_t offset = hyp_fault_ipa(hdfar, hpfar) - mmio->base;

    /* without ISV the access would need decoding (LDM, LDRD...); a pc target would branch */
    if (!(hsr & HSR_ISV) || srt == 15 || width > 4 || offset >= mmio->size ||
        (offset & (width - 1u))) {
        if ((hsr & HSR_ISV) && !write && srt < 15)
            regs->r[srt] = 0; /* read as zero */
        stats->ignored++;
        return len;
    }
    stats->emulated++;
    if (write)
        mmio->write(offset, width, extend(regs->r[srt], width, 0));
    else
        regs->r[srt] = extend(mmio->read(offset, width), width, (hsr & HSR_SSE) != 0);
    return len;
}
