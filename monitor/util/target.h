/* SPDX-License-Identifier: MIT */
/* The width of the interrupted system: its addresses and registers. 32 bits on AArch32
 * (versatilepb, virt, and the host's unit tests), 64 on AArch64 (virt64). Everything the
 * monitor says about the target's memory goes through target_addr_t, so one core serves
 * both. */
#ifndef FIQMON_TARGET_H
#define FIQMON_TARGET_H

#ifndef FIQMON_AARCH64
#ifdef __aarch64__
#define FIQMON_AARCH64 1
#else
#define FIQMON_AARCH64 0
#endif
#endif

#ifndef __ASSEMBLER__
#include <stdint.h>
#endif

#if FIQMON_AARCH64
#ifndef __ASSEMBLER__
typedef uint64_t target_addr_t;
#endif
#define TARGET_ADDR_MAX UINT64_MAX
#define TARGET_ADDR_DIGITS 16 /* hex digits an address prints with */
#define TARGET_ADDR_FMT "%016lx" /* an address, printed from (unsigned long) */
#else
#ifndef __ASSEMBLER__
typedef uint32_t target_addr_t;
#endif
#define TARGET_ADDR_MAX UINT32_MAX
#define TARGET_ADDR_DIGITS 8
#define TARGET_ADDR_FMT "%08lx"
#endif

#endif
