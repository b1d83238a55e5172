/* SPDX-License-Identifier: MIT */
#include "kernel_fixture.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "vmcoreinfo.h"

struct kfix_prb_layout kfix_layout;
struct kfix_kallsyms_addrs kfix_ks;
static bool have_kallsyms;

void kfix_w32(uint32_t addr, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};

    fake_mem_write(addr, b, 4);
}

uint32_t kfix_r32(uint32_t addr)
{
    const uint8_t *b = fake_mem(addr);

    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static void w16(uint32_t addr, uint16_t v)
{
    uint8_t b[2] = {(uint8_t)v, (uint8_t)(v >> 8)};

    fake_mem_write(addr, b, 2);
}

static void w64(uint32_t addr, uint64_t v)
{
    kfix_w32(addr, (uint32_t)v);
    kfix_w32(addr + 4, (uint32_t)(v >> 32));
}

void kfix_layout_default(void)
{
    /* struct printk_info (88 bytes on 32-bit), prb_desc (12), printk_ringbuffer (44) */
    kfix_layout = (struct kfix_prb_layout){
        .desc_size = 12,
        .state_var = 0,
        .text_lpos = 4,
        .lpos_begin = 0,
        .lpos_next = 4,
        .info_size = 88,
        .info_seq = 0,
        .info_ts = 8,
        .info_text_len = 16,
        .rb_desc_ring = 0,
        .rb_text_ring = 24,
        .dr_count_bits = 0,
        .dr_descs = 4,
        .dr_infos = 8,
        .dr_head = 12,
        .dr_tail = 16,
        .data_size_bits = 0,
        .data_data = 4,
        .data_head = 8,
        .data_tail = 12,
    };
}

void kfix_reset(void)
{
    fake_port_reset();
    fake_mem_map(KFIX_VA_BASE, KFIX_VA_SIZE);
    fake_mem_map(KFIX_STACK_BASE, KFIX_STACK_SIZE);
    kernel_vmcoreinfo_forget();
    kfix_layout_default();
    have_kallsyms = false;
}

/* --- VMCOREINFO ------------------------------------------------------------------------- */

static char vmci_text[4096];

static void line(size_t *n, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line(size_t *n, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    *n += (size_t)vsnprintf(vmci_text + *n, sizeof(vmci_text) - *n, fmt, ap);
    va_end(ap);
    if (*n >= sizeof(vmci_text))
        fail_msg("kfix: VMCOREINFO text over a page");
}

const char *kfix_vmcoreinfo_text(void)
{
    const struct kfix_prb_layout *l = &kfix_layout;
    size_t n = 0;

    /* the order and the unrelated lines of Debian's 6.1 kernel */
    line(&n, "OSRELEASE=%s\n", KFIX_RELEASE);
    line(&n, "BUILD-ID=7fabb78ae97af51e834ff4fa2c129159a6490853\nPAGESIZE=4096\n");
    line(&n, "SYMBOL(init_uts_ns)=%x\nOFFSET(uts_namespace.name)=0\n", KFIX_UTS);
    line(&n, "SYMBOL(node_online_map)=c140b5b4\nSYMBOL(swapper_pg_dir)=c0204000\n");
    line(&n, "SYMBOL(_stext)=%x\nSIZE(page)=36\nOFFSET(page.flags)=0\n", KFIX_STEXT);
    line(&n, "LENGTH(zone.free_area)=12\n");
    line(&n, "SYMBOL(prb)=%x\nSYMBOL(printk_rb_static)=%x\nSYMBOL(clear_seq)=c15af5a0\n",
         KFIX_PRB_PTR, KFIX_RING);
    line(&n, "SIZE(printk_ringbuffer)=44\nOFFSET(printk_ringbuffer.desc_ring)=%u\n",
         l->rb_desc_ring);
    line(&n, "OFFSET(printk_ringbuffer.text_data_ring)=%u\nOFFSET(printk_ringbuffer.fail)=40\n",
         l->rb_text_ring);
    line(&n, "SIZE(prb_desc_ring)=24\nOFFSET(prb_desc_ring.count_bits)=%u\n", l->dr_count_bits);
    line(&n, "OFFSET(prb_desc_ring.descs)=%u\nOFFSET(prb_desc_ring.infos)=%u\n", l->dr_descs,
         l->dr_infos);
    line(&n, "OFFSET(prb_desc_ring.head_id)=%u\nOFFSET(prb_desc_ring.tail_id)=%u\n", l->dr_head,
         l->dr_tail);
    line(&n, "SIZE(prb_desc)=%u\nOFFSET(prb_desc.state_var)=%u\n", l->desc_size, l->state_var);
    line(&n, "OFFSET(prb_desc.text_blk_lpos)=%u\nSIZE(prb_data_blk_lpos)=8\n", l->text_lpos);
    line(&n, "OFFSET(prb_data_blk_lpos.begin)=%u\nOFFSET(prb_data_blk_lpos.next)=%u\n",
         l->lpos_begin, l->lpos_next);
    line(&n, "SIZE(printk_info)=%u\nOFFSET(printk_info.seq)=%u\n", l->info_size, l->info_seq);
    line(&n, "OFFSET(printk_info.ts_nsec)=%u\nOFFSET(printk_info.text_len)=%u\n", l->info_ts,
         l->info_text_len);
    line(&n, "OFFSET(printk_info.caller_id)=20\nOFFSET(printk_info.dev_info)=24\n");
    line(&n, "SIZE(dev_printk_info)=64\nOFFSET(dev_printk_info.subsystem)=0\n");
    line(&n, "LENGTH(printk_info_subsystem)=16\nSIZE(prb_data_ring)=16\n");
    line(&n, "OFFSET(prb_data_ring.size_bits)=%u\nOFFSET(prb_data_ring.data)=%u\n",
         l->data_size_bits, l->data_data);
    line(&n, "OFFSET(prb_data_ring.head_lpos)=%u\nOFFSET(prb_data_ring.tail_lpos)=%u\n",
         l->data_head, l->data_tail);
    line(&n, "SIZE(atomic_long_t)=4\nOFFSET(atomic_long_t.counter)=0\nSIZE(latched_seq)=24\n");
    line(&n, "NUMBER(PG_lru)=4\nNUMBER(PAGE_BUDDY_MAPCOUNT_VALUE)=-129\n");
    if (have_kallsyms) {
        line(&n, "SYMBOL(kallsyms_names)=%x\nSYMBOL(kallsyms_num_syms)=%x\n", kfix_ks.names,
             kfix_ks.num_syms);
        line(&n, "SYMBOL(kallsyms_token_table)=%x\nSYMBOL(kallsyms_token_index)=%x\n",
             kfix_ks.token_table, kfix_ks.token_index);
        line(&n, "SYMBOL(kallsyms_offsets)=%x\nSYMBOL(kallsyms_relative_base)=%x\n",
             kfix_ks.offsets, kfix_ks.relative_base);
    }
    return vmci_text;
}

static bool publish_markers;

void kfix_vmcoreinfo_write(uint32_t pa, const char *text)
{
    size_t len = strlen(text) + 1;

    if (len > 4096)
        fail_msg("kfix: VMCOREINFO over a page");
    memset(fake_mem(pa), 0, 4096);
    fake_mem_write(pa, text, len);
}

void kfix_publish(void)
{
    char text[4096 + 64];

    snprintf(text, sizeof(text), "%s", kfix_vmcoreinfo_text());
    if (have_kallsyms && publish_markers)
        snprintf(text + strlen(text), sizeof(text) - strlen(text), "SYMBOL(kallsyms_markers)=%x\n",
                 kfix_ks.markers);
    kfix_vmcoreinfo_write(KFIX_VMCI_PA, text);
}

void kfix_uts(const char *release, const char *version)
{
    /* struct new_utsname: six 65-byte fields; release is the third, version the fourth */
    memset(fake_mem(KFIX_UTS), 0, 6 * 65);
    fake_mem_write(KFIX_UTS, "Linux", 5);
    fake_mem_write(KFIX_UTS + 65, "(none)", 6);
    fake_mem_write(KFIX_UTS + 130, release, strlen(release));
    fake_mem_write(KFIX_UTS + 195, version, strlen(version));
    fake_mem_write(KFIX_UTS + 260, "armv7l", 6);
}

void kfix_kernel(void)
{
    kfix_uts(KFIX_RELEASE, KFIX_VERSION);
    kfix_ring_init(5, 10);
    kfix_publish();
}

/* --- printk ring buffer (kernel/printk/printk_ringbuffer.[ch], 32-bit) ------------------- */

#define SV_SHIFT 30
#define ID_MASK 0x3fffffffu
#define ST_RESERVED 0u
#define ST_FINALIZED 2u
#define ST_REUSABLE 3u
#define FAILED_LPOS 1u
#define MAX_LIVE 4096u

static struct {
    unsigned count_bits, size_bits;
    uint32_t descs, infos, data;
    uint32_t head_id, tail_id, head_lpos, tail_lpos;
    uint64_t next_seq;
    /* records whose descriptors are not yet reusable, oldest first */
    struct {
        uint64_t seq;
        uint32_t id, begin, next;
    } live[MAX_LIVE];
    unsigned live_first, live_count;
} rb;

static uint32_t count(void)
{
    return 1u << rb.count_bits;
}

static uint32_t data_size(void)
{
    return 1u << rb.size_bits;
}

static uint32_t desc_of(uint32_t id)
{
    return rb.descs + (id & (count() - 1)) * kfix_layout.desc_size;
}

static uint32_t info_of(uint32_t id)
{
    return rb.infos + (id & (count() - 1)) * kfix_layout.info_size;
}

static void put_rb_header(void)
{
    const struct kfix_prb_layout *l = &kfix_layout;
    uint32_t dr = KFIX_RING + l->rb_desc_ring, tr = KFIX_RING + l->rb_text_ring;

    kfix_w32(KFIX_PRB_PTR, KFIX_RING);
    kfix_w32(dr + l->dr_count_bits, rb.count_bits);
    kfix_w32(dr + l->dr_descs, rb.descs);
    kfix_w32(dr + l->dr_infos, rb.infos);
    kfix_w32(dr + l->dr_head, rb.head_id);
    kfix_w32(dr + l->dr_tail, rb.tail_id);
    kfix_w32(tr + l->data_size_bits, rb.size_bits);
    kfix_w32(tr + l->data_data, rb.data);
    kfix_w32(tr + l->data_head, rb.head_lpos);
    kfix_w32(tr + l->data_tail, rb.tail_lpos);
}

static void set_state(uint32_t id, uint32_t state)
{
    kfix_w32(desc_of(id) + kfix_layout.state_var, state << SV_SHIFT | (id & ID_MASK));
}

static void set_lpos(uint32_t id, uint32_t begin, uint32_t next)
{
    uint32_t lp = desc_of(id) + kfix_layout.text_lpos;

    kfix_w32(lp + kfix_layout.lpos_begin, begin);
    kfix_w32(lp + kfix_layout.lpos_next, next);
}

void kfix_ring_init(unsigned count_bits, unsigned size_bits)
{
    const struct kfix_prb_layout *l = &kfix_layout;
    uint32_t desc0_id;

    memset(&rb, 0, sizeof(rb));
    rb.count_bits = count_bits;
    desc0_id = (0u - (count() + 1)) & ID_MASK; /* DESC0_ID */
    rb.size_bits = size_bits;
    rb.descs = KFIX_RING_MEM;
    rb.infos = rb.descs + count() * l->desc_size;
    rb.data = (rb.infos + count() * l->info_size + 7) & ~7u;
    if (rb.data + data_size() > KFIX_VA_BASE + KFIX_VA_SIZE)
        fail_msg("kfix: ring does not fit");
    memset(fake_mem(rb.descs), 0, rb.data + data_size() - rb.descs);
    /* DEFINE_PRINTKRB: descriptor 0's seq is -count (incremented to 0 on first use); the
     * last descriptor is the initial head and tail, reusable, seq 0, without data */
    w64(info_of(0) + l->info_seq, (uint64_t)0 - count());
    rb.head_id = rb.tail_id = desc0_id;
    set_state(desc0_id, ST_REUSABLE);
    set_lpos(desc0_id, FAILED_LPOS, FAILED_LPOS);
    rb.head_lpos = rb.tail_lpos = (uint32_t)0 - data_size(); /* BLK0_LPOS */
    put_rb_header();
}

/* The oldest live record becomes reusable and its data block free (data_push_tail). */
static void retire_oldest(void)
{
    unsigned i = rb.live_first;

    if (!rb.live_count)
        fail_msg("kfix: nothing to retire");
    set_state(rb.live[i].id, ST_REUSABLE);
    if (!(rb.live[i].begin & 1))
        rb.tail_lpos = rb.live[i].next;
    rb.live_first = (i + 1) % MAX_LIVE;
    rb.live_count--;
}

static uint32_t next_lpos(uint32_t begin, uint32_t size)
{
    uint32_t next = begin + size;

    if (begin >> rb.size_bits == next >> rb.size_bits)
        return next;
    return (next & ~(data_size() - 1)) + size; /* stored at the start of the next wrap */
}

static uint64_t reserve(uint64_t ts, const char *text, size_t copy, uint32_t state)
{
    const struct kfix_prb_layout *l = &kfix_layout;
    uint32_t id = (rb.head_id + 1) & ID_MASK, len = (uint32_t)strlen(text);
    uint32_t size = (4 + len + 3) & ~3u, begin, next, blk;
    uint64_t seq = rb.next_seq++;

    if (size > data_size() - 4) /* data_check_size(): room for the next block's id */
        fail_msg("kfix: record too long for the data ring");
    /* desc_reserve: the descriptor ring is full when the new id reaches the tail's index */
    if ((id & (count() - 1)) == (rb.tail_id & (count() - 1))) {
        if (rb.live_count && rb.live[rb.live_first].id == rb.tail_id)
            retire_oldest();
        rb.tail_id = (rb.tail_id + 1) & ID_MASK;
    }
    /* data_alloc: push the data tail until the block fits */
    begin = rb.head_lpos;
    next = next_lpos(begin, size);
    while (next - rb.tail_lpos > data_size())
        retire_oldest();
    blk = rb.data + (begin & (data_size() - 1));
    kfix_w32(blk, id);
    if (begin >> rb.size_bits != next >> rb.size_bits) {
        blk = rb.data; /* wrapping blocks store their data (and again the id) at the start */
        kfix_w32(blk, id);
    }
    fake_mem_write(blk + 4, text, copy);
    rb.head_lpos = next;
    rb.head_id = id;
    set_lpos(id, begin, next);
    w64(info_of(id) + l->info_seq, seq);
    w64(info_of(id) + l->info_ts, ts);
    w16(info_of(id) + l->info_text_len, (uint16_t)len);
    set_state(id, state);
    unsigned slot = (rb.live_first + rb.live_count) % MAX_LIVE;
    rb.live[slot].seq = seq;
    rb.live[slot].id = id;
    rb.live[slot].begin = begin;
    rb.live[slot].next = next;
    rb.live_count++;
    put_rb_header();
    return seq;
}

uint64_t kfix_ring_add(uint64_t ts_nsec, const char *text)
{
    return reserve(ts_nsec, text, strlen(text), ST_FINALIZED);
}

uint64_t kfix_ring_reserve(uint64_t ts_nsec, const char *text)
{
    return reserve(ts_nsec, text, strlen(text) / 2, ST_RESERVED);
}

static unsigned live_index(uint64_t seq)
{
    for (unsigned k = 0; k < rb.live_count; k++) {
        unsigned i = (rb.live_first + k) % MAX_LIVE;
        if (rb.live[i].seq == seq)
            return i;
    }
    fail_msg("kfix: record %llu is not live", (unsigned long long)seq);
    abort();
}

uint32_t kfix_desc(uint64_t seq)
{
    return desc_of(rb.live[live_index(seq)].id);
}

uint32_t kfix_info(uint64_t seq)
{
    return info_of(rb.live[live_index(seq)].id);
}

uint32_t kfix_block(uint64_t seq)
{
    unsigned i = live_index(seq);
    uint32_t begin = rb.live[i].begin, next = rb.live[i].next;

    if (begin >> rb.size_bits != next >> rb.size_bits)
        return rb.data;
    return rb.data + (begin & (data_size() - 1));
}

/* --- kallsyms (scripts/kallsyms.c output, base-relative) --------------------------------- */

/* Token numbers 0x20-0x7e stand for themselves; the others for these strings. */
static const char *const long_tokens[] = {
    "t_",    "T_",   "tmount", "_block", "_root", "kernel_", "init", "_init",
    "panic", "ret_", "from",   "_fork",  "name",  "space",   "Tpr",  "ep",
};

static const char *token(unsigned t)
{
    static char one[2];

    if (t >= 0x20 && t <= 0x7e) {
        one[0] = (char)t;
        one[1] = '\0';
        return one;
    }
    if (t < sizeof(long_tokens) / sizeof(long_tokens[0]))
        return long_tokens[t];
    return "";
}

/* Greedy tokenization of s; returns the number of tokens written to out. */
static unsigned tokenize(const char *s, uint8_t *out, unsigned max)
{
    unsigned n = 0;

    while (*s && n < max) {
        unsigned best = (uint8_t)*s, best_len = 1;
        for (unsigned t = 0; t < sizeof(long_tokens) / sizeof(long_tokens[0]); t++) {
            size_t l = strlen(long_tokens[t]);
            if (l > best_len && strncmp(s, long_tokens[t], l) == 0) {
                best = t;
                best_len = (unsigned)l;
            }
        }
        out[n++] = (uint8_t)best;
        s += best_len;
    }
    return n;
}

void kfix_kallsyms(const struct kfix_sym *syms, unsigned n, enum kfix_markers where)
{
    uint32_t base = syms[0].addr, a = KFIX_KALLSYMS, names_len = 0;
    unsigned nm = (n + 255) / 256;
    uint32_t *markers = calloc(nm, 4);

    /* offsets, relative base, count */
    kfix_ks.offsets = a;
    for (unsigned i = 0; i < n; i++)
        kfix_w32(a + 4 * i, syms[i].addr - base);
    a += 4 * n;
    kfix_ks.relative_base = a;
    kfix_w32(a, base);
    kfix_ks.num_syms = a + 4;
    kfix_w32(a + 4, n);
    kfix_ks.names = a + 8;
    /* names: a length (two bytes when 0x80 is set), then token numbers */
    for (unsigned i = 0; i < n; i++) {
        char full[600];
        uint8_t toks[600];
        unsigned len;
        if (i % 256 == 0)
            markers[i / 256] = names_len;
        snprintf(full, sizeof(full), "%c%s", syms[i].type, syms[i].name);
        len = tokenize(full, toks, sizeof(toks));
        uint32_t p = kfix_ks.names + names_len;
        if (len > 0x7f) {
            uint8_t lb[2] = {(uint8_t)(0x80 | (len & 0x7f)), (uint8_t)(len >> 7)};
            fake_mem_write(p, lb, 2);
            names_len += 2;
        } else {
            uint8_t lb = (uint8_t)len;
            fake_mem_write(p, &lb, 1);
            names_len += 1;
        }
        fake_mem_write(kfix_ks.names + names_len, toks, len);
        names_len += len;
    }
    a = (kfix_ks.names + names_len + 3) & ~3u;
    kfix_ks.markers = a;
    for (unsigned i = 0; i < nm; i++)
        kfix_w32(a + 4 * i, markers[i]);
    a += 4 * nm;
    if (where == KFIX_MARKERS_BEFORE_SEQS) {
        for (unsigned i = 0; i < n; i++) { /* kallsyms_seqs_of_names: big-endian 3 bytes */
            uint8_t s3[3] = {(uint8_t)(i >> 16), (uint8_t)(i >> 8), (uint8_t)i};
            fake_mem_write(a + 3 * i, s3, 3);
        }
        a = (a + 3 * n + 3) & ~3u;
    }
    if (where == KFIX_MARKERS_ELSEWHERE)
        a += 0x100; /* not what scripts/kallsyms writes: only the slow search finds them */
    /* token table and index */
    kfix_ks.token_table = a;
    uint32_t off = 0;
    uint32_t index = 0;
    uint16_t offs[256];
    for (unsigned t = 0; t < 256; t++) {
        const char *s = token(t);
        offs[t] = (uint16_t)off;
        fake_mem_write(a + off, s, strlen(s) + 1);
        off += (uint32_t)strlen(s) + 1;
    }
    index = (a + off + 3) & ~3u;
    kfix_ks.token_index = index;
    for (unsigned t = 0; t < 256; t++)
        w16(index + 2 * t, offs[t]);
    free(markers);
    have_kallsyms = true;
    publish_markers = where == KFIX_MARKERS_PUBLISHED;
}

/* --- .ARM.exidx / .ARM.extab (ARM EHABI) ------------------------------------------------ */

static uint32_t prel31(uint32_t from, uint32_t to)
{
    return (to - from) & 0x7fffffffu;
}

uint32_t kfix_exidx(uint32_t at, const struct kfix_fn *fns, unsigned n)
{
    uint32_t tab = at + 8 * n;

    for (unsigned i = 0; i < n; i++) {
        const struct kfix_fn *f = &fns[i];
        uint32_t e = at + 8 * i;
        kfix_w32(e, prel31(e, f->addr));
        if (f->cantunwind) {
            kfix_w32(e + 4, 1);
        } else if (f->insns_len <= 3) {
            uint32_t w = 0x80000000u;
            for (unsigned k = 0; k < 3; k++)
                w |= (uint32_t)(k < f->insns_len ? (uint8_t)f->insns[k] : 0xb0) << (16 - 8 * k);
            kfix_w32(e + 4, w);
        } else {
            /* personality 0x81: two bytes in the first word, four in each further one */
            unsigned extra = (f->insns_len - 2 + 3) / 4;
            uint8_t b[2 + 4 * 255];
            memset(b, 0xb0, sizeof(b));
            memcpy(b, f->insns, f->insns_len);
            kfix_w32(e + 4, prel31(e + 4, tab));
            kfix_w32(tab, 0x81000000u | extra << 16 | (uint32_t)b[0] << 8 | b[1]);
            for (unsigned k = 0; k < extra; k++) {
                const uint8_t *q = b + 2 + 4 * k;
                kfix_w32(tab + 4 + 4 * k,
                         (uint32_t)q[0] << 24 | (uint32_t)q[1] << 16 | (uint32_t)q[2] << 8 | q[3]);
            }
            tab += 4 + 4 * extra;
        }
    }
    return tab;
}
