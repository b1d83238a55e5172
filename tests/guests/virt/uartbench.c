/* SPDX-License-Identifier: MIT */
/* What one console register access costs: 64 reads of UART0's FR and 64 writes of its DR
 * in tight loops whose first instruction is a known label (scripts/bench_hyp.py counts the
 * instructions QEMU's exec log shows between one pass and the next), with and without
 * fiqmon's Hyp shim trapping every access (passed through to UART0, or to fiqmon's PL011
 * model on the one wire). */
#include <stdint.h>

#include "console.h"

int main(void);

int main(void)
{
    uint32_t n = 64, base = UART0, v = 'x';

    /* enabled as Linux leaves it: the model (CONSOLE=shared) sends nothing otherwise; QEMU's
     * PL011 resets with TXE|RXE and sends regardless */
    mmio_write(UART0 + UART_CR, UART_CR_UARTEN | UART_CR_TXE | UART_CR_RXE);

    __asm__ volatile(".global bench_read_loop\n"
                     "bench_read_loop:\n\t"
                     "ldr     r3, [%0, #0x18]\n\t"
                     "subs    %1, %1, #1\n\t"
                     "bne     bench_read_loop"
                     : "+r"(base), "+r"(n)
                     :
                     : "r3", "cc", "memory");
    n = 64;
    __asm__ volatile(".global bench_write_loop\n"
                     "bench_write_loop:\n\t"
                     "str     %2, [%0]\n\t"
                     "subs    %1, %1, #1\n\t"
                     "bne     bench_write_loop"
                     : "+r"(base), "+r"(n)
                     : "r"(v)
                     : "cc", "memory");
    for (const char *s = "\r\nuartbench: done\r\n"; *s; s++)
        putc_(*s);
    for (;;) {
    }
}
