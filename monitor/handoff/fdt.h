/* SPDX-License-Identifier: MIT */
/* Flattened device tree (devicetree specification v0.3, chapter 5): the header words and
 * structure tokens, and big-endian access through the port, for the hand-off's edits. */
#ifndef FIQMON_FDT_H
#define FIQMON_FDT_H

#include <stdbool.h>
#include <stdint.h>

#define FDT_MAGIC 0xd00dfeedu

/* header word offsets */
enum { FDT_MAGIC_W, FDT_TOTALSIZE, FDT_OFF_STRUCT, FDT_OFF_STRINGS, FDT_OFF_RSVMAP, FDT_VERSION,
       FDT_LAST_COMP, FDT_BOOT_CPU, FDT_SIZE_STRINGS, FDT_SIZE_STRUCT };
/* structure block tokens */
enum { FDT_BEGIN_NODE = 1, FDT_END_NODE, FDT_PROP, FDT_NOP, FDT_END = 9 };

bool fdt_read_be32(uint32_t addr, uint32_t *v);
bool fdt_write_be32(uint32_t addr, uint32_t v);
/* Does the NUL-terminated string at addr equal s (reading at most strlen(s) + 1 bytes)? */
bool fdt_str_is(uint32_t addr, const char *s);

#endif
