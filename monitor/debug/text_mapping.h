/* SPDX-License-Identifier: MIT */
/* Whether the kernel may execute at a virtual address: its own translation tables walked
 * (ARMv7 short descriptors), so that a breakpoint is refused on data (a BKPT written there
 * would corrupt it) and on what is not mapped. Portable: the caller gives the translation
 * registers and a physical reader. */
#ifndef FIQMON_TEXT_MAPPING_H
#define FIQMON_TEXT_MAPPING_H

#include <stdbool.h>
#include <stdint.h>

/* The Normal world's translation registers (short-descriptor format: TTBCR.EAE clear). */
struct text_mapping_regs {
    uint32_t ttbr0, ttbr1, ttbcr;
};

enum text_mapping {
    TEXT_EXECUTABLE,   /* mapped, neither XN nor PXN */
    TEXT_NOT_EXECUTABLE,
    TEXT_UNMAPPED,     /* a translation fault, or a table that does not read */
    TEXT_UNKNOWN,      /* long descriptors (LPAE): not walked */
};

/* A fault-safe read of the word at a physical address. */
typedef bool (*text_mapping_reader)(uint32_t pa, uint32_t *value);

enum text_mapping text_mapping_at(uint32_t va, const struct text_mapping_regs *r,
                                  text_mapping_reader read_pa);

#endif
