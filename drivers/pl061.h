/* SPDX-License-Identifier: MIT */
/* ARM PrimeCell PL061 GPIO: register offsets (DDI0190). */
#ifndef FIQMON_PL061_H
#define FIQMON_PL061_H

#define PL061_DATA      0x000   /* address bits 9:2 mask which pins a write touches */
#define PL061_DIR       0x400   /* 1 = output */

#ifndef __ASSEMBLER__
#include <stdint.h>
/* Drive one pin as an output at level. */
void pl061_drive(uintptr_t base, unsigned pin, int level);
#endif

#endif
