/* SPDX-License-Identifier: MIT */
/* md: hex and ASCII rows of target memory, read through a fault-safe accessor. */
#ifndef FIQMON_MEMDUMP_H
#define FIQMON_MEMDUMP_H

#include <stdbool.h>
#include <stdint.h>

#include "target.h"

#define MEMDUMP_ROW_BYTES 16
#define MEMDUMP_MAX_LEN 0x1000u

/* Reads width bytes at addr (port_mem_read's contract); false: a fault. */
typedef bool (*memdump_read_fn)(target_addr_t addr, unsigned width, uint32_t *value);

/* Prints rows "xxxxxxxx: <elements>  <ascii>" (the address as wide as the target) for len bytes from addr, rounded up to
 * whole elements (md itself refuses a len that is not a multiple of width). Stops at the
 * first fault with "error: fault at 0x...". Returns 0 or -1. */
int memdump(target_addr_t addr, uint32_t len, unsigned width, memdump_read_fn read);

/* "b", "h", "w" -> 1, 2, 4; anything else -> 0 */
unsigned memdump_width(const char *s);

#endif
