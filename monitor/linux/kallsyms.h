/* SPDX-License-Identifier: MIT */
/* The kernel's own symbol table (CONFIG_KALLSYMS, base-relative offsets), read in place:
 *
 *   kallsyms_num_syms      u32 count
 *   kallsyms_offsets[n]    s32; address = kallsyms_relative_base + (u32)offset, sorted
 *   kallsyms_names         per symbol: a length byte (0x80 set: 7 more bits in the next
 *                          byte), then that many token numbers; the expansion's first
 *                          character is the symbol type (t, T, W, ...)
 *   kallsyms_markers[]     u32 offset into kallsyms_names of every 256th symbol
 *   kallsyms_token_table   NUL-terminated token strings
 *   kallsyms_token_index   u16[256]: each token's offset in the token table
 *
 * VMCOREINFO gives all but the markers (Debian's patch). They are found the way
 * scripts/kallsyms lays them out: right before the token table, or before the 3-byte
 * kallsyms_seqs_of_names that newer kernels put there, and checked against the names. */
#ifndef FIQMON_KALLSYMS_H
#define FIQMON_KALLSYMS_H

#include <stdbool.h>
#include <stdint.h>

#include "target.h"
#include "vmcoreinfo.h"

#define KSYM_NAME_MAX 64 /* longer names are cut (the kernel allows 512) */

struct ksym {
    target_addr_t addr;
    uint32_t size; /* to the next higher address; 0 if unknown */
    char type;
    char name[KSYM_NAME_MAX];
};

/* Loads (or revalidates) the tables of the kernel v describes. False if it has none or
 * they do not look right. The functions below need a true answer in the same command. */
bool ksyms_ready(const struct vmci *v);

/* The addresses kallsyms covers, first and last symbol. */
void ksyms_range(target_addr_t *lo, target_addr_t *hi);

/* The code symbol containing addr (the first of several at one address, as the kernel
 * reports it). False if addr is outside the kernel's text or a read faulted. */
bool ksym_lookup(target_addr_t addr, struct ksym *out);

/* Every symbol named name, in table order, at most max: found(symbol) for each. Returns
 * how many; -1 if a read faulted. */
int ksym_find(const char *name, int max, void (*found)(const struct ksym *s));

/* Prints "name+0xoff/0xsize" for addr, or "?" if it has none. */
void ksym_print(target_addr_t addr);

#endif
