/* SPDX-License-Identifier: MIT */
/* flood: how much of the CPU a full-rate flood on the debug UART costs the kernel
 * (make bench, docs/benchmarks.md). Run under QEMU -icount shift=0,sleep=off: one
 * instruction is one nanosecond of virtual time, SYS_24MHZ counts that time, and while
 * the CPU waits in WFI with no timer armed, virtual time stands still.
 *
 * Commands on the console (UART1):
 *   's'  silent: run a fixed loop for WINDOW_TICKS of SYS_24MHZ, writing a request byte
 *        (0x01) to the console every 1/11520 s; nobody answers.
 *   'f'  flood: the same, but after each request wait in WFI for the answer: one byte on
 *        UART0, whose interrupt (fiqmon's FIQ, or ours after `release`) wakes the CPU.
 *        The wait costs no virtual time, so bytes arrive exactly at the line's full rate
 *        in the loop's own time, each with its own interrupt, whatever the host's latency.
 *   'i'  take UART0 after fiqmon's `release`: its receive interrupt becomes this guest's
 *        IRQ, drained by a minimal driver (the side-by-side peer of fiqmon's FIQ path).
 * Each run prints its loop iterations, its exact length in ticks, and the requests, bytes
 * and UART interrupts in it (the last two counted by this guest: released runs only).
 * Contract: like uartecho, UART0 and VIC line 12 are touched only after the release. */
#include "flood_work.h"
#include "guest.h"
#include "mmio.h"
#include "pl011.h"
#include "pl190_vic.h"

const char guest_name[] = "flood";

#define UART0           0x101f1000u
#define UART0_LINE      12u
#define REQUEST         0x01            /* "send one byte now" */
#define WINDOW_TICKS    (SYS_24MHZ_HZ / 50)    /* 20 ms */
/* one byte per 1/11520 s (115200 8N1) = 24e6 / 11520 = 25000 / 12 ticks */
#define REQ_NUM         25000u
#define REQ_DEN         12u

static volatile uint32_t rx_bytes, rx_irqs;

static void uart0_irq(void)
{
    rx_irqs++;
    while (!(mmio_read_32(UART0 + PL011_FR) & PL011_FR_RXFE)) {
        (void)mmio_read_32(UART0 + PL011_DR);
        rx_bytes++;
    }
}

static bool take_uart0(void)
{
    if (mmio_read_32(VIC_BASE + VIC_INTSELECT) & (1u << UART0_LINE))
        return false;           /* still fiqmon's */
    vectors_install(irq_entry);
    irq_handler = uart0_irq;
    mmio_write_32(UART0 + PL011_IMSC, PL011_INT_RX | PL011_INT_RT);
    mmio_write_32(VIC_BASE + VIC_INTENABLE, 1u << UART0_LINE);
    irq_enable();
    return true;
}

/* The clock is read once per block of BLOCK iterations (an MMIO exit each); the run is
 * timed from its start to the block edge where it ends, so its length is exact. */
#define BLOCK 16u

static void measure(bool flood)
{
    uint32_t t0 = sys_24mhz(), k = 0, iters = 0, x = 1, t;
    uint32_t b0 = rx_bytes, q0 = rx_irqs;

    for (;;) {
        t = sys_24mhz() - t0;
        if (t >= WINDOW_TICKS)  /* first: every byte requested is taken inside the run */
            break;
        if (t >= k * REQ_NUM / REQ_DEN) {   /* QEMU's PL011 never fills: no FR wait */
            mmio_write_32(CONSOLE_UART_BASE + PL011_DR, REQUEST);
            k++;
            if (flood)
                cpu_wfi();      /* the answer's interrupt wakes us (I or F clear) */
        }
        for (uint32_t i = 0; i < BLOCK; i++)
            x = work(x);
        iters += BLOCK;
    }
    con_printf("guest flood: iterations %lu ticks %lu requests %lu bytes %lu irqs %lu x %08lx\n",
               (unsigned long)iters, (unsigned long)t, (unsigned long)k,
               (unsigned long)(rx_bytes - b0), (unsigned long)(rx_irqs - q0),
               (unsigned long)x);
}

void guest_main(uint32_t r0, uint32_t r1, uint32_t r2)
{
    (void)r0;
    (void)r1;
    (void)r2;
    con_puts("guest flood: ready\n");
    for (;;) {
        while (mmio_read_32(CONSOLE_UART_BASE + PL011_FR) & PL011_FR_RXFE) {
        }
        uint32_t c = mmio_read_32(CONSOLE_UART_BASE + PL011_DR) & 0xffu;
        switch (c) {
        case 's':
        case 'f':
            measure(c == 'f');
            break;
        case 'i':
            con_puts(take_uart0() ? "guest flood: uart0 is mine\n"
                                  : "guest flood: uart0 is still fiqmon's\n");
            break;
        default:
            break;
        }
    }
}
