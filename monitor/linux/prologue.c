/* SPDX-License-Identifier: MIT */
#include "prologue.h"

#include "kmem.h"

#define AL 0xeu
#define SP 13u
#define LR 14u
#define PC 15u

static uint32_t arm_imm(uint32_t insn)
{
    uint32_t v = insn & 0xff, rot = (insn >> 8 & 0xf) * 2;

    return rot ? v >> rot | v << (32 - rot) : v;
}

static bool is_call(uint32_t insn)
{
    return (insn & 0x0f000000) == 0x0b000000 || insn >> 25 == 0x7d ||
           (insn & 0x0ffffff0) == 0x012fff30;
}

/* insn (at a, before pc) leaves sp and pc alone and writes only registers in may_write
 * (r0-r12, and lr once the function has saved it). Data processing, single, halfword,
 * multiple and exclusive loads and stores, multiplies, media instructions, coprocessor and
 * status reads, irq restores, hints, barriers, and conditional forward branches past pc
 * and conditional returns (not taken, since pc was reached); anything else is refused. */
static bool harmless(uint32_t insn, uint32_t a, uint32_t pc, uint32_t may_write)
{
    uint32_t rd = insn >> 12 & 0xf, rn = insn >> 16 & 0xf;
#define W(r) ((may_write >> (r) & 1) != 0)

    if (insn >> 28 == 0xf) /* dsb, dmb, isb */
        return (insn & 0xffffff00) == 0xf57ff000;
    if ((insn & 0x0e000000) == 0x0a000000) { /* b, bl */
        int32_t off = (int32_t)(insn << 8) >> 6;
        return !(insn & 1u << 24) && insn >> 28 != AL && a + 8 + (uint32_t)off > pc;
    }
    if ((insn & 0x0ffffff0) == 0x012fff10) /* bxCC (an early return): pc got past it */
        return insn >> 28 != AL;
    if ((insn & 0x0ffffff0) == 0x0320f000) /* nop, yield, wfe, wfi, sev */
        return (insn & 0xf) <= 4;
    if ((insn & 0x0fb0fff0) == 0x0120f000) /* msr cpsr_c, rN (irq restore: same mode) */
        return true;
    if ((insn & 0x0fff0ff0) == 0x016f0f10) /* clz */
        return W(rd);
    if ((insn & 0x0ff000f0) == 0x07f000f0) /* udf (BUG()): never falls through */
        return false;
    if ((insn & 0x0e000010) == 0x06000010) /* media: uxtb, sbfx, rev, ... */
        return W(rd);
    if ((insn & 0x0e000000) == 0x08000000) { /* ldm, stm with a base other than sp */
        bool load = insn & 1u << 20, wback = insn & 1u << 21;
        return rn < SP && !(wback && !W(rn)) && !(load && (insn & 0xffff) & ~may_write);
    }
    if ((insn & 0x0fbf0fff) == 0x010f0000) /* mrs rd, cpsr/spsr (irqs_disabled()) */
        return W(rd);
    if ((insn & 0x0f0000f0) == 0x00000090) /* mul, mla, umull, ...: rd (19:16), rdlo */
        return W(rn) && (!(insn & 1u << 23) || W(rd));
    if ((insn & 0x0f800ff0) == 0x01800f90) /* ldrex, strex: rd is the result */
        return W(rd);
    if ((insn & 0x0e000090) == 0x00000090 && (insn & 0x60)) { /* ldrh, strd, ...: [rn] */
        bool load = insn & 1u << 20, dual = !load && !(insn & 1u << 5);
        bool wback = !(insn & 1u << 24) || insn & 1u << 21;
        return !(wback && !W(rn)) && !((load || dual) && !(W(rd) && W(rd + dual)));
    }
    if ((insn & 0x0c000000) == 0x00000000) { /* data processing */
        uint32_t op = insn >> 21 & 0xf;
        bool imm = insn & 1u << 25, s = insn & 1u << 20;
        if (!imm && (insn & 0x90) == 0x90)
            return false; /* swp and the rest of the extension space */
        if (op >= 8 && op <= 11 && !s) /* movw, movt; msr, bx, bkpt, ... */
            return imm && (op == 8 || op == 10) && W(rd);
        return (op >= 8 && op <= 11) || W(rd); /* compares write no register */
    }
    if ((insn & 0x0c000000) == 0x04000000) { /* ldr, str, ldrb, strb */
        bool load = insn & 1u << 20, wback = !(insn & 1u << 24) || insn & 1u << 21;
        return !(wback && !W(rn)) && !(load && !W(rd));
    }
    if ((insn & 0x0f100010) == 0x0e100010) /* mrc (to APSR_nzcv when rd is 15) */
        return rd == PC || W(rd);
    if ((insn & 0x0f100010) == 0x0e000010) /* mcr */
        return true;
    if ((insn & 0x0ff00000) == 0x0c500000) /* mrrc */
        return W(rd) && W(rn);
    return false;
#undef W
}

bool prologue_unwind(uint32_t r[16], uint32_t start)
{
    int32_t rel = 0;       /* sp relative to its value at the function's entry */
    int32_t slot[16] = {0}; /* where a register was saved, relative to that sp */
    uint32_t saved = 0, entry_sp, out[16];

    if (start > r[15] || r[15] - start > 4 * PROLOGUE_MAX || (r[15] - start) & 3)
        return false;
    kmem_failed = false;
    for (uint32_t a = start; a < r[15]; a += 4) {
        uint32_t insn = kr32(a), cond = insn >> 28;
        if (kmem_failed)
            return false;
        if ((insn & 0x0fff0000) == 0x092d0000 && cond == AL) { /* push {list} */
            uint32_t list = insn & 0xffff, n = 0;
            if (list & (1u << SP | 1u << PC))
                return false;
            for (unsigned i = 0; i < 16; i++)
                n += list >> i & 1;
            rel -= (int32_t)(4 * n);
            for (unsigned i = 0, k = 0; i < 16; i++) {
                if (!(list >> i & 1))
                    continue;
                if (!(saved >> i & 1)) /* the first save is the frame's */
                    slot[i] = rel + (int32_t)(4 * k);
                saved |= 1u << i;
                k++;
            }
        } else if ((insn & 0x0fff0fff) == 0x052d0004 && cond == AL) { /* str rN, [sp, #-4]! */
            uint32_t i = insn >> 12 & 0xf;
            if (i >= SP && i != LR)
                return false;
            rel -= 4;
            if (!(saved >> i & 1))
                slot[i] = rel;
            saved |= 1u << i;
        } else if ((insn & 0x0ffff000) == 0x024dd000 && cond == AL) { /* sub sp, sp, #imm */
            rel -= (int32_t)arm_imm(insn);
        } else if ((insn & 0x0ffff000) == 0x028dd000 && cond == AL) { /* add sp, sp, #imm */
            rel += (int32_t)arm_imm(insn);
            for (unsigned i = 0; i < 16; i++)
                if (saved >> i & 1 && slot[i] < rel)
                    saved &= ~(1u << i); /* popped (ftrace's nop for its mcount call) */
        } else if (!harmless(insn, a, r[15], 0x1fffu | (saved & 1u << LR))) {
            return false;
        }
    }
    if (rel > 0)
        return false;
    entry_sp = r[13] - (uint32_t)rel;
    for (unsigned i = 0; i < 16; i++)
        out[i] = saved >> i & 1 ? kr32(entry_sp + (uint32_t)slot[i]) : r[i];
    if (kmem_failed)
        return false;
    out[SP] = entry_sp;
    out[PC] = out[LR];
    for (unsigned i = 0; i < 16; i++)
        r[i] = out[i];
    return true;
}

static bool is_store(uint32_t insn)
{
    return (insn & 0x0c100000) == 0x04000000 ||                   /* str, strb */
           (insn & 0x0e100000) == 0x08000000 ||                   /* stm */
           ((insn & 0x0e000090) == 0x00000090 && (insn & 0x60) && /* strh, strd */
            !(insn & 1u << 20));
}

/* push {list}, str rN, [sp, #-4]!: a saved register (not a local spilled to the stack) */
static bool is_push(uint32_t insn)
{
    return (insn & 0x0fff0000) == 0x092d0000 || (insn & 0x0fff0fff) == 0x052d0004;
}

bool prologue_stored(uint32_t start, uint32_t end, uint32_t pc, bool frame_only)
{
    uint32_t last = start; /* just after the last store before the first call */

    kmem_failed = false;
    for (uint32_t a = start; a < end && a - start < 4 * PROLOGUE_MAX; a += 4) {
        uint32_t insn = kr32(a);
        if (kmem_failed)
            return false;
        if (is_call(insn))
            break;
        if (frame_only ? is_push(insn) : is_store(insn))
            last = a + 4;
    }
    return pc >= last;
}
