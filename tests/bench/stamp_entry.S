/* SPDX-License-Identifier: MIT */
/* Prepended to fiqmon.bin for the U-Boot boot-cost figure (docs/benchmarks.md): the
 * standalone image's entry reads the generic timer's physical count (CNTPCT: virtual
 * nanoseconds / 16 under QEMU, i.e. instructions / 16 with -icount shift=0), keeps it at
 * STAMP_ADDR and falls into fiqmon, which is position-independent. U-Boot's registers are
 * passed through untouched. */
#include "stamp.h"

    .syntax unified
    .arm
    .global _start
_start:
    push    {r0, r1, r2}
    mrrc    p15, 0, r0, r1, c14         @ CNTPCT, after U-Boot and one push
    ldr     r2, =STAMP_ADDR
    strd    r0, r1, [r2]
    pop     {r0, r1, r2}
    b       fiqmon                      @ 6 instructions in all
    .ltorg
    .balign 64                          @ fiqmon.bin follows
fiqmon:
