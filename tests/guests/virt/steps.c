/* SPDX-License-Identifier: MIT */
/* A Normal-world guest for stepping tests (HYP=1): each 'g' on its console runs
 * branch_tour() (steps_tour.S) once and prints the result, which proves the tour ran as
 * the CPU would run it without a debugger: "guest steps: tour done 0000100b". No interrupts:
 * every step is one of the tour's instructions. Each 'b' runs a BKPT of its own and prints
 * what its Prefetch Abort handler saw. */
#include <stdint.h>

#include "console.h"

extern uint32_t branch_tour(uint32_t seed);
extern const uint32_t steps_vectors[];
extern void own_bkpt(void);
extern uint32_t own_bkpt_seen[4];

int main(void);
int main(void)
{
    __asm__ volatile("mcr p15, 0, %0, c12, c0, 0\n\tisb" : : "r"(steps_vectors)); /* VBAR */
    mmio_write(UART0 + UART_CR, UART_CR_UARTEN | UART_CR_TXE | UART_CR_RXE);
    puts_("guest steps: ready\n");
    for (;;) {
        int c = getc_nowait();
        if (c == 'b') { /* its own BKPT: lr, spsr, IFSR, cpsr as its abort handler saw them */
            own_bkpt();
            puts_("guest steps: own bkpt");
            for (unsigned i = 0; i < 4; i++) {
                puts_(" ");
                puthex8(own_bkpt_seen[i]);
            }
            puts_("\n");
            continue;
        }
        if (c != 'g')
            continue;
        puts_("guest steps: tour done ");
        puthex8(branch_tour(0x1000));
        puts_("\n");
    }
}
