/* SPDX-License-Identifier: MIT */
#include "kcode.h"

#include "kallsyms.h"
#include "kmem.h"

static struct ksym fn; /* the function, from ksym_find (one match is enough) */

static void found(const struct ksym *s)
{
    fn = *s;
}

uint32_t kcode_find_address(const char *name, bool (*accept)(uint32_t addr))
{
    uint32_t low[16], have = 0, len;

    fn.size = 0;
    if (ksym_find(name, 1, found) != 1 || !fn.size)
        return 0;
    len = fn.size < KCODE_SCAN_MAX ? fn.size : KCODE_SCAN_MAX;
    for (uint32_t a = fn.addr; a - fn.addr < len; a += 4) {
        uint32_t insn, rd, imm;

        kmem_failed = false; /* accept() may have read a bad candidate */
        insn = kr32(a);
        rd = insn >> 12 & 15;
        if (kmem_failed)
            return 0;
        imm = (insn >> 4 & 0xf000) | (insn & 0xfff);
        if ((insn & 0x0ff00000) == 0x03000000) { /* movw rd, #imm16 */
            low[rd] = imm;
            have |= 1u << rd;
        } else if ((insn & 0x0ff00000) == 0x03400000 && have >> rd & 1) { /* movt */
            have &= ~(1u << rd);
            if (accept(imm << 16 | low[rd]))
                return imm << 16 | low[rd];
        }
    }
    return 0;
}
