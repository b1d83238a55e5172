/* SPDX-License-Identifier: MIT */
/* Reading a foreign kernel's data structures: thin wrappers around port_mem_read with a
 * sticky fault flag, so a decoder can read a whole structure and check once, and a tiny
 * word cache for byte streams (kallsyms names, log text). A faulting read returns 0.
 * Call kmem_begin() before each use: the kernel may have run since the last command. */
#ifndef FIQMON_KMEM_H
#define FIQMON_KMEM_H

#include <stdbool.h>
#include <stdint.h>

#include "target.h"

/* A kernel's unsigned long and pointers: as wide as the target (32 or 64 bits). */
typedef target_addr_t kulong_t;
#define KULONG_BITS ((unsigned)(8 * sizeof(kulong_t)))

/* Set by any read below that faulted; cleared by kmem_begin(). */
extern bool kmem_failed;

/* Clears the fault flag and forgets cached words. */
void kmem_begin(void);

uint32_t kr32(target_addr_t addr);
uint16_t kr16(target_addr_t addr);
uint8_t kr8(target_addr_t addr);
uint64_t kr64(target_addr_t addr);
/* An unsigned long or a pointer of the kernel's. */
kulong_t krlong(target_addr_t addr);

/* arm64: kernel addresses (the upper half) that the live translation does not map are
 * read through the kernel's own tables, swapper_pg_dir at pgd_pa (VMCOREINFO gives its
 * address and kimage_voffset), walked in software. Needed because a KASLR kernel forces
 * KPTI on: while user space runs, TTBR1 holds only the entry trampoline. 4 KiB granule,
 * va_bits 39 to 48; pgd_pa 0: off. Set by kernel_vmcoreinfo() for each command. */
void kmem_kernel_tables(uint64_t pgd_pa, unsigned va_bits);
/* addr (an upper-half address) through those tables: its physical address, or false
 * (tables off, or not mapped there). */
bool kmem_kernel_phys(target_addr_t addr, uint64_t *pa);
/* The walk: va's physical address through the stage 1 tables at pgd_pa (physical reads).
 * False for an invalid descriptor on the way or a read that faults. */
bool kmem_walk(uint64_t pgd_pa, unsigned va_bits, uint64_t va, uint64_t *pa);

/* Sign-extends a prel31 field (ARM EHABI) read at addr and adds addr. */
uint32_t kprel31(uint32_t addr);

#endif
