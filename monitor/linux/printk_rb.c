/* SPDX-License-Identifier: MIT */
#include "printk_rb.h"

#include "console.h"
#include "kmem.h"

/* state_var, ids and lpos are the kernel's unsigned long (kmem.h): two state bits on top */
#define DESC_ID_MASK (~(kulong_t)0 >> 2)
#define DESC_STATE(sv) ((unsigned)((sv) >> (KULONG_BITS - 2)))
enum { DESC_RESERVED, DESC_COMMITTED, DESC_FINALIZED, DESC_REUSABLE };
#define LPOS_NO_DATA 3u /* begin == next == 3: a record without text */
#define BAD_RUN_MAX 32u /* consecutive bad records that end the listing */

#define NEED_KEYS                                                                                  \
    (VMCI_BIT(VMCI_SYM_PRB) | VMCI_BIT(VMCI_PRB_DESC_RING) | VMCI_BIT(VMCI_PRB_TEXT_RING) |        \
     VMCI_BIT(VMCI_DR_COUNT_BITS) | VMCI_BIT(VMCI_DR_DESCS) | VMCI_BIT(VMCI_DR_INFOS) |            \
     VMCI_BIT(VMCI_DR_HEAD_ID) | VMCI_BIT(VMCI_DR_TAIL_ID) | VMCI_BIT(VMCI_DESC_SIZE) |            \
     VMCI_BIT(VMCI_DESC_STATE_VAR) | VMCI_BIT(VMCI_DESC_TEXT_LPOS) | VMCI_BIT(VMCI_LPOS_BEGIN) |   \
     VMCI_BIT(VMCI_LPOS_NEXT) | VMCI_BIT(VMCI_INFO_SIZE) | VMCI_BIT(VMCI_INFO_SEQ) |               \
     VMCI_BIT(VMCI_INFO_TS_NSEC) | VMCI_BIT(VMCI_INFO_TEXT_LEN) | VMCI_BIT(VMCI_DATA_SIZE_BITS) |  \
     VMCI_BIT(VMCI_DATA_DATA))

struct ring {
    const target_addr_t *o; /* VMCOREINFO values */
    target_addr_t descs, infos, data;
    uint32_t mask, size_bits, counter;
};

static target_addr_t desc_addr(const struct ring *r, uint32_t idx)
{
    return r->descs + idx * r->o[VMCI_DESC_SIZE];
}

static target_addr_t info_addr(const struct ring *r, uint32_t idx)
{
    return r->infos + idx * r->o[VMCI_INFO_SIZE];
}

static uint64_t info_seq(const struct ring *r, kulong_t id)
{
    return kr64(info_addr(r, (uint32_t)id & r->mask) + r->o[VMCI_INFO_SEQ]);
}

/* Where the text of a block [begin, next) starts and how long the block is, as the
 * kernel's get_data(). NULL: why not. */
static const char *locate(const struct ring *r, kulong_t begin, kulong_t next, target_addr_t *blk,
                          uint32_t *size)
{
    uint32_t bits = r->size_bits, wrap_size = 1u << bits;

    if (begin & 1)
        return begin == LPOS_NO_DATA && next == LPOS_NO_DATA ? NULL : "text dropped";
    if (begin >> bits == next >> bits && begin < next) {
        *blk = r->data + (begin & (wrap_size - 1));
        *size = (uint32_t)(next - begin);
    } else if ((begin + wrap_size) >> bits == next >> bits) {
        *blk = r->data; /* a block that would wrap is stored at the start */
        *size = (uint32_t)next & (wrap_size - 1);
    } else {
        return "bad data block";
    }
    return (begin | next) & 3 || *size < 4 || *size > wrap_size ? "bad data block" : NULL;
}

/* "[    1.234567] " for ts_nsec, by shift and subtract: no 64-bit division routine. */
static void prefix(uint64_t ts)
{
    unsigned long sec = 0;

    for (int b = 31; b >= 0; b--) {
        if (ts >= (uint64_t)1000000000u << b) {
            ts -= (uint64_t)1000000000u << b;
            sec |= 1ul << b;
        }
    }
    con_printf("[%5lu.%06lu] ", sec, (unsigned long)((uint32_t)ts / 1000u));
}

/* Prints record seq; false if it was bad (marked instead). */
static bool show(const struct ring *r, uint64_t seq)
{
    const target_addr_t *o = r->o;
    uint32_t idx = (uint32_t)seq & r->mask, size = 4;
    target_addr_t d = desc_addr(r, idx), info = info_addr(r, idx);
    kulong_t sv = krlong(d + o[VMCI_DESC_STATE_VAR] + r->counter);
    target_addr_t lpos = d + o[VMCI_DESC_TEXT_LPOS], blk = 0;
    uint32_t len = kr16(info + o[VMCI_INFO_TEXT_LEN]);
    uint64_t ts = kr64(info + o[VMCI_INFO_TS_NSEC]), info_seq = kr64(info + o[VMCI_INFO_SEQ]);
    const char *bad = NULL;

    if (kmem_failed) {
        bad = "does not read";
    } else if (info_seq != seq) {
        bad = "overwritten";
    } else if (DESC_STATE(sv) == DESC_REUSABLE) {
        return true; /* expired or empty: the kernel skips these too */
    } else if (DESC_STATE(sv) == DESC_RESERVED) {
        bad = "being written";
    } else if ((sv & r->mask) != idx) {
        bad = "corrupted descriptor";
    } else {
        bad =
            locate(r, krlong(lpos + o[VMCI_LPOS_BEGIN]), krlong(lpos + o[VMCI_LPOS_NEXT]), &blk, &size);
        if (!bad && blk && (krlong(blk) & DESC_ID_MASK) != (sv & DESC_ID_MASK))
            bad = "data block overwritten";
    }
    if (bad) {
        con_printf("<record %lu: %s>\n", (unsigned long)seq, bad);
        return false;
    }
    prefix(ts);
    /* the block: the descriptor's id (an unsigned long), then the text */
    for (uint32_t k = 0; k < len && k < size - sizeof(kulong_t) && !kmem_failed; k++) {
        char c = (char)kr8(blk + sizeof(kulong_t) + k);
        if (c == '\n') {
            con_puts("\n");
            prefix(ts);
            continue;
        }
        if ((c < ' ' || c > '~') && c != '\t')
            c = '?'; /* no terminal controls, 8-bit ones (CSI 0x9b) included */
        con_write(&c, 1);
    }
    if (len > size - sizeof(kulong_t))
        con_puts(" <truncated>");
    if (kmem_failed || krlong(d + o[VMCI_DESC_STATE_VAR] + r->counter) != sv)
        con_puts(" <overwritten while read>");
    con_puts("\n");
    return true;
}

int printk_rb_show(const struct vmci *v, uint32_t n)
{
    const target_addr_t *o = v->value;
    struct ring r;
    target_addr_t rb, dr, tr;
    uint32_t count_bits;
    kulong_t head;
    unsigned bad = 0;
    uint64_t first, last;

    if (!vmci_has(v, NEED_KEYS))
        return con_error("no printk ring buffer layout in VMCOREINFO");
    kmem_begin();
    r.o = o;
    r.counter = (uint32_t)o[VMCI_ATOMIC_COUNTER]; /* 0 if absent, as it is on every kernel */
    rb = krlong(o[VMCI_SYM_PRB]);
    dr = rb + o[VMCI_PRB_DESC_RING];
    tr = rb + o[VMCI_PRB_TEXT_RING];
    count_bits = kr32(dr + o[VMCI_DR_COUNT_BITS]);
    r.descs = krlong(dr + o[VMCI_DR_DESCS]);
    r.infos = krlong(dr + o[VMCI_DR_INFOS]);
    r.data = krlong(tr + o[VMCI_DATA_DATA]);
    r.size_bits = kr32(tr + o[VMCI_DATA_SIZE_BITS]);
    if (kmem_failed)
        return con_error("printk ring buffer at " TARGET_ADDR_FMT " does not read", (unsigned long)rb);
    if (count_bits > 20 || r.size_bits < 3 || r.size_bits > 30)
        return con_error("printk ring buffer at " TARGET_ADDR_FMT " looks corrupted",
                         (unsigned long)rb);
    r.mask = (1u << count_bits) - 1;
    head = krlong(dr + o[VMCI_DR_HEAD_ID] + r.counter);
    if (DESC_STATE(krlong(desc_addr(&r, (uint32_t)head & r.mask) + o[VMCI_DESC_STATE_VAR] + r.counter)) ==
        DESC_REUSABLE)
        return 0; /* the head is the bootstrap descriptor: nothing was ever logged */
    last = info_seq(&r, head);
    first = info_seq(&r, krlong(dr + o[VMCI_DR_TAIL_ID] + r.counter));
    if (kmem_failed)
        return con_error("printk ring buffer at " TARGET_ADDR_FMT " does not read", (unsigned long)rb);
    if (last < first || last - first > r.mask)
        first = last > r.mask ? last - r.mask : 0; /* inconsistent: one ring's worth */
    if (n && last - first >= n)
        first = last - n + 1;
    for (uint64_t seq = first; seq <= last && seq - first <= r.mask; seq++) {
        kmem_failed = false;
        bad = show(&r, seq) ? 0 : bad + 1;
        if (bad == BAD_RUN_MAX)
            return con_error("%u bad records in a row: not a ring buffer", BAD_RUN_MAX);
    }
    return 0;
}
