/* SPDX-License-Identifier: MIT */
/* md: hex and ASCII rows of target memory, read through the fault-safe port accessors. */
#ifndef FIQMON_MEMDUMP_H
#define FIQMON_MEMDUMP_H

#include <stdint.h>

#include "target.h"

#define MEMDUMP_ROW_BYTES 16
#define MEMDUMP_MAX_LEN 0x1000u

/* Prints rows "xxxxxxxx: <elements>  <ascii>" (the address as wide as the target) for len bytes from addr, rounded up to
 * whole elements (md itself refuses a len that is not a multiple of width). Stops at the
 * first fault with "error: fault at 0x...". Returns 0 or -1. */
int memdump(target_addr_t addr, uint32_t len, unsigned width);

/* "b", "h", "w" -> 1, 2, 4; anything else -> 0 */
unsigned memdump_width(const char *s);

#endif
