/* SPDX-License-Identifier: MIT */
/* ticker: a well-behaved kernel. SP804 timer0 interrupts at TICK_HZ; the IRQ handler
 * counts ticks; every TICKS_PER_LINE ticks the main loop prints the tick count and the
 * 24 MHz counter, so a test can compare the tick rate with emulated time. */
#include "guest.h"
#include "sp804.h"

const char guest_name[] = "ticker";

#define TICK_HZ         100
#define TICKS_PER_LINE  10

static volatile uint32_t ticks;

static void ticker_irq(void)
{
    if (sp804_ack(TIMER01_BASE))
        ticks++;
}

void guest_main(uint32_t r0, uint32_t r1, uint32_t r2)
{
    (void)r0;
    (void)r1;
    (void)r2;
    con_puts("guest ticker: started\n");
    vectors_install(irq_entry);
    irq_handler = ticker_irq;
    if (!guest_timer_irq_start(TIMER01_BASE, TIMER01_VIC_LINE, TIMER_CLOCK_HZ / TICK_HZ))
        return;

    for (uint32_t next = TICKS_PER_LINE;;) {
        /* Test and sleep with IRQs masked: WFI still wakes on the pending IRQ, which is
         * then taken as soon as they are unmasked, so no tick is slept through. */
        while (ticks < next) {
            cpu_wfi();
            irq_enable();
            irq_disable();
        }
        uint32_t n = ticks; /* read together with the clock: no tick in between */
        uint32_t clock = sys_24mhz();
        irq_enable();
        con_printf("guest ticker: tick %lu clock %lu\n", n, clock);
        irq_disable();
        while (next <= n)   /* normally once; more if the guest was held (fiqmon `halt`) */
            next += TICKS_PER_LINE;
    }
}
