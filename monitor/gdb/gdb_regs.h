/* SPDX-License-Identifier: MIT */
/* The registers the GDB stub shows, one file per architecture: gdb_regs.c (AArch32) and
 * gdb_regs_a64.c (AArch64). Each has the target description qXfer:features:read serves
 * as target.xml and maps GDB's register numbers onto the saved frame (cpu_frame.h), so
 * that a register GDB writes lands where the FIQ exit reloads it.
 *
 * A slot is a register's place in the g/G packet: slots 0 .. GDB_REG_SLOTS - 1 in order,
 * each little-endian at its width (gdb_reg_bytes). p/P name a register by GDB's number,
 * which gdb_reg_slot() turns into its slot. The last slot is the psr (cpsr): G writes it
 * after the others, so that banked registers land in the mode they were read from, and
 * only what gdb_psr_ok() allows. */
#ifndef FIQMON_GDB_REGS_H
#define FIQMON_GDB_REGS_H

#include <stdbool.h>
#include <stdint.h>

#include "cpu_frame.h"
#include "target.h"

#if FIQMON_AARCH64
/* x0-x30, sp, pc (8 bytes each), cpsr (4): GDB's aarch64 numbers 0-33. No SIMD/FP
 * registers: fiqmon neither saves nor touches them (gdb_regs_a64.c). */
#define GDB_REG_SLOTS 34u
#define GDB_REGS_HEX (33u * 16u + 8u)
#else
/* r0-r12, sp, lr, pc, cpsr (4 bytes each): GDB's arm numbers 0-15 and 25. */
#define GDB_REG_SLOTS 17u
#define GDB_REGS_HEX (17u * 8u)
#endif
#define GDB_REG_PSR (GDB_REG_SLOTS - 1u)

/* The target description (XML, not NUL-terminated on the wire) and its length. */
extern const char gdb_target_xml[];
extern const uint16_t gdb_target_xml_len;

/* The slot of GDB's register number n, or -1 if the description has none such. */
int gdb_reg_slot(uint32_t n);

/* Slot s's width on the wire: 4 or 8 bytes. */
unsigned gdb_reg_bytes(unsigned s);

/* Slot s of the context f (s < GDB_REG_SLOTS). */
target_addr_t gdb_reg_get(struct cpu_frame *f, unsigned s);
void gdb_reg_set(struct cpu_frame *f, unsigned s, target_addr_t v);

/* May GDB change the psr from old to val? Not to a mode the frame cannot describe, nor
 * (AArch64) to another exception level or register width at all. */
bool gdb_psr_ok(uint32_t old, uint32_t val);

#endif
