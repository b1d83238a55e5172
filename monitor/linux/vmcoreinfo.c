/* SPDX-License-Identifier: MIT */
#include "vmcoreinfo.h"

#include "parse.h"

#include <string.h>

#include "kmem.h"
#include "platform.h"

/* FNV-1a of each wanted key, in enum vmci_key order (test_vmcoreinfo.c recomputes them
 * from these names). */
const uint32_t vmci_key_hash[VMCI_KEYS + 1] = {
    0xa13b0eb7u, /* PAGESIZE */
    0xc1fbe6d4u, /* OFFSET(uts_namespace.name) */
    0x79e608d8u, /* OFFSET(printk_ringbuffer.desc_ring) */
    0x78229157u, /* OFFSET(printk_ringbuffer.text_data_ring) */
    0xb277f9c8u, /* OFFSET(prb_desc_ring.count_bits) */
    0x3d3a0df4u, /* OFFSET(prb_desc_ring.descs) */
    0x43670aedu, /* OFFSET(prb_desc_ring.infos) */
    0xe8458f84u, /* OFFSET(prb_desc_ring.head_id) */
    0x48c0a4d4u, /* OFFSET(prb_desc_ring.tail_id) */
    0x1a803273u, /* SIZE(prb_desc) */
    0xf598747eu, /* OFFSET(prb_desc.state_var) */
    0x8dee0ab5u, /* OFFSET(prb_desc.text_blk_lpos) */
    0x4b00ce30u, /* OFFSET(prb_data_blk_lpos.begin) */
    0xafb2829cu, /* OFFSET(prb_data_blk_lpos.next) */
    0x59f37e8cu, /* SIZE(printk_info) */
    0xbc2c8a81u, /* OFFSET(printk_info.seq) */
    0x0aa2feb7u, /* OFFSET(printk_info.ts_nsec) */
    0x4837995bu, /* OFFSET(printk_info.text_len) */
    0xdd830d31u, /* OFFSET(prb_data_ring.size_bits) */
    0xc89a7b63u, /* OFFSET(prb_data_ring.data) */
    0x38b0d122u, /* OFFSET(atomic_long_t.counter) */
    0xd4fa3061u, /* NUMBER(VA_BITS) */
    0x317b98c9u, /* SYMBOL(init_uts_ns) */
    0x32560018u, /* SYMBOL(prb) */
    0xb6d8adf7u, /* SYMBOL(kallsyms_names) */
    0x618cd8e0u, /* SYMBOL(kallsyms_num_syms) */
    0xd5d9c6a5u, /* SYMBOL(kallsyms_token_table) */
    0xeb9332c5u, /* SYMBOL(kallsyms_token_index) */
    0x89d8b737u, /* SYMBOL(kallsyms_offsets) */
    0xd03945afu, /* SYMBOL(kallsyms_relative_base) */
    0x52fd64aau, /* SYMBOL(kallsyms_markers) */
    0xa6707528u, /* SYMBOL(swapper_pg_dir) */
    0xb59e25a7u, /* NUMBER(kimage_voffset) */
    0xbee4a9acu, /* OSRELEASE */
};

enum { P_KEY, P_VALUE, P_SKIP };

uint32_t vmci_hash(uint32_t hash, uint8_t c)
{
    return (hash ^ c) * 16777619u;
}

static void line_start(struct vmci_parser *p)
{
    p->state = P_KEY;
    p->hash = VMCI_HASH_START;
    p->hex = p->dec = 0;
    p->digits = p->len = 0;
    p->key = -1;
}

void vmci_parse_start(struct vmci_parser *p, struct vmci *out)
{
    memset(out, 0, sizeof(*out));
    p->out = out;
    line_start(p);
}

static void line_end(struct vmci_parser *p)
{
    struct vmci *v = p->out;
    int k = p->key;

    if (p->state == P_VALUE && k >= 0 && p->digits) {
        if (k == VMCI_OSRELEASE) {
            v->release[p->len] = '\0'; /* its bytes went straight into release */
        } else if (!(v->have & VMCI_BIT(k))) {
            v->have |= VMCI_BIT(k);
            v->value[k] = k >= VMCI_FIRST_SYMBOL ? p->hex : p->dec;
        }
    }
    line_start(p);
}

bool vmci_parse_byte(struct vmci_parser *p, uint8_t c)
{
    if (c == '\0') { /* the end: a last line without its newline was cut short */
        if (p->key == VMCI_OSRELEASE && p->state == P_VALUE)
            p->out->release[0] = '\0'; /* its bytes went straight into release */
        line_start(p);
        return false;
    }
    if (c == '\n') {
        line_end(p);
        return true;
    }
    if (p->state == P_KEY) {
        if (c != '=') {
            p->hash = vmci_hash(p->hash, c);
            return true;
        }
        p->state = P_VALUE;
        for (unsigned k = 0; k <= VMCI_KEYS; k++)
            if (vmci_key_hash[k] == p->hash)
                p->key = (int8_t)k;
        if (p->key == VMCI_OSRELEASE && p->out->release[0])
            p->state = P_SKIP; /* the first one wins */
        return true;
    }
    if (p->state != P_VALUE || p->key < 0)
        return true;
    if (p->key == VMCI_OSRELEASE) {
        if (c <= ' ' || c > '~' || p->len == VMCI_RELEASE_MAX) {
            p->out->release[0] = '\0';
            p->state = P_SKIP;
        } else {
            p->out->release[p->len++] = (char)c;
            p->digits = 1;
        }
        return true;
    }
    int digit = parse_hex_digit((char)c);
    unsigned d = digit < 0 ? 16u : (unsigned)digit;
    bool hex = p->key >= VMCI_FIRST_SYMBOL;
    if (hex && c == 'x' && p->digits == 1 && !p->hex && !p->len) { /* "0x": once */
        p->len = 1;
        return true;
    }
    bool too_big = hex ? p->hex >> (8 * sizeof(p->hex) - 4) != 0 : p->dec > (0xffffffffu - d) / 10;
    if (d >= (hex ? 16u : 10u) || too_big) {
        p->state = P_SKIP; /* not a number, or wider than the target (decimal: 32 bits) */
        return true;
    }
    p->hex = p->hex << 4 | d;
    p->dec = p->dec * 10 + d;
    p->digits = 1;
    return true;
}

/* --- finding it in the running kernel ------------------------------------------------ */

#define VMCI_PAGE 4096u /* ARM Linux pages; VMCOREINFO is page-aligned */

static struct vmci kinfo;
static uint32_t kinfo_pa = 1; /* 1: none cached */
uint32_t kernel_generation;

static const char osrelease[] = "OSRELEASE=";

/* The page at pa starts like VMCOREINFO (physical reads). */
static bool page_head(uint32_t pa)
{
    uint32_t w;

    for (unsigned i = 0; i < 8; i += 4) {
        if (!port_mem_read(pa + i, 4, &w) || memcmp(&w, osrelease + i, 4) != 0)
            return false;
    }
    return true;
}

/* Parses the page at pa (physical reads, at most one page). */
static void parse_page(uint32_t pa, struct vmci *out)
{
    struct vmci_parser p;
    uint32_t w = 0;

    vmci_parse_start(&p, out);
    for (unsigned i = 0; i < VMCI_PAGE; i++) {
        if (i % 4 == 0 && !port_mem_read(pa + i, 4, &w))
            break;
        if (!vmci_parse_byte(&p, (uint8_t)(w >> (8 * (i % 4)))))
            return;
    }
    vmci_parse_byte(&p, '\0');
}

bool kernel_uts(const struct vmci *v, uint32_t field, char *buf)
{
    target_addr_t base = v->value[VMCI_SYM_INIT_UTS_NS] + v->value[VMCI_UTS_NAME] + field;
    unsigned i;

    kmem_begin();
    for (i = 0; i < VMCI_RELEASE_MAX; i++) {
        char c = (char)kr8(base + i);
        if (!c)
            break;
        buf[i] = c < ' ' || c > '~' ? '?' : c;
    }
    buf[i] = '\0';
    return !kmem_failed && i < VMCI_RELEASE_MAX;
}

/* The kernel running now is the one this VMCOREINFO describes (virtual reads). A kernel
 * found for the first time (!known) has its uts version recorded; a known one must still
 * show the same. */
static bool describes_running_kernel(struct vmci *v, bool known)
{
    char uts[VMCI_RELEASE_MAX + 1];

    port_mem_space(PORT_MEM_VIRTUAL);
#if FIQMON_AARCH64
    /* its own tables, for when the live ones do not map it (kmem.h) */
    if (vmci_has(v, VMCI_BIT(VMCI_SYM_SWAPPER_PG_DIR) | VMCI_BIT(VMCI_KIMAGE_VOFFSET)))
        kmem_kernel_tables((uint64_t)v->value[VMCI_SYM_SWAPPER_PG_DIR] -
                               (uint64_t)v->value[VMCI_KIMAGE_VOFFSET],
                           vmci_has(v, VMCI_BIT(VMCI_VA_BITS)) ? (unsigned)v->value[VMCI_VA_BITS]
                                                               : 48u);
    else
        kmem_kernel_tables(0, 0);
#endif
    if (!vmci_has(v, VMCI_BIT(VMCI_PAGESIZE) | VMCI_BIT(VMCI_SYM_INIT_UTS_NS)) || !v->release[0] ||
        !kernel_uts(v, UTS_RELEASE_OFFSET, uts) || strcmp(uts, v->release))
        return false;
    if (!kernel_uts(v, UTS_VERSION_OFFSET, uts))
        return false;
    if (!known)
        memcpy(v->version, uts, sizeof(uts));
    return strcmp(uts, v->version) == 0;
}

void kernel_vmcoreinfo_forget(void)
{
    kinfo_pa = 1;
}

const struct vmci *kernel_vmcoreinfo(bool search)
{
    const struct boot_target *t = port_boot_target();

    port_mem_space(PORT_MEM_PHYSICAL);
    if (kinfo_pa != 1 && page_head(kinfo_pa) && describes_running_kernel(&kinfo, true))
        return &kinfo;
    kinfo_pa = 1;
    for (uint32_t off = 0; search && off < t->ram_size; off += VMCI_PAGE) {
        uint32_t pa = t->ram_base + off;
        port_mem_space(PORT_MEM_PHYSICAL);
        if (!page_head(pa))
            continue;
        parse_page(pa, &kinfo);
        if (describes_running_kernel(&kinfo, false)) {
            kinfo_pa = pa;
            kernel_generation++;
            return &kinfo;
        }
    }
    port_mem_space(PORT_MEM_VIRTUAL);
#if FIQMON_AARCH64
    kmem_kernel_tables(0, 0);
#endif
    return NULL;
}
