/* SPDX-License-Identifier: MIT */
#include "unwind.h"

#include "console.h"
#include "kallsyms.h"
#include "kmem.h"
#include "prologue.h"
#include "vmcoreinfo.h"

#define PAGE 4096u
#define SCAN_PAGES 16384u  /* how far the index is searched for (64 MiB) */
#define SCAN_PAST 0x400000 /* and how far past the last kernel symbol */
#define MAX_FRAMES 32u       /* the heuristic scan's lines */
#define MAX_TABLE_FRAMES 64u /* an IRQ in a softirq in an IRQ in panic is 33 deep */
#define MAX_INSN_BYTES 1024u /* 0x81 personality: 2 + 4 * 255 bytes */

static struct {
    uint32_t generation; /* kernel_generation it was searched for; 0: never */
    uint32_t start, count;
} ex;
static uint32_t text_lo, text_hi;

/* The index entry at a looks valid; *fn: its function. */
static bool entry_ok(uint32_t a, uint32_t *fn)
{
    uint32_t w1;

    kmem_failed = false;
    if (kr32(a) >> 31)
        return false;
    *fn = kprel31(a);
    w1 = kr32(a + 4);
    if (*fn < text_lo || *fn > text_hi || kmem_failed)
        return false;
    if (w1 == 1 || w1 >> 24 == 0x80)
        return true;
    return !(w1 >> 31) && kr32(kprel31(a + 4)) >> 25 == 0x40 && !kmem_failed;
}

/* n valid entries from a, functions strictly increasing; *first: the first function. */
static bool run_ok(uint32_t a, unsigned n, uint32_t *first)
{
    uint32_t prev = 0, fn;

    for (unsigned i = 0; i < n; i++, a += 8) {
        if (!entry_ok(a, &fn) || (i && fn <= prev))
            return false;
        if (!i)
            *first = fn;
        prev = fn;
    }
    return true;
}

static void find_index(void)
{
    uint32_t p = (text_lo + PAGE - 1) & ~(PAGE - 1), fn, f2, end;
    unsigned i;

    ex.count = 0;
    for (i = 0; i < SCAN_PAGES && p < text_hi + SCAN_PAST; i++, p += PAGE)
        if (run_ok(p, 8, &fn))
            break;
    if (i == SCAN_PAGES || p >= text_hi + SCAN_PAST)
        return;
    /* widen: back entry by entry (the start is within the page before p) ... */
    ex.start = p;
    for (i = 0; i < PAGE / 8 && entry_ok(ex.start - 8, &f2) && f2 < fn; i++) {
        ex.start -= 8;
        fn = f2;
    }
    /* ... forward a page at a time, then entry by entry */
    end = p;
    run_ok(end, 1, &fn);
    for (i = 0; i < SCAN_PAGES && run_ok(end + PAGE, 2, &f2) && f2 > fn; i++) {
        end += PAGE;
        fn = f2;
    }
    for (i = 0; i < PAGE / 8 && entry_ok(end + 8, &f2) && f2 > fn; i++) {
        end += 8;
        fn = f2;
    }
    ex.count = (end + 8 - ex.start) / 8;
}

bool unwind_ready(void)
{
    if (ex.generation != kernel_generation) {
        ksyms_range(&text_lo, &text_hi);
        find_index();
        ex.generation = kernel_generation;
        kmem_begin();
    }
    return ex.count != 0;
}

/* Unwinding instructions, a byte at a time (ARM EHABI 10.3). */
struct insns {
    uint32_t word, next; /* current word, address of the next one */
    int shift;           /* bit position of the next byte in word; < 0: take the next */
    unsigned words;      /* words still to come */
};

static uint32_t insn_byte(struct insns *c)
{
    if (c->shift < 0) {
        if (!c->words)
            return 0xb0; /* out of instructions: finish */
        c->word = kr32(c->next);
        c->next += 4;
        c->words--;
        c->shift = 24;
    }
    c->shift -= 8;
    return c->word >> (c->shift + 8) & 0xff;
}

/* Pops the registers in mask (bit n: rn), lowest first; sp moves unless it is popped. */
static void pop(uint32_t *vrs, uint32_t mask, bool *popped_pc)
{
    if (mask >> 15 & 1)
        *popped_pc = true; /* an exception frame: the next pc is an interrupted one */
    uint32_t vsp = vrs[13];

    for (unsigned r = 0; r < 16; r++) {
        if (mask >> r & 1) {
            vrs[r] = kr32(vsp);
            vsp += 4;
        }
    }
    if (!(mask & 1u << 13))
        vrs[13] = vsp;
}

/* a follows a branch that set lr or left through a register (bl, blx, bx: call_with_stack
 * sets lr with adr and leaves with bx): what a return address looks like */
static bool after_branch(uint32_t a)
{
    uint32_t insn;

    if (a & 3 || a <= text_lo || a > text_hi)
        return false;
    insn = kr32(a - 4);
    return !kmem_failed && ((insn & 0x0f000000) == 0x0b000000 || insn >> 25 == 0x7d ||
                            (insn & 0x0fffffd0) == 0x012fff10);
}

static uint32_t rejected; /* UNWIND_UNVERIFIED: the return address the table gave */
static bool rejected_after_call; /* ... which follows a call, but is not stored yet */

/* One frame up. interrupted: r[15] is where the context was stopped (frame #0, or what an
 * exception frame saved), not a return address, so the function may not have run its
 * prologue; *popped_pc: the table reloaded pc itself (an exception frame). */
static enum unwind_result step(uint32_t r[16], bool interrupted, bool *popped_pc)
{
    uint32_t vrs[16], lo = 0, hi = ex.count, e, w;
    struct insns c = {0, 0, 16, 0};
    bool faulted;

    *popped_pc = false;

    kmem_failed = false;
    if (!ex.count || r[15] < text_lo || r[15] > text_hi || r[15] < kprel31(ex.start))
        return UNWIND_NO_ENTRY; /* not kernel code, or before the first function */
    while (hi - lo > 1) {       /* the last entry whose function starts at or before pc */
        uint32_t mid = lo + (hi - lo) / 2;
        if (kprel31(ex.start + 8 * mid) <= r[15])
            lo = mid;
        else
            hi = mid;
    }
    e = ex.start + 8 * lo;
    w = kr32(e + 4);
    if (w == 1)
        return UNWIND_END;
    if (!(w >> 31)) { /* in .ARM.extab */
        c.next = kprel31(e + 4);
        w = kr32(c.next);
        c.next += 4;
    }
    if (w >> 24 == 0x81) {
        c.words = w >> 16 & 0xff;
        c.shift = 8;
    } else if (w >> 24 != 0x80) {
        return UNWIND_FAILED;
    }
    c.word = w;
    for (unsigned i = 0; i < 16; i++)
        vrs[i] = r[i];
    vrs[15] = 0;
    for (unsigned n = 0; n < MAX_INSN_BYTES && !kmem_failed; n++) {
        uint32_t b = insn_byte(&c), mask;
        if ((b & 0xc0) == 0x00) {
            vrs[13] += ((b & 0x3f) << 2) + 4;
        } else if ((b & 0xc0) == 0x40) {
            vrs[13] -= ((b & 0x3f) << 2) + 4;
        } else if ((b & 0xf0) == 0x80) {
            mask = (b & 0x0f) << 8 | insn_byte(&c);
            if (!mask)
                return UNWIND_FAILED; /* "refuse to unwind" */
            pop(vrs, mask << 4, popped_pc);
        } else if ((b & 0xf0) == 0x90 && (b & 0x0d) != 0x0d) {
            vrs[13] = vrs[b & 0x0f];
        } else if ((b & 0xf0) == 0xa0) {
            pop(vrs, ((2u << (b & 7)) - 1) << 4 | (b & 8) << 11, popped_pc);
        } else if (b == 0xb0) {
            break;
        } else if (b == 0xb1) {
            mask = insn_byte(&c);
            if (!mask || mask & 0xf0)
                return UNWIND_FAILED;
            pop(vrs, mask, popped_pc);
        } else if (b == 0xb2) {
            uint32_t v = 0;
            for (unsigned s = 0, more = 0x80; more && s < 32; s += 7) {
                uint32_t x = insn_byte(&c);
                v |= (x & 0x7f) << s;
                more = x & 0x80;
            }
            vrs[13] += 0x204 + (v << 2);
        } else {
            return UNWIND_FAILED; /* VFP/iWMMXt pops: not in kernel code */
        }
    }
    if (!vrs[15])
        vrs[15] = vrs[14];
    faulted = kmem_failed;
    if (interrupted) {
        /* the table describes the body; the function may have stopped before it. Where
         * the function starts is kallsyms' answer: the linker merges equal neighbouring
         * table entries, so an entry can start at an earlier function */
        struct ksym s;
        uint32_t start = ksym_lookup(r[15], &s) ? s.addr : 0, m[16];
        uint32_t end = s.size ? start + s.size : start + 4 * PROLOGUE_MAX;
        for (unsigned i = 0; i < 16; i++)
            m[i] = r[i];
        if (*popped_pc) {
            if (start && !prologue_stored(start, end, r[15], false))
                return UNWIND_PARTIAL; /* the frame it pops is not written yet */
        } else if (start && prologue_unwind(m, start)) {
            for (unsigned i = 0; i < 16; i++)
                vrs[i] = m[i];
            faulted = false;
        } else if (!faulted && (!after_branch(vrs[15]) ||
                                (start && !prologue_stored(start, end, r[15], true)))) {
            /* stale stack words, not a caller: a word after a call is no proof either when
             * the function has not stored its frame yet (a stale return address) */
            rejected = vrs[15];
            rejected_after_call = after_branch(vrs[15]);
            return UNWIND_UNVERIFIED;
        }
    }
    /* sp may jump between stacks (IRQ stack to task stack): only no progress stops */
    if (faulted || kmem_failed || (vrs[15] == r[15] && vrs[13] == r[13]))
        return UNWIND_FAILED;
    for (unsigned i = 0; i < 16; i++)
        r[i] = vrs[i];
    return UNWIND_OK;
}

enum unwind_result unwind_step(uint32_t r[16])
{
    bool popped_pc;

    return step(r, false, &popped_pc);
}

static void frame(unsigned n, uint32_t addr)
{
    con_printf("#%-2u %08x ", n, (unsigned)addr);
    ksym_print(addr);
}

/* a is in kernel code and follows a call (bl, blx): a return address (ARM code). */
static bool after_call(uint32_t a)
{
    uint32_t insn;

    if (a & 3 || a <= text_lo || a > text_hi)
        return false;
    insn = kr32(a - 4);
    return !kmem_failed && ((insn & 0x0f000000) == 0x0b000000 || insn >> 25 == 0x7d ||
                            (insn & 0x0ffffff0) == 0x012fff30);
}

/* ARM Linux's high vectors page and the stubs page after it: no unwind entries there */
#define LINUX_VECTORS 0xffff0000u

void unwind_backtrace(uint32_t regs[16], bool scan)
{
    static const char *const why[] = {
        "", "", "no unwind entry", "cannot unwind further",
        "in an exception entry that has not saved the interrupted context yet", ""};
    bool tables = unwind_ready(), interrupted = true;
    uint32_t sp = regs[13], top = (sp | (KERNEL_THREAD_SIZE - 1)) + 1;
    unsigned n = 1;

    if (tables && !scan) {
        con_printf("bt: unwind tables (.ARM.exidx at %08x, %u entries)\n", (unsigned)ex.start,
                   (unsigned)ex.count);
        for (;; n++) {
            enum unwind_result rc;
            bool stopped_here = interrupted; /* #n-1 is a context an exception stopped */
            frame(n - 1, regs[15]);
            con_puts("\n");
            if (n >= MAX_TABLE_FRAMES) {
                con_printf("bt: stopped after %u frames (fiqmon's limit)\n", n);
                return;
            }
            rc = step(regs, interrupted, &interrupted);
            if (rc == UNWIND_UNVERIFIED) {
                con_printf("bt: stopped: the table gives #%u's caller as %08x, %s: #%u has "
                           "not run the prologue the table describes\n",
                           n - 1, (unsigned)rejected,
                           rejected_after_call ? "a stale word" : "which follows no call",
                           n - 1);
                return;
            }
            if (rc == UNWIND_END && stopped_here && after_call(regs[14]) &&
                regs[14] != regs[15]) {
                /* an assembly leaf (the idle routine, a spin loop, find_next_bit) has only
                 * the linker's "cannot unwind" entry: stopped in it (#0, or a context an
                 * IRQ saved), it has not touched sp or lr, so lr is its caller */
                con_printf("bt: #%u has no unwind entry: its caller from lr\n", n - 1);
                regs[15] = regs[14];
                continue;
            }
            if (rc != UNWIND_OK) {
                if (rc != UNWIND_END)
                    con_printf("bt: stopped: %s\n", why[rc]);
                if (n == 1 && regs[15] >= LINUX_VECTORS && regs[15] < LINUX_VECTORS + 0x2000u)
                    con_puts("bt: #0 is in the kernel's exception vectors: the interrupted "
                             "context is in that mode's lr and spsr (allregs)\n");
                return;
            }
        }
    }
    kmem_failed = false;
    con_printf("bt: heuristic stack scan%s: return addresses found on the stack, stale ones "
               "too\n",
               tables ? "" : " (no unwind tables found)");
    frame(0, regs[15]);
    con_puts(" (pc)\n");
    if (after_call(regs[14])) {
        frame(n++, regs[14]);
        con_puts(" (lr)\n");
    }
    for (uint32_t a = sp; a - sp < KERNEL_THREAD_SIZE && a < top && n < MAX_FRAMES; a += 4) {
        uint32_t w = kr32(a);
        if (kmem_failed)
            break;
        if (after_call(w)) {
            frame(n++, w);
            con_printf(" (sp+0x%x)\n", (unsigned)(a - sp));
        }
    }
}
