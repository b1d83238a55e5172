/* SPDX-License-Identifier: MIT */
/* The ARMv7 short-descriptor walk (ARM ARM B3.5): TTBCR.N splits the address space between
 * TTBR0 (below 2^(32-N)) and TTBR1; a first-level entry is a fault, a second-level table
 * (PXN in bit 2), a section or supersection (XN bit 4, PXN bit 0); a second-level entry is
 * a fault, a large page (XN bit 15) or a small page (XN bit 0). Kernel text is mapped
 * executable; Linux maps its data, stacks and vmalloc space XN (STRICT_KERNEL_RWX). */
#include "text_mapping.h"

#define TTBCR_EAE (1u << 31)
#define TTBCR_N_MASK 7u

#define L1_TYPE_MASK 3u
#define L1_TABLE 1u
#define L1_TABLE_PXN (1u << 2)
#define L1_TABLE_BASE_MASK 0xfffffc00u
#define L1_SECTION_XN (1u << 4)
#define L1_SECTION_PXN (1u << 0)

#define L2_LARGE 1u
#define L2_LARGE_XN (1u << 15)
#define L2_SMALL_XN (1u << 0)

enum text_mapping text_mapping_at(uint32_t va, const struct text_mapping_regs *r,
                                  text_mapping_reader read_pa)
{
    unsigned n = r->ttbcr & TTBCR_N_MASK;
    uint32_t base, l1, l2;

    if (r->ttbcr & TTBCR_EAE)
        return TEXT_UNKNOWN;
    if (n == 0 || va >> (32 - n) == 0) /* TTBR0: a table of 2^(12-N) entries */
        base = r->ttbr0 & ~((1u << (14 - n)) - 1u);
    else
        base = r->ttbr1 & ~0x3fffu;
    if (!read_pa(base + (va >> 20) * 4u, &l1))
        return TEXT_UNMAPPED;
    switch (l1 & L1_TYPE_MASK) {
    case 0:
        return TEXT_UNMAPPED;
    case L1_TABLE:
        if (l1 & L1_TABLE_PXN)
            return TEXT_NOT_EXECUTABLE;
        if (!read_pa((l1 & L1_TABLE_BASE_MASK) + ((va >> 12) & 0xffu) * 4u, &l2) || !(l2 & 3u))
            return TEXT_UNMAPPED;
        if ((l2 & 3u) == L2_LARGE)
            return l2 & L2_LARGE_XN ? TEXT_NOT_EXECUTABLE : TEXT_EXECUTABLE;
        return l2 & L2_SMALL_XN ? TEXT_NOT_EXECUTABLE : TEXT_EXECUTABLE;
    default: /* a section or supersection (11: reserved, or a PXN section on LPAE parts) */
        return l1 & (L1_SECTION_XN | L1_SECTION_PXN) ? TEXT_NOT_EXECUTABLE : TEXT_EXECUTABLE;
    }
}
