/* SPDX-License-Identifier: MIT */
/* A Normal-world kernel that ticks on its virtual timer (GIC PPI 27, IRQ) and prints how
 * many ticks it has taken; when 'L' arrives on its console it masks IRQs and spins in
 * spin_with_irqs_masked() for ever: the hard lockup fiqmon's watchdog must report. */
#include <stdint.h>

#include "console.h"

#define GICD        0x08000000u
#define GICC        0x08010000u
#define VTIMER_INTID 27u
#define TICK_HZ     100u

static volatile uint32_t ticks;

static void vtimer_rearm(void)
{
    uint32_t frq;

    __asm__ volatile("mrc p15, 0, %0, c14, c0, 0" : "=r"(frq));
    __asm__ volatile("mcr p15, 0, %0, c14, c3, 0\n\tisb" : : "r"(frq / TICK_HZ)); /* CNTV_TVAL */
}

void guest_irq(void);
void guest_irq(void)
{
    uint32_t iar = mmio_read(GICC + 0x0c);

    if ((iar & 0x3ff) == VTIMER_INTID) {
        vtimer_rearm();
        ticks++;
    }
    mmio_write(GICC + 0x10, iar);
}

/* The lockup: IRQs masked, and a loop that never ends. Not inlined, so the watchdog's
 * pc lands inside a symbol the test can look up. */
__attribute__((noinline, noreturn)) static void spin_with_irqs_masked(void)
{
    __asm__ volatile("cpsid i" ::: "memory");
    for (;;)
        __asm__ volatile("" ::: "memory");
}

int main(void);
int main(void)
{
    uint32_t reported = 0;

    puts_("guest lockup: started\n");
    mmio_write(GICD + 0x400 + VTIMER_INTID, 0x80);          /* priority */
    mmio_write(GICD + 0x100, 1u << VTIMER_INTID);            /* ISENABLER0 */
    mmio_write(GICC + 0x04, 0xff);                           /* PMR: let everything in */
    mmio_write(GICC + 0x00, 1);                              /* enable (Normal world view) */
    vtimer_rearm();
    __asm__ volatile("mcr p15, 0, %0, c14, c3, 1\n\tisb" : : "r"(1u)); /* CNTV_CTL: on */
    __asm__ volatile("cpsie i" ::: "memory");
    for (;;) {
        if (ticks / TICK_HZ != reported) {
            reported = ticks / TICK_HZ;
            puts_("guest lockup: ticks ");
            putdec(ticks);
            puts_("\n");
        }
        if (!(mmio_read(UART0 + UART_FR) & UART_FR_RXFE) && mmio_read(UART0 + UART_DR) == 'L') {
            puts_("guest lockup: masking irqs and spinning\n");
            spin_with_irqs_masked();
        }
    }
}
