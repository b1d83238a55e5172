/* SPDX-License-Identifier: MIT */
/* flood on virt: the Normal-world twin of tests/guests/flood.c (make bench,
 * docs/benchmarks.md). Under QEMU -icount shift=0,sleep=off one instruction is one ns of
 * virtual time and the generic timer counts that time (CNTVCT, CNTFRQ a second), so a
 * window of the counter is a fixed number of instructions.
 *
 * Commands on the console (UART0):
 *   's'  silent: a fixed loop for 20 ms of CNTVCT, writing a request byte (0x01) to the
 *        console every 1/11520 s; nobody answers.
 *   'f'  flood: the same, but after each request wait in WFI for the answer: one byte on
 *        fiqmon's Secure debug UART, whose FIQ (taken to Monitor mode) wakes the CPU. The
 *        wait costs no virtual time, so bytes arrive at the line's full rate in the loop's
 *        own time, one FIQ each.
 * There is no released mode here: the debug UART is Secure, never the kernel's. */
#include <stdint.h>

#include "console.h"
#include "../flood_work.h"

#define REQUEST  0x01u /* "send one byte now" */
#define LINE_BPS 11520u /* bytes/s of 115200 8N1 */
#define BLOCK    16u   /* iterations between counter reads */

static inline uint32_t counter(void)
{
    uint32_t lo, hi;

    __asm__ volatile("isb\n\tmrrc p15, 1, %0, %1, c14" : "=r"(lo), "=r"(hi)); /* CNTVCT */
    return lo;
}

static inline uint32_t counter_hz(void)
{
    uint32_t frq;

    __asm__ volatile("mrc p15, 0, %0, c14, c0, 0" : "=r"(frq)); /* CNTFRQ */
    return frq;
}

static void measure(int flood)
{
    uint32_t hz = counter_hz(), window = hz / 50; /* 20 ms */
    uint32_t step = hz / LINE_BPS, frac = hz % LINE_BPS, carry = 0;
    uint32_t t0 = counter(), next = 0, k = 0, iters = 0, x = 1, t;

    for (;;) {
        t = counter() - t0;
        if (t >= window) /* first: every byte requested is taken inside the run */
            break;
        if (t >= next) {
            mmio_write(UART0 + UART_DR, REQUEST); /* QEMU's PL011 never fills */
            k++;
            next += step; /* k x hz / 11520 without 64-bit division */
            carry += frac;
            if (carry >= LINE_BPS) {
                carry -= LINE_BPS;
                next++;
            }
            if (flood)
                __asm__ volatile("wfi" ::: "memory"); /* fiqmon's FIQ wakes us */
        }
        for (uint32_t i = 0; i < BLOCK; i++)
            x = work(x);
        iters += BLOCK;
    }
    puts_("guest flood: iterations ");
    putdec(iters);
    puts_(" ticks ");
    putdec(t);
    puts_(" requests ");
    putdec(k);
    puts_(" bytes 0 irqs 0 x "); /* bytes and irqs: counted in released runs only */
    puthex8(x);
    puts_(" hz ");
    putdec(hz);
    puts_("\n");
}

int main(void);
int main(void)
{
    puts_("guest flood: ready\n");
    for (;;) {
        int c = getc_nowait();
        if (c == 's' || c == 'f')
            measure(c == 'f');
    }
}
