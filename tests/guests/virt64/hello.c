/* SPDX-License-Identifier: MIT */
/* hello64: the simplest payload. Says it is ready, then ticks forever (a busy delay
 * between ticks), so a test can see it run, stop and run again. */
#include "console.h"
#include "delay.h"

#define TICK_LOOPS 150000000u /* a few tenths of a second under QEMU TCG */

int main(void);

int main(void)
{
    con_puts("guest hello64: ready\n");
    for (uint64_t tick = 1;; tick++) {
        delay_loops(TICK_LOOPS);
        con_puts("guest hello64: tick ");
        con_dec(tick);
        con_puts("\n");
    }
}
