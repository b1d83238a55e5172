/* SPDX-License-Identifier: MIT */
/* spin: a hard hang. Masks IRQs and loops forever in spin_forever, so only an FIQ (fiqmon)
 * can still interrupt it; `pc` must land in spin_forever. */
#include "guest.h"

const char guest_name[] = "spin";

void spin_forever(void) __attribute__((noinline, noreturn));

void spin_forever(void)
{
    irq_disable();
    for (;;)
        __asm__ volatile("");
}

void guest_main(uint32_t r0, uint32_t r1, uint32_t r2)
{
    (void)r0;
    (void)r1;
    (void)r2;
    con_puts("guest spin: entering spin_forever\n");
    spin_forever();
}
