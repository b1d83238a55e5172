/* SPDX-License-Identifier: MIT */
/* C functions the boot assembly calls. */
#ifndef FIQMON_BOOT_ENTRY_H
#define FIQMON_BOOT_ENTRY_H

#include <stdint.h>

/* C entry of the resident copy; r0-r3 are what the loader passed to _start. */
void fiqmon_main(uint32_t r0, uint32_t r1, uint32_t r2, uint32_t r3);
/* An exception fiqmon does not expect (kind: 1 und, 2 swi, 3 pabt, 4 dabt, 5 reserved, 6 irq). */
void fatal_exception(unsigned kind, uint32_t pc, uint32_t spsr);
/* The idle loop's self-check failed. */
void idle_report_corruption(void);

#endif
