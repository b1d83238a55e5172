/* SPDX-License-Identifier: MIT */
/* The flood guests' stand-in for a kernel's work (versatilepb and virt share it, so their
 * loops cost the same): a few dozen ALU instructions per call, no memory traffic. */
#ifndef GUEST_FLOOD_WORK_H
#define GUEST_FLOOD_WORK_H

#include <stdint.h>

static inline uint32_t work(uint32_t x)
{
    for (int i = 0; i < 8; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
    }
    return x;
}

#endif
