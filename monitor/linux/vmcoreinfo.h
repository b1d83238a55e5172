/* SPDX-License-Identifier: MIT */
/* The kernel's description of itself: the VMCOREINFO text a CONFIG_CRASH_CORE kernel keeps
 * in a page of its own ("OSRELEASE=...\nPAGESIZE=4096\nSYMBOL(prb)=c142e878\n..."), found
 * by a bounded scan of the Normal world's RAM and parsed into the few values fiqmon needs.
 *
 * The parser is a byte-at-a-time state machine with no line buffer: a key is reduced to
 * its FNV-1a hash as it streams by and compared with the hashes of the wanted keys
 * (vmcoreinfo.c lists them with their names; a unit test recomputes every hash). Values
 * are hex after SYMBOL(...), decimal otherwise. Lines it does not want, cannot parse or
 * that overflow are ignored, and so is a last line cut off without its newline; the first
 * occurrence of a key wins. A hex value may start with 0x. */
#ifndef FIQMON_VMCOREINFO_H
#define FIQMON_VMCOREINFO_H

#include <stdbool.h>
#include <stdint.h>

#include "target.h"

enum vmci_key {
    VMCI_PAGESIZE,
    VMCI_UTS_NAME,        /* OFFSET(uts_namespace.name) */
    VMCI_PRB_DESC_RING,   /* OFFSET(printk_ringbuffer.desc_ring) */
    VMCI_PRB_TEXT_RING,   /* OFFSET(printk_ringbuffer.text_data_ring) */
    VMCI_DR_COUNT_BITS,   /* OFFSET(prb_desc_ring.count_bits) */
    VMCI_DR_DESCS,        /* OFFSET(prb_desc_ring.descs) */
    VMCI_DR_INFOS,        /* OFFSET(prb_desc_ring.infos) */
    VMCI_DR_HEAD_ID,      /* OFFSET(prb_desc_ring.head_id) */
    VMCI_DR_TAIL_ID,      /* OFFSET(prb_desc_ring.tail_id) */
    VMCI_DESC_SIZE,       /* SIZE(prb_desc) */
    VMCI_DESC_STATE_VAR,  /* OFFSET(prb_desc.state_var) */
    VMCI_DESC_TEXT_LPOS,  /* OFFSET(prb_desc.text_blk_lpos) */
    VMCI_LPOS_BEGIN,      /* OFFSET(prb_data_blk_lpos.begin) */
    VMCI_LPOS_NEXT,       /* OFFSET(prb_data_blk_lpos.next) */
    VMCI_INFO_SIZE,       /* SIZE(printk_info) */
    VMCI_INFO_SEQ,        /* OFFSET(printk_info.seq) */
    VMCI_INFO_TS_NSEC,    /* OFFSET(printk_info.ts_nsec) */
    VMCI_INFO_TEXT_LEN,   /* OFFSET(printk_info.text_len) */
    VMCI_DATA_SIZE_BITS,  /* OFFSET(prb_data_ring.size_bits) */
    VMCI_DATA_DATA,       /* OFFSET(prb_data_ring.data) */
    VMCI_ATOMIC_COUNTER,  /* OFFSET(atomic_long_t.counter) */
    VMCI_VA_BITS,         /* NUMBER(VA_BITS): arm64's virtual address width */
    VMCI_SYM_INIT_UTS_NS, /* SYMBOL(...) values from here on are hex */
    VMCI_SYM_PRB,
    VMCI_SYM_KS_NAMES,         /* SYMBOL(kallsyms_names) */
    VMCI_SYM_KS_NUM_SYMS,      /* SYMBOL(kallsyms_num_syms) */
    VMCI_SYM_KS_TOKEN_TABLE,   /* SYMBOL(kallsyms_token_table) */
    VMCI_SYM_KS_TOKEN_INDEX,   /* SYMBOL(kallsyms_token_index) */
    VMCI_SYM_KS_OFFSETS,       /* SYMBOL(kallsyms_offsets) */
    VMCI_SYM_KS_RELATIVE_BASE, /* SYMBOL(kallsyms_relative_base) */
    VMCI_SYM_KS_MARKERS,       /* SYMBOL(kallsyms_markers): not exported by 6.1, used if there */
    VMCI_SYM_SWAPPER_PG_DIR,   /* SYMBOL(swapper_pg_dir): the kernel's page tables */
    VMCI_KIMAGE_VOFFSET,       /* NUMBER(kimage_voffset)=0x...: arm64's image VA - PA (hex) */
    VMCI_KEYS
};
#define VMCI_FIRST_SYMBOL VMCI_SYM_INIT_UTS_NS /* this key and those after it are hex */
#define VMCI_BIT(key) (1ull << (key))

/* The parser's own pseudo-key for OSRELEASE, a string. */
#define VMCI_OSRELEASE VMCI_KEYS
#define VMCI_RELEASE_MAX 64 /* as __NEW_UTS_LEN */

/* The hash of a key as the parser computes it (FNV-1a, 32 bits). */
uint32_t vmci_hash(uint32_t hash, uint8_t c);
#define VMCI_HASH_START 2166136261u
extern const uint32_t vmci_key_hash[VMCI_KEYS + 1]; /* index VMCI_OSRELEASE too */

struct vmci {
    uint64_t have; /* VMCI_BIT(key) for each value found */
    target_addr_t value[VMCI_KEYS]; /* SYMBOL()s are addresses: as wide as the target */
    char release[VMCI_RELEASE_MAX + 1]; /* OSRELEASE, "" if absent */
    char version[VMCI_RELEASE_MAX + 1]; /* not VMCOREINFO's: init_uts_ns's (uname -v) */
};

struct vmci_parser {
    struct vmci *out;
    uint32_t hash, dec;
    target_addr_t hex;
    uint8_t state, digits, len;
    int8_t key; /* the wanted key of this line, or -1 */
};

/* Starts parsing into out (cleared). */
void vmci_parse_start(struct vmci_parser *p, struct vmci *out);
/* One byte of the text. Returns false at its end (a NUL byte); the caller also stops at
 * the end of the page. */
bool vmci_parse_byte(struct vmci_parser *p, uint8_t c);

static inline bool vmci_has(const struct vmci *v, uint64_t mask)
{
    return (v->have & mask) == mask;
}

/* The running kernel's VMCOREINFO. The copy found last time is used if its page still
 * starts with "OSRELEASE=" and the kernel's init_uts_ns still names the same release and
 * version (uname -r, -v; a rebuilt or another kernel differs in one);
 * otherwise, if search, RAM (port_boot_target) is scanned page by page, physically, for
 * a page that parses and whose init_uts_ns agrees (a stale page of an earlier boot does
 * not). NULL if there is none. Leaves port_mem_space at PORT_MEM_VIRTUAL. */
const struct vmci *kernel_vmcoreinfo(bool search);
/* Forget the kernel found last (the next call searches). */
void kernel_vmcoreinfo_forget(void);
/* Counts kernels found: caches derived from a VMCOREINFO (kallsyms, unwind tables)
 * reload when it changes. */
extern uint32_t kernel_generation;

/* init_uts_ns.name field at byte offset field (65-byte fields: release 130, version 195),
 * read into buf (VMCI_RELEASE_MAX + 1 bytes). False if it does not read. */
#define UTS_RELEASE_OFFSET 130u
#define UTS_VERSION_OFFSET 195u
bool kernel_uts(const struct vmci *v, uint32_t field, char *buf);

#endif
