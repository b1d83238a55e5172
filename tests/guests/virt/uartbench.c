/* SPDX-License-Identifier: MIT */
/* What one console register access costs: 64 reads of UART0's FR and 64 writes of its DR
 * in tight loops whose first instruction is a known label (scripts/bench_hyp.py counts the
 * instructions QEMU's exec log shows between one pass and the next), with and without
 * fiqmon's Hyp shim trapping every access (passed through to UART0, or to fiqmon's PL011
 * model on the one wire). Then what the shim's debug traps cost the kernel: 64 BKPTs of
 * its own (a Prefetch Abort it takes and returns from; with the shim, trapped, and fiqmon
 * reflects it) and 64 reads of DBGDIDR (with the shim, trapped and answered 0). */
#include <stdint.h>

#include "console.h"

int main(void);

/* The BKPT loop's vectors: a Prefetch Abort returns to the instruction after the BKPT. */
__asm__(".pushsection .text.bkpt_vectors, \"ax\", %progbits\n"
        ".balign 32\n"
        "bkpt_vectors:\n\t"
        "b .\n\tb .\n\tb .\n\t"
        "movs pc, lr\n\t"
        "b .\n\tb .\n\tb .\n\tb .\n"
        ".popsection\n");

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
    n = 64;
    __asm__ volatile("ldr     r3, =bkpt_vectors\n\t"
                     "mcr     p15, 0, r3, c12, c0, 0\n\t" /* VBAR */
                     "isb\n"
                     ".global bench_bkpt_loop\n"
                     "bench_bkpt_loop:\n\t"
                     "bkpt    #0\n\t"
                     "subs    %0, %0, #1\n\t"
                     "bne     bench_bkpt_loop\n\t"
                     "ldr     r3, =guest_vectors\n\t"
                     "mcr     p15, 0, r3, c12, c0, 0\n\t"
                     "isb"
                     : "+r"(n)
                     :
                     : "r3", "cc", "memory");
    n = 64;
    __asm__ volatile(".global bench_cp14_loop\n"
                     "bench_cp14_loop:\n\t"
                     "mrc     p14, 0, r3, c0, c0, 0\n\t" /* DBGDIDR */
                     "subs    %0, %0, #1\n\t"
                     "bne     bench_cp14_loop"
                     : "+r"(n)
                     :
                     : "r3", "cc", "memory");
    for (const char *s = "\r\nuartbench: done\r\n"; *s; s++)
        putc_(*s);
    for (;;) {
    }
}
