/* SPDX-License-Identifier: MIT */
/* A busy wait for the virt64 guests, counted in loop iterations (no timer: the guests
 * keep every interrupt masked). */
#ifndef GUEST_VIRT64_DELAY_H
#define GUEST_VIRT64_DELAY_H

#include <stdint.h>

static inline void delay_loops(uint64_t n)
{
    __asm__ volatile("1: subs %0, %0, #1\n\tb.ne 1b" : "+r"(n) : : "cc");
}

#endif
