/* SPDX-License-Identifier: MIT */
/* ARM SP804 dual timer (DDI0271): one timer's registers; the second timer of a pair is at
 * +SP804_TIMER_STRIDE. Both timers of a pair share one interrupt line. */
#ifndef GUEST_SP804_H
#define GUEST_SP804_H

#define SP804_TIMER_STRIDE  0x20

#define SP804_LOAD      0x00    /* reload value; writing it restarts the count */
#define SP804_VALUE     0x04    /* current count (read only) */
#define SP804_CONTROL   0x08
#define SP804_INTCLR    0x0c    /* write anything: clear the interrupt */
#define SP804_RIS       0x10    /* raw interrupt status, bit 0 */
#define SP804_MIS       0x14    /* masked interrupt status, bit 0 */
#define SP804_BGLOAD    0x18    /* reload value for the next period, no restart */

#define SP804_CTRL_ONESHOT  (1u << 0)
#define SP804_CTRL_32BIT    (1u << 1)
#define SP804_CTRL_INTEN    (1u << 5)
#define SP804_CTRL_PERIODIC (1u << 6)   /* reload from LOAD (else free-running from 0xffffffff) */
#define SP804_CTRL_ENABLE   (1u << 7)

#ifndef __ASSEMBLER__
#include <stdbool.h>
#include <stdint.h>
#include "mmio.h"

/* Interrupt every `load` input clocks (Linux's sp804 driver programs the same value). */
static inline void sp804_start_periodic(uintptr_t base, uint32_t load)
{
    mmio_write_32(base + SP804_CONTROL, 0);
    mmio_write_32(base + SP804_INTCLR, 1);
    mmio_write_32(base + SP804_LOAD, load);
    mmio_write_32(base + SP804_CONTROL, SP804_CTRL_ENABLE | SP804_CTRL_PERIODIC |
                                            SP804_CTRL_INTEN | SP804_CTRL_32BIT);
}

/* Clears the timer's interrupt if it is pending; returns whether it was. */
static inline bool sp804_ack(uintptr_t base)
{
    if (!(mmio_read_32(base + SP804_MIS) & 1u))
        return false;
    mmio_write_32(base + SP804_INTCLR, 1);
    return true;
}
#endif

#endif
