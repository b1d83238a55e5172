/* SPDX-License-Identifier: MIT */
#include "kallsyms.h"

#include <string.h>

#include "console.h"
#include "kmem.h"

#define KSYMS_MAX (1u << 20) /* more symbols than this is not a kernel's table */
#define TOKEN_MAX 64u        /* bound on one token's length */

static struct {
    uint32_t generation; /* kernel_generation these were loaded for; 0: never */
    bool ok;
    target_addr_t names, markers, token_table, token_index, offsets, base;
    uint32_t num;
    target_addr_t lo, hi;
} ks;

static target_addr_t sym_addr(uint32_t i)
{
    return ks.base + kr32(ks.offsets + 4 * i);
}

/* Reads the length of the names entry at *off and moves *off to its first token. */
static uint32_t entry_len(uint32_t *off)
{
    uint32_t len = kr8(ks.names + (*off)++);

    if (len & 0x80)
        len = (len & 0x7f) | (uint32_t)kr8(ks.names + (*off)++) << 7;
    return len;
}

static uint32_t skip_names(uint32_t off, uint32_t count)
{
    while (count-- && !kmem_failed) {
        uint32_t len = entry_len(&off);
        off += len;
    }
    return off;
}

/* Expands the names entry at *off and moves *off past it. Without want: the name goes to
 * s (cut to fit). With want: stops at the first character that differs; true if the
 * whole name equals want. */
static bool expand(uint32_t *off, struct ksym *s, const char *want)
{
    uint32_t len = entry_len(off), start = *off;
    unsigned n = 0;
    bool typed = false;

    *off = start + len;
    for (uint32_t k = 0; k < len; k++) {
        target_addr_t t = ks.token_table + kr16(ks.token_index + 2u * kr8(ks.names + start + k));
        for (unsigned j = 0; j < TOKEN_MAX; j++) {
            char c = (char)kr8(t + j);
            if (!c || kmem_failed)
                break;
            if (!typed) {
                s->type = c;
                typed = true;
            } else if (want) {
                if (want[n] != c)
                    return false;
                n++;
            } else if (n + 1 < KSYM_NAME_MAX) {
                s->name[n++] = c > ' ' && c <= '~' ? c : '?';
            }
        }
    }
    if (want)
        return !want[n] && !kmem_failed;
    s->name[n] = '\0';
    return !kmem_failed;
}

/* The markers table is at m: its first entry is 0 and its second is where the 257th name
 * begins (checked by walking 256 names). */
static bool markers_at(target_addr_t m)
{
    return kr32(m) == 0 && (ks.num <= 256 || kr32(m + 4) == skip_names(0, 256)) && !kmem_failed;
}

static bool load(const struct vmci *v)
{
    const uint64_t need = VMCI_BIT(VMCI_SYM_KS_NAMES) | VMCI_BIT(VMCI_SYM_KS_NUM_SYMS) |
                          VMCI_BIT(VMCI_SYM_KS_TOKEN_TABLE) | VMCI_BIT(VMCI_SYM_KS_TOKEN_INDEX) |
                          VMCI_BIT(VMCI_SYM_KS_OFFSETS) | VMCI_BIT(VMCI_SYM_KS_RELATIVE_BASE);
    uint32_t nm;
    target_addr_t cand[3];

    if (!vmci_has(v, need))
        return false;
    ks.names = v->value[VMCI_SYM_KS_NAMES];
    ks.token_table = v->value[VMCI_SYM_KS_TOKEN_TABLE];
    ks.token_index = v->value[VMCI_SYM_KS_TOKEN_INDEX];
    ks.offsets = v->value[VMCI_SYM_KS_OFFSETS];
    ks.base = krlong(v->value[VMCI_SYM_KS_RELATIVE_BASE]); /* an unsigned long */
    ks.num = kr32(v->value[VMCI_SYM_KS_NUM_SYMS]);
    if (kmem_failed || ks.num < 2 || ks.num > KSYMS_MAX || kr16(ks.token_index) != 0)
        return false;
    ks.lo = sym_addr(0);
    ks.hi = sym_addr(ks.num - 1);
    if (kmem_failed || ks.lo >= ks.hi)
        return false;
    nm = (ks.num + 255) / 256;
    cand[0] = v->have & VMCI_BIT(VMCI_SYM_KS_MARKERS) ? v->value[VMCI_SYM_KS_MARKERS] : 1;
    cand[1] = ks.token_table - 4 * nm;
    cand[2] = cand[1] - ((3 * ks.num + 3) & ~3u); /* kallsyms_seqs_of_names in between */
    for (unsigned i = 0; i < 3; i++) {
        ks.markers = cand[i];
        if (markers_at(ks.markers))
            return true;
        kmem_failed = false;
    }
    /* anywhere else: right after the names, found by walking all of them once */
    ks.markers = (ks.names + skip_names(0, ks.num) + 3) & ~(target_addr_t)3;
    return markers_at(ks.markers);
}

bool ksyms_ready(const struct vmci *v)
{
    if (ks.generation != kernel_generation) {
        kmem_begin();
        ks.ok = load(v);
        ks.generation = kernel_generation;
    }
    kmem_begin();
    return ks.ok;
}

void ksyms_range(target_addr_t *lo, target_addr_t *hi)
{
    *lo = ks.lo;
    *hi = ks.hi;
}

/* Fills addr, size, type and name of symbol i (size 0 when it is the last one). */
static bool describe(uint32_t i, struct ksym *s)
{
    uint32_t off = kr32(ks.markers + 4 * (i / 256));

    off = skip_names(off, i % 256);
    s->addr = sym_addr(i);
    s->size = 0;
    for (uint32_t j = i + 1; j < ks.num && j - i < 256 && !s->size; j++)
        s->size = sym_addr(j) - s->addr; /* aliases at one address: keep looking */
    return expand(&off, s, NULL);
}

bool ksym_lookup(target_addr_t addr, struct ksym *s)
{
    uint32_t lo = 0, hi = ks.num - 1;
    target_addr_t a;

    kmem_failed = false;
    if (!ks.ok || addr < ks.lo || addr >= ks.hi)
        return false;
    /* sym_addr(lo) <= addr < sym_addr(hi) */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (sym_addr(mid) <= addr)
            lo = mid;
        else
            hi = mid;
    }
    a = sym_addr(lo);
    for (unsigned k = 0; lo > 0 && k < 256 && sym_addr(lo - 1) == a; k++)
        lo--;
    if (!describe(lo, s) || !s->size || addr - s->addr >= s->size)
        return false;
    /* only code: an address past _etext must not become "_etext+0x12345" */
    return (s->type | 0x20) == 't' || (s->type | 0x20) == 'w';
}

int ksym_find(const char *name, int max, void (*found)(const struct ksym *s))
{
    struct ksym s;
    uint32_t off = 0;
    int n = 0;

    kmem_failed = false;
    if (!ks.ok)
        return 0;
    for (uint32_t i = 0; i < ks.num && n < max && !kmem_failed; i++) {
        if (expand(&off, &s, name) && describe(i, &s)) {
            found(&s);
            n++;
        }
    }
    return kmem_failed ? -1 : n;
}

void ksym_print(target_addr_t addr)
{
    struct ksym s;

    if (ksym_lookup(addr, &s))
        con_printf("%s+0x%x/0x%x", s.name, (unsigned)(addr - s.addr), (unsigned)s.size);
    else
        con_puts("?");
}
