/* SPDX-License-Identifier: MIT */
#include "kcode_a64.h"

#include "kallsyms.h"
#include "kmem.h"

#define ADRP_MASK 0x9f000000u
#define ADRP 0x90000000u
#define ADD_X_IMM_MASK 0xffc00000u /* sf=1 op=0 S=0 100010 sh=0: no shifted immediate */
#define ADD_X_IMM 0x91000000u
#define LDR_X_IMM_MASK 0xffc00000u /* LDR Xt, [Xn, #imm12 * 8] (unsigned offset) */
#define LDR_X_IMM 0xf9400000u

uint64_t kcode_a64_adrp(uint32_t insn, uint64_t pc)
{
    uint64_t imm = (uint64_t)(insn >> 5 & 0x7ffffu) << 2 | (insn >> 29 & 3u);

    if (imm & (1u << 20)) /* 21 bits, signed: +-4 GiB in pages */
        imm |= ~(uint64_t)0 << 21;
    return (pc & ~(uint64_t)0xfff) + (imm << 12);
}

bool kcode_a64_pair(uint32_t insn, const uint64_t page[31], uint32_t valid, uint64_t *addr,
                    bool *slot)
{
    unsigned rn = insn >> 5 & 31, imm = insn >> 10 & 0xfff;

    if (rn == 31 || !(valid >> rn & 1)) /* (31 is sp here) */
        return false;
    if ((insn & ADD_X_IMM_MASK) == ADD_X_IMM) {
        *addr = page[rn] + imm;
        *slot = false;
        return true;
    }
    if ((insn & LDR_X_IMM_MASK) == LDR_X_IMM) {
        *addr = page[rn] + 8u * imm;
        *slot = true;
        return true;
    }
    return false;
}

static struct ksym fn; /* the function (one match is enough) */

static void found(const struct ksym *s)
{
    fn = *s;
}

target_addr_t kcode_a64_find_address(const char *name, bool (*accept)(target_addr_t addr))
{
    uint64_t page[31];
    uint32_t valid = 0, len;

    fn.size = 0;
    if (ksym_find(name, 1, found) != 1 || !fn.size)
        return 0;
    len = fn.size < KCODE_A64_SCAN_MAX ? fn.size : KCODE_A64_SCAN_MAX;
    for (uint32_t off = 0; off + 4 <= len; off += 4) {
        target_addr_t pc = fn.addr + off, a;
        uint64_t addr;
        uint32_t insn;
        bool slot;

        kmem_failed = false; /* accept() may have read a bad candidate */
        insn = kr32(pc);
        if (kmem_failed)
            return 0;
        if ((insn & ADRP_MASK) == ADRP) {
            if ((insn & 31) != 31) {
                page[insn & 31] = kcode_a64_adrp(insn, pc);
                valid |= 1u << (insn & 31);
            }
            continue;
        }
        if (!kcode_a64_pair(insn, page, valid, &addr, &slot))
            continue;
        valid &= ~(1u << (insn & 31)); /* the destination holds no page any more */
        a = slot ? krlong((target_addr_t)addr) : (target_addr_t)addr;
        if (!kmem_failed && a && accept(a))
            return a;
    }
    return 0;
}
