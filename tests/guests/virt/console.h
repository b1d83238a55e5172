/* SPDX-License-Identifier: MIT */
/* The Normal world's console (UART0) for the virt test guests: polled output, decimal and
 * hex numbers. Header-only: each guest is one C file linked with start.S. */
#ifndef GUEST_VIRT_CONSOLE_H
#define GUEST_VIRT_CONSOLE_H

#include <stdint.h>

#define UART0        0x09000000u
#define UART_DR      0x00u
#define UART_FR      0x18u
#define UART_FR_RXFE (1u << 4)
#define UART_FR_TXFF (1u << 5)
#define UART_CR      0x30u
#define UART_CR_UARTEN (1u << 0)
#define UART_CR_TXE  (1u << 8)
#define UART_CR_RXE  (1u << 9)

static inline uint32_t mmio_read(uint32_t a)
{
    return *(volatile uint32_t *)a;
}

static inline void mmio_write(uint32_t a, uint32_t v)
{
    *(volatile uint32_t *)a = v;
}

static inline void putc_(char c)
{
    while (mmio_read(UART0 + UART_FR) & UART_FR_TXFF) {
    }
    mmio_write(UART0 + UART_DR, (uint32_t)c);
}

static inline void puts_(const char *s)
{
    for (; *s; s++) {
        if (*s == '\n')
            putc_('\r');
        putc_(*s);
    }
}

static inline void putdec(uint32_t v)
{
    char buf[11];
    int i = sizeof(buf);

    buf[--i] = 0;
    do {
        buf[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    puts_(&buf[i]);
}

static inline void puthex8(uint32_t v)
{
    for (int shift = 28; shift >= 0; shift -= 4)
        putc_("0123456789abcdef"[v >> shift & 0xf]);
}

/* A byte from the console, or -1 when none is waiting. */
static inline int getc_nowait(void)
{
    return mmio_read(UART0 + UART_FR) & UART_FR_RXFE ? -1 : (int)(mmio_read(UART0 + UART_DR) & 0xff);
}

#endif
