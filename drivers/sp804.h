/* SPDX-License-Identifier: MIT */
/* ARM SP804 dual timer (DDI0271): one timer's registers. The second timer of a pair is at
 * +SP804_TIMER_STRIDE; both share one interrupt line. */
#ifndef FIQMON_SP804_H
#define FIQMON_SP804_H

#define SP804_TIMER_STRIDE  0x20
#define SP804_LOAD          0x00
#define SP804_VALUE         0x04
#define SP804_CONTROL       0x08
#define SP804_INTCLR        0x0c    /* write anything: clear the interrupt */
#define SP804_RIS           0x10
#define SP804_MIS           0x14

#define SP804_CTRL_32BIT    (1u << 1)
#define SP804_CTRL_INTEN    (1u << 5)
#define SP804_CTRL_PERIODIC (1u << 6)
#define SP804_CTRL_ENABLE   (1u << 7)

#ifndef __ASSEMBLER__
#include <stdbool.h>
#include <stdint.h>

/* Periodic interrupt every `load` timer clocks; load 0 stops the timer. */
void sp804_periodic(uintptr_t base, uint32_t load);
void sp804_ack(uintptr_t base);
#endif

#endif
