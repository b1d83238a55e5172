/* SPDX-License-Identifier: MIT */
#include "hyp_trap.h"

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

uint32_t hyp_trap(struct hyp_regs *regs, uint32_t hsr, uint32_t hdfar, uint32_t hpfar,
                  const struct hyp_mmio *mmio, struct hyp_stats *stats)
{
    uint32_t ec = hsr >> HSR_EC_SHIFT;
    uint32_t len = hsr & HSR_IL ? 4u : 2u;

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
