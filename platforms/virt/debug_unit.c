/* SPDX-License-Identifier: MIT */
/* The debug unit (HYP=1): fiqmon programs this CPU's breakpoint and watchpoint registers
 * from Monitor mode; the Hyp shim (HDCR.TDE, set by virt_hyp_arm) brings their debug
 * exceptions to fiqmon and shows the kernel no debug unit of its own (docs/breakpoints.md).
 * Registers: platforms/common/armv7_debug.h. */
#include "armv7_debug.h"
#include "platform.h"
#include "virt.h"

#define SLOTS_MAX 16

#define PAIR_CASES(op2, v)                                                                     \
    case 0: DBG_PAIR_WRITE(0, op2, v); break;                                                  \
    case 1: DBG_PAIR_WRITE(1, op2, v); break;                                                  \
    case 2: DBG_PAIR_WRITE(2, op2, v); break;                                                  \
    case 3: DBG_PAIR_WRITE(3, op2, v); break;                                                  \
    case 4: DBG_PAIR_WRITE(4, op2, v); break;                                                  \
    case 5: DBG_PAIR_WRITE(5, op2, v); break;                                                  \
    case 6: DBG_PAIR_WRITE(6, op2, v); break;                                                  \
    case 7: DBG_PAIR_WRITE(7, op2, v); break;                                                  \
    case 8: DBG_PAIR_WRITE(8, op2, v); break;                                                  \
    case 9: DBG_PAIR_WRITE(9, op2, v); break;                                                  \
    case 10: DBG_PAIR_WRITE(10, op2, v); break;                                                \
    case 11: DBG_PAIR_WRITE(11, op2, v); break;                                                \
    case 12: DBG_PAIR_WRITE(12, op2, v); break;                                                \
    case 13: DBG_PAIR_WRITE(13, op2, v); break;                                                \
    case 14: DBG_PAIR_WRITE(14, op2, v); break;                                                \
    case 15: DBG_PAIR_WRITE(15, op2, v); break;                                                \
    default: break

static void bvr(unsigned n, uint32_t v) { switch (n) { PAIR_CASES(4, v); } }
static void bcr(unsigned n, uint32_t v) { switch (n) { PAIR_CASES(5, v); } }
static void wvr(unsigned n, uint32_t v) { switch (n) { PAIR_CASES(6, v); } }
static void wcr(unsigned n, uint32_t v) { switch (n) { PAIR_CASES(7, v); } }

void port_debug_slots(unsigned *breakpoints, unsigned *watchpoints)
{
    uint32_t didr;

    if (!virt_hyp_installed) { /* no Hyp: the kernel's debug exceptions are its own */
        *breakpoints = *watchpoints = 0;
        return;
    }
    didr = dbg_didr_read();
    *breakpoints = (didr >> DBGDIDR_BRPS_SHIFT & 0xfu) + 1u;
    *watchpoints = (didr >> DBGDIDR_WRPS_SHIFT & 0xfu) + 1u;
}

void port_debug_breakpoint(unsigned n, uint32_t addr, bool on)
{
    uint32_t bas = !(addr & 1u) ? DBGBCR_BAS_ARM
                   : addr & 2u  ? DBGBCR_BAS_THUMB_HI
                                : DBGBCR_BAS_THUMB_LO;

    bcr(n, 0); /* off while its address changes */
    __asm__ volatile("isb");
    if (!on)
        return;
    bvr(n, addr & ~3u);
    bcr(n, DBGBCR_SSC_NS | bas << DBGBCR_BAS_SHIFT | DBGBCR_PMC_PL0_PL1 | DBGBCR_ENABLE);
    __asm__ volatile("isb");
}

void port_debug_watchpoint(unsigned n, uint32_t addr, uint32_t len, unsigned kind, bool on)
{
    uint32_t lsc = (kind & 1u ? DBGWCR_LSC_STORE : 0) | (kind & 2u ? DBGWCR_LSC_LOAD : 0);

    wcr(n, 0);
    __asm__ volatile("isb");
    if (!on)
        return;
    wvr(n, addr & ~3u);
    wcr(n, DBGWCR_SSC_NS | ((1u << len) - 1u) << (DBGWCR_BAS_SHIFT + (addr & 3u)) | lsc |
               DBGWCR_PAC_PL0_PL1 | DBGWCR_ENABLE);
    __asm__ volatile("isb");
}

bool port_debug_kernel_thumb(void)
{
    return virt_cpu_sysregs(0)->sctlr & (1u << 30); /* SCTLR.TE */
}

uint32_t port_debug_vectors(void)
{
    const struct ns_sysregs *r = virt_cpu_sysregs(0);

    return r->sctlr & (1u << 13) ? 0xffff0000u : r->vbar; /* SCTLR.V: high vectors */
}
