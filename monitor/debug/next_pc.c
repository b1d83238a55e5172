/* SPDX-License-Identifier: MIT */
/* ARM and Thumb-2 successors (ARM ARM v7-A/R, A5 and A6): the instructions that write the
 * pc are decoded; everything else falls through. */
#include "next_pc.h"

#define COND_AL 0xeu

struct decode {
    struct cpu_frame *f;
    next_pc_reader read;
    struct next_pc *out;
    uint32_t pc;
    bool failed;
};

static uint32_t sext(uint32_t v, unsigned bits)
{
    uint32_t m = 1u << (bits - 1);
    return (v ^ m) - m;
}

static unsigned popcount16(uint32_t v)
{
    unsigned n = 0;
    for (v &= 0xffffu; v; v &= v - 1)
        n++;
    return n;
}

static void add(struct decode *d, uint32_t addr)
{
    for (unsigned i = 0; i < d->out->n; i++)
        if (d->out->addr[i] == addr)
            return;
    if (d->out->n < 2)
        d->out->addr[d->out->n++] = addr;
}

/* An interworking write (BXWritePC): bit 0 selects Thumb. */
static void add_bx(struct decode *d, uint32_t target)
{
    add(d, target & 1u ? target : target & ~3u);
}

/* An exception return (SUBS pc, LDM ^): the state is the one SPSR gives back. */
static void add_return(struct decode *d, uint32_t target)
{
    const uint32_t *spsr = frame_spsr(d->f);

    add(d, spsr && (*spsr & ARM_PSR_T) ? target | 1u : target & ~3u);
}

/* Register n as an instruction reads it: the pc is 8 (ARM) or 4 (Thumb) ahead. */
static uint32_t reg(struct decode *d, unsigned n, bool thumb)
{
    if (n == 15)
        return d->pc + (thumb ? 4u : 8u);
    return *frame_reg(d->f, n);
}

static uint32_t load(struct decode *d, uint32_t addr, unsigned width)
{
    uint32_t v = 0;

    if (addr & (width - 1u)) { /* an unaligned pc load: the read is made of its bytes */
        uint32_t lo, hi;
        unsigned sh = (addr & 3u) * 8u;
        if (!d->read(addr & ~3u, 4, &lo) || !d->read((addr & ~3u) + 4u, 4, &hi)) {
            d->failed = true;
            return 0;
        }
        v = lo >> sh | hi << (32u - sh);
        return width == 4 ? v : v & 0xffffu;
    }
    if (width == 1) {
        if (!d->read(addr & ~3u, 4, &v))
            d->failed = true;
        return v >> ((addr & 3u) * 8u) & 0xffu;
    }
    if (!d->read(addr, width, &v))
        d->failed = true;
    return v;
}

static uint32_t shift(uint32_t v, unsigned type, unsigned amount, bool carry)
{
    switch (type) {
    case 0:
        return amount >= 32 ? 0 : v << amount;
    case 1:
        return amount == 0 || amount >= 32 ? 0 : v >> amount; /* (imm 0 means 32) */
    case 2:
        return amount == 0 || amount >= 32 ? (uint32_t)((int32_t)v >> 31)
                                           : (uint32_t)((int32_t)v >> amount);
    default:
        if (amount == 0) /* RRX */
            return (carry ? 0x80000000u : 0) | v >> 1;
        amount &= 31u;
        return amount ? v >> amount | v << (32u - amount) : v;
    }
}

/* ARM data-processing with Rd = pc: the result is the target. */
static bool arm_data_processing(struct decode *d, uint32_t ins, uint32_t *result)
{
    unsigned op = ins >> 21 & 0xfu;
    bool carry = (d->f->cpsr >> 29) & 1u;
    uint32_t rn = reg(d, ins >> 16 & 0xfu, false), op2;

    if (ins & (1u << 25)) {
        unsigned rot = (ins >> 8 & 0xfu) * 2u;
        uint32_t imm = ins & 0xffu;
        op2 = rot ? imm >> rot | imm << (32u - rot) : imm;
    } else {
        uint32_t rm = reg(d, ins & 0xfu, false);
        unsigned type = ins >> 5 & 3u;
        if (ins & (1u << 4)) { /* shift by a register: its bottom byte */
            unsigned amount = reg(d, ins >> 8 & 0xfu, false) & 0xffu;
            if (amount == 0 || (type == 3 && (amount & 31u) == 0))
                op2 = rm;
            else
                op2 = shift(rm, type, type == 3 ? amount & 31u : amount, carry);
        } else {
            op2 = shift(rm, type, ins >> 7 & 0x1fu, carry);
        }
    }
    switch (op) {
    case 0x0: *result = rn & op2; break;
    case 0x1: *result = rn ^ op2; break;
    case 0x2: *result = rn - op2; break;
    case 0x3: *result = op2 - rn; break;
    case 0x4: *result = rn + op2; break;
    case 0x5: *result = rn + op2 + carry; break;
    case 0x6: *result = rn - op2 - !carry; break;
    case 0x7: *result = op2 - rn - !carry; break;
    case 0xc: *result = rn | op2; break;
    case 0xd: *result = op2; break;
    case 0xe: *result = rn & ~op2; break;
    case 0xf: *result = ~op2; break;
    default: return false; /* TST, TEQ, CMP, CMN write no register */
    }
    return true;
}

static bool arm(struct decode *d)
{
    uint32_t ins, target;
    unsigned cond;

    if (!d->read(d->pc, 4, &ins))
        return false;
    d->out->length = 4;
    cond = ins >> 28;
    if (cond == 0xfu) { /* unconditional space: BLX (immediate) is the one branch */
        if ((ins >> 25 & 7u) == 5u)
            add(d, (d->pc + 8u + (sext(ins & 0xffffffu, 24) << 2) + (ins >> 23 & 2u)) | 1u);
        else
            add(d, d->pc + 4u);
        return true;
    }
    if (cond != COND_AL)
        add(d, d->pc + 4u); /* not taken */
    if ((ins >> 25 & 7u) == 5u) { /* B, BL */
        add(d, d->pc + 8u + (sext(ins & 0xffffffu, 24) << 2));
    } else if ((ins & 0x0ffffff0u) == 0x012fff10u || (ins & 0x0ffffff0u) == 0x012fff30u) {
        add_bx(d, reg(d, ins & 0xfu, false)); /* BX, BLX (register) */
    } else if ((ins >> 24 & 0xfu) == 0xfu) {
        d->out->vector = NEXT_PC_SVC;
        add(d, d->pc + 4u);
    } else if ((ins & 0x0ff000f0u) == 0x07f000f0u) {
        d->out->vector = NEXT_PC_UNDEF; /* UDF (Linux's BUG()) */
        add(d, d->pc + 4u);
    } else if ((ins >> 26 & 3u) == 1u && (ins & (1u << 20)) && (ins >> 12 & 0xfu) == 15u &&
               !((ins & (1u << 25)) && (ins & (1u << 4)))) { /* LDR pc */
        uint32_t base = reg(d, ins >> 16 & 0xfu, false), off;
        if ((ins >> 16 & 0xfu) == 15u)
            base &= ~3u;
        if (ins & (1u << 25))
            off = shift(reg(d, ins & 0xfu, false), ins >> 5 & 3u, ins >> 7 & 0x1fu,
                        (d->f->cpsr >> 29) & 1u);
        else
            off = ins & 0xfffu;
        uint32_t addr = ins & (1u << 24) ? (ins & (1u << 23) ? base + off : base - off) : base;
        target = load(d, addr, 4);
        add_bx(d, target);
    } else if ((ins >> 25 & 7u) == 4u && (ins & (1u << 20)) && (ins & (1u << 15))) {
        /* LDM with the pc: it is the highest register, at the highest address */
        unsigned n = popcount16(ins);
        uint32_t base = reg(d, ins >> 16 & 0xfu, false), addr;
        bool p = ins & (1u << 24), u = ins & (1u << 23);
        addr = u ? base + 4u * n - (p ? 0u : 4u) : base - (p ? 4u : 0u);
        if (ins & (1u << 22))
            add_return(d, load(d, addr, 4));
        else
            add_bx(d, load(d, addr, 4));
    } else if ((ins >> 26 & 3u) == 0u && (ins >> 12 & 0xfu) == 15u &&
               !(!(ins & (1u << 25)) && (ins & 0x90u) == 0x90u) && /* multiply, extra ld/st */
               !((ins >> 23 & 3u) == 2u && !(ins & (1u << 20)))) { /* misc (MRS, MSR, ...) */
        if (!arm_data_processing(d, ins, &target))
            add(d, d->pc + 4u);
        else if (ins & (1u << 20))
            add_return(d, target); /* SUBS pc, lr, #4 and the like */
        else
            add_bx(d, target);
    } else if (cond == COND_AL) {
        add(d, d->pc + 4u);
    }
    return !d->failed;
}

static bool thumb16(struct decode *d, uint32_t hw)
{
    uint32_t next = (d->pc + 2u) | 1u;

    if ((hw & 0xf000u) == 0xd000u) { /* B<c>, UDF, SVC */
        unsigned cond = hw >> 8 & 0xfu;
        add(d, next);
        if (cond == 0xfu)
            d->out->vector = NEXT_PC_SVC;
        else if (cond == 0xeu)
            d->out->vector = NEXT_PC_UNDEF;
        else
            add(d, (d->pc + 4u + (sext(hw & 0xffu, 8) << 1)) | 1u);
    } else if ((hw & 0xf800u) == 0xe000u) { /* B */
        add(d, (d->pc + 4u + (sext(hw & 0x7ffu, 11) << 1)) | 1u);
    } else if ((hw & 0xff07u) == 0x4700u) { /* BX, BLX (register) */
        add_bx(d, reg(d, hw >> 3 & 0xfu, true));
    } else if ((hw & 0xf500u) == 0xb100u) { /* CBZ, CBNZ */
        add(d, next);
        add(d, (d->pc + 4u + ((hw >> 2 & 0x3eu) | (hw >> 3 & 0x40u))) | 1u);
    } else if ((hw & 0xff00u) == 0xbd00u) { /* POP with the pc */
        add_bx(d, load(d, *frame_reg(d->f, 13) + 4u * popcount16(hw & 0xffu), 4));
    } else if ((hw & 0xff87u) == 0x4687u) { /* MOV pc, Rm */
        add(d, reg(d, hw >> 3 & 0xfu, true) | 1u);
    } else if ((hw & 0xff87u) == 0x4487u) { /* ADD pc, Rm */
        add(d, (reg(d, 15, true) + reg(d, hw >> 3 & 0xfu, true)) | 1u);
    } else {
        add(d, next);
    }
    return !d->failed;
}

static bool thumb32(struct decode *d, uint32_t hw1, uint32_t hw2)
{
    uint32_t next = (d->pc + 4u) | 1u;

    if ((hw1 & 0xf800u) == 0xf000u && (hw2 & 0x8000u)) { /* branches, misc control */
        uint32_t s = hw1 >> 10 & 1u, j1 = hw2 >> 13 & 1u, j2 = hw2 >> 11 & 1u;
        if ((hw2 & 0x5000u) == 0) { /* B<c>.W (T3), or misc control when cond is 111x */
            if ((hw1 >> 7 & 7u) == 7u) {
                if (hw1 == 0xf3deu && (hw2 & 0xff00u) == 0x8f00u) /* SUBS pc, lr, #imm */
                    add_return(d, *frame_reg(d->f, 14) - (hw2 & 0xffu));
                else
                    add(d, next);
                return !d->failed;
            }
            uint32_t imm = s << 20 | j2 << 19 | j1 << 18 | (hw1 & 0x3fu) << 12 | (hw2 & 0x7ffu) << 1;
            add(d, next);
            add(d, (d->pc + 4u + sext(imm, 21)) | 1u);
            return true;
        }
        uint32_t i1 = !(j1 ^ s), i2 = !(j2 ^ s);
        uint32_t imm = s << 24 | i1 << 23 | i2 << 22 | (hw1 & 0x3ffu) << 12 | (hw2 & 0x7ffu) << 1;
        uint32_t off = sext(imm, 25);
        if ((hw2 & 0x5000u) == 0x4000u) /* BLX (immediate): to ARM, from Align(pc, 4) */
            add(d, ((d->pc + 4u) & ~3u) + (off & ~3u));
        else /* B.W, BL */
            add(d, (d->pc + 4u + off) | 1u);
        return true;
    }
    unsigned rn = hw1 & 0xfu;
    if ((hw1 & 0xfff0u) == 0xe8d0u && (hw2 & 0xffe0u) == 0xf000u) { /* TBB, TBH */
        uint32_t base = reg(d, rn, true), rm = reg(d, hw2 & 0xfu, true);
        uint32_t entry = hw2 & 0x10u ? load(d, base + 2u * rm, 2) : load(d, base + rm, 1);
        add(d, (d->pc + 4u + 2u * entry) | 1u);
        return !d->failed;
    }
    if (((hw1 & 0xffd0u) == 0xe890u || (hw1 & 0xffd0u) == 0xe910u) && (hw2 & 0x8000u)) {
        uint32_t base = reg(d, rn, true); /* LDM.W / LDMDB with the pc */
        unsigned n = popcount16(hw2);
        add_bx(d, load(d, (hw1 & 0x0100u) ? base - 4u : base + 4u * (n - 1u), 4));
        return !d->failed;
    }
    if ((hw1 & 0xff70u) == 0xf850u && (hw2 >> 12) == 15u) { /* LDR pc (imm, reg, literal) */
        uint32_t base = reg(d, rn, true), addr;
        if (rn == 15) /* literal: U is bit 7 */
            addr = (base & ~3u) + ((hw1 & 0x80u) ? (hw2 & 0xfffu) : -(hw2 & 0xfffu));
        else if (hw1 & 0x80u) /* T3: imm12 */
            addr = base + (hw2 & 0xfffu);
        else if (hw2 & 0x800u) { /* T4: P U W imm8 */
            uint32_t off = hw2 & 0xffu;
            uint32_t moved = hw2 & 0x200u ? base + off : base - off;
            addr = hw2 & 0x400u ? moved : base;
        } else if ((hw2 & 0xfc0u) == 0) { /* register, LSL #imm2 */
            addr = base + (reg(d, hw2 & 0xfu, true) << (hw2 >> 4 & 3u));
        } else {
            add(d, next);
            return true;
        }
        add_bx(d, load(d, addr, 4));
        return !d->failed;
    }
    add(d, next);
    return true;
}

static bool thumb(struct decode *d)
{
    uint32_t hw1, hw2;
    bool ok;

    if (!d->read(d->pc, 2, &hw1))
        return false;
    bool in_it = ((d->f->cpsr >> 25 & 3u) | (d->f->cpsr >> 8 & 0xfcu)) != 0;
    if ((hw1 >> 11) >= 0x1du) {
        if (!d->read(d->pc + 2u, 2, &hw2))
            return false;
        d->out->length = 4;
        ok = thumb32(d, hw1, hw2);
    } else {
        d->out->length = 2;
        ok = thumb16(d, hw1);
    }
    if (in_it) /* conditional: not taken goes on */
        add(d, (d->pc + d->out->length) | 1u);
    return ok;
}

bool next_pc(struct cpu_frame *f, next_pc_reader read, struct next_pc *out)
{
    struct decode d = {f, read, out, f->pc & ~1u, false};

    out->n = 0;
    out->vector = NEXT_PC_NO_VECTOR;
    out->length = 0;
    bool ok = f->cpsr & ARM_PSR_T ? thumb(&d) : arm(&d);
    return ok && out->n > 0;
}
