/* SPDX-License-Identifier: MIT */
/* Addresses an AArch64 kernel function computes for the data it uses: ADRP (the 4 KiB
 * page, pc-relative) then ADD of the low 12 bits (a symbol's address: init_task, the
 * modules list head), or ADRP then LDR of a 64-bit GOT slot that holds the address (how
 * GCC takes a weak symbol's: __start_BTF). kallsyms names text only, so kernel data is
 * found where the code that uses it points; each address is offered to a checker, and
 * only one the checker accepts is kept. The decoding is plain C (host-tested); KASLR
 * changes nothing, since ADRP is relative to the code and GOT slots hold relocated
 * values. */
#ifndef FIQMON_KCODE_A64_H
#define FIQMON_KCODE_A64_H

#include <stdbool.h>
#include <stdint.h>

#include "target.h"

#define KCODE_A64_SCAN_MAX 4096u /* bytes of a function decoded */

/* The address one instruction pair computes: with page the ADRP of a pair's register
 * (valid tells), insn is ADD Xd, Xn, #imm12 (its address) or LDR Xt, [Xn, #imm12 * 8]
 * (the slot, *slot true). False if insn is neither on a register holding a page. */
bool kcode_a64_pair(uint32_t insn, const uint64_t page[31], uint32_t valid, uint64_t *addr,
                    bool *slot);
/* The page ADRP at pc computes (insn an ADRP: (insn & 0x9f000000) == 0x90000000). */
uint64_t kcode_a64_adrp(uint32_t insn, uint64_t pc);

/* Each address function name computes, in code order (a GOT slot read for its value),
 * offered to accept until it returns true; returns that address, 0 if none was accepted
 * or there is no such function. Needs ksyms_ready(). */
target_addr_t kcode_a64_find_address(const char *name, bool (*accept)(target_addr_t addr));

#endif
