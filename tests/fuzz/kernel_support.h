/* SPDX-License-Identifier: MIT */
/* For the kernel-introspection harnesses (fuzz_vmcoreinfo, fuzz_printk_rb, fuzz_kallsyms,
 * fuzz_unwind): a "kernel" region of fuzzed bytes at kernel addresses, and a VMCOREINFO
 * page with a matching init_uts_ns so kernel_vmcoreinfo() accepts it. */
#ifndef FIQMON_FUZZ_KERNEL_SUPPORT_H
#define FIQMON_FUZZ_KERNEL_SUPPORT_H

#include <stddef.h>
#include <stdint.h>

#include "vmcoreinfo.h"

#define FK_BASE 0xc0000000u
#define FK_SIZE 0x10000u
#define FK_UTS (FK_BASE + FK_SIZE - 0x200u) /* init_uts_ns: the last 512 bytes */
#define FK_DATA_MAX (FK_SIZE - 0x200u)      /* fuzzed bytes fit below it */

/* The fake port reset, fiqmon's kernel caches forgotten, the region mapped (zeroed). */
void fk_reset(void);
/* Copies up to FK_DATA_MAX bytes of data to FK_BASE. */
void fk_fill(const uint8_t *data, size_t len);
/* Writes a VMCOREINFO page (OSRELEASE, PAGESIZE, init_uts_ns, then lines) and the uts it
 * names, and returns what kernel_vmcoreinfo() makes of it (aborts if it finds nothing). */
const struct vmci *fk_kernel(const char *lines);
/* 32-bit little-endian store into fake memory. */
void fk_w32(uint32_t addr, uint32_t v);
uint32_t fk_le32(const uint8_t *p);
/* Checks that output holds only printable text, tabs and CR LF line ends, and has at
 * most max_lines lines; returns the line count. */
unsigned fk_check_text(const char *out, size_t len, unsigned max_lines);

#endif
