/* SPDX-License-Identifier: MIT */
/* A synthetic Linux kernel in the fake port's memory, built in the layouts of Debian's
 * armhf 6.1 kernel (32-bit longs) from the kernel's own definitions, not from a dump:
 *
 *   physical  KFIX_VMCI_PA     the VMCOREINFO page (inside the fake RAM, which is what
 *                              port_boot_target() says RAM is)
 *   virtual   0xc0000000 4 MiB text (_stext at KFIX_STEXT), an .ARM.exidx/.ARM.extab,
 *                              kallsyms tables, init_uts_ns, the printk ring buffer
 *             0xf0800000 16 KiB two kernel stacks (THREAD_SIZE 8 KiB)
 *
 * Everything here is written independently of monitor/ (its own copies of the layouts),
 * so the decoders are checked against the kernel's rules rather than against themselves.
 * The printk writer follows kernel/printk/printk_ringbuffer.c: bootstrap descriptors,
 * BLK0_LPOS data positions (they overflow on the first wrap), blocks that would wrap
 * stored at the start of the data ring, data and descriptor tails pushed when full. */
#ifndef FIQMON_TEST_KERNEL_FIXTURE_H
#define FIQMON_TEST_KERNEL_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>

#include "fake_port.h"

#define KFIX_VMCI_PA (FAKE_RAM_BASE + 0x6000u)
#define KFIX_VA_BASE 0xc0000000u
#define KFIX_VA_SIZE 0x00400000u
#define KFIX_STACK_BASE 0xf0800000u
#define KFIX_STACK_SIZE 0x4000u

#define KFIX_STEXT 0xc0008000u    /* first kernel symbol */
#define KFIX_EXIDX 0xc00a0238u    /* where kfix_exidx() puts the index by default */
#define KFIX_KALLSYMS 0xc0200000u /* where the kallsyms tables start */
#define KFIX_UTS 0xc0300100u      /* init_uts_ns */
#define KFIX_PRB_PTR 0xc0300400u  /* SYMBOL(prb): a pointer to the ring */
#define KFIX_RING 0xc0300500u     /* struct printk_ringbuffer */
#define KFIX_RING_MEM 0xc0310000u /* descriptors, infos, data */

#define KFIX_RELEASE "6.1.0-99-fixture"
#define KFIX_VERSION "#1 SMP Debian 6.1.999-1 (2099-01-01)"

/* fake_port_reset, the regions mapped, fiqmon's kernel caches forgotten. */
void kfix_reset(void);

/* --- VMCOREINFO ------------------------------------------------------------------------ */
/* The text a 6.1 kernel with Debian's kallsyms patch publishes for everything built so
 * far (the ring layout in use, the kallsyms table addresses). Valid until the next call. */
const char *kfix_vmcoreinfo_text(void);
/* Writes text (NUL-terminated, at most a page) as the VMCOREINFO page at pa. */
void kfix_vmcoreinfo_write(uint32_t pa, const char *text);
/* init_uts_ns with this release and version (uname -r, -v). */
void kfix_uts(const char *release, const char *version);
/* A whole kernel: uts, an empty log, no symbols; VMCOREINFO written last (call
 * kfix_publish() again after adding symbols or records to refresh it). */
void kfix_kernel(void);
void kfix_publish(void);

/* --- printk ring buffer ---------------------------------------------------------------- */
/* Field offsets and sizes: the 6.1 ones by default; a test may move them (and everything
 * published follows) to show that only published offsets are used. */
struct kfix_prb_layout {
    uint32_t desc_size, state_var, text_lpos, lpos_begin, lpos_next;
    uint32_t info_size, info_seq, info_ts, info_text_len;
    uint32_t rb_desc_ring, rb_text_ring, dr_count_bits, dr_descs, dr_infos, dr_head, dr_tail;
    uint32_t data_size_bits, data_data, data_head, data_tail;
};
extern struct kfix_prb_layout kfix_layout;
void kfix_layout_default(void);

/* An empty ring of 2^count_bits descriptors and 2^size_bits data bytes, bootstrapped as
 * the kernel's DEFINE_PRINTKRB does. */
void kfix_ring_init(unsigned count_bits, unsigned size_bits);
/* Appends a finalized record; returns its sequence number. */
uint64_t kfix_ring_add(uint64_t ts_nsec, const char *text);
/* Reserves a record and leaves it being written (text partly copied). */
uint64_t kfix_ring_reserve(uint64_t ts_nsec, const char *text);
/* Addresses of record seq's descriptor, info, and data block (its id word). */
uint32_t kfix_desc(uint64_t seq);
uint32_t kfix_info(uint64_t seq);
uint32_t kfix_block(uint64_t seq);

/* --- kallsyms ---------------------------------------------------------------------------- */
struct kfix_sym {
    uint32_t addr;
    char type;
    const char *name;
};
enum kfix_markers {
    KFIX_MARKERS_BEFORE_TOKENS, /* names, markers, token table (scripts/kallsyms < 6.2) */
    KFIX_MARKERS_BEFORE_SEQS,   /* names, markers, seqs_of_names, token table (Debian 6.1) */
    KFIX_MARKERS_ELSEWHERE,     /* right after the names, the token table far away */
    KFIX_MARKERS_PUBLISHED,     /* as BEFORE_TOKENS plus SYMBOL(kallsyms_markers) */
};
/* Tables for syms (sorted by address by the caller), with tokens of one character and
 * some longer ones (including ones that carry the type letter). */
void kfix_kallsyms(const struct kfix_sym *syms, unsigned n, enum kfix_markers where);
/* Addresses of the tables just built. */
struct kfix_kallsyms_addrs {
    uint32_t offsets, relative_base, num_syms, names, markers, token_table, token_index;
};
extern struct kfix_kallsyms_addrs kfix_ks;

/* --- ARM unwind tables ------------------------------------------------------------------- */
struct kfix_fn {
    uint32_t addr;
    const char *insns; /* unwind instruction bytes (may contain 0), insns_len of them */
    unsigned insns_len;
    bool cantunwind;
};
/* An .ARM.exidx at at for fns (sorted), instructions inline when they fit in three bytes,
 * else in an .ARM.extab entry (personality 0x81) after the index. Returns the index end. */
uint32_t kfix_exidx(uint32_t at, const struct kfix_fn *fns, unsigned n);

/* Little-endian word helpers on fake memory. */
void kfix_w32(uint32_t addr, uint32_t v);
uint32_t kfix_r32(uint32_t addr);

#endif
