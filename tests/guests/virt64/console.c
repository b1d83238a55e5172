/* SPDX-License-Identifier: MIT */
#include "console.h"

#include "mmio.h"

void con_putc(char c)
{
    while (mmio_read32(UART0 + UART_FR) & UART_FR_TXFF) {
    }
    mmio_write32(UART0 + UART_DR, (uint8_t)c);
}

void con_puts(const char *s)
{
    for (; *s; s++) {
        if (*s == '\n')
            con_putc('\r');
        con_putc(*s);
    }
}

void con_dec(uint64_t v)
{
    char buf[21];
    int i = sizeof(buf);

    buf[--i] = '\0';
    do {
        buf[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    con_puts(&buf[i]);
}

static void hex(uint64_t v, int digits)
{
    for (int shift = 4 * (digits - 1); shift >= 0; shift -= 4)
        con_putc("0123456789abcdef"[(v >> shift) & 0xf]);
}

void con_hex32(uint32_t v)
{
    hex(v, 8);
}

void con_hex64(uint64_t v)
{
    hex(v, 16);
}

int con_getc_nowait(void)
{
    if (mmio_read32(UART0 + UART_FR) & UART_FR_RXFE)
        return -1;
    return (int)(mmio_read32(UART0 + UART_DR) & 0xff);
}

void guest_unexpected(uint64_t vector, uint64_t el, uint64_t esr, uint64_t elr, uint64_t far)
{
    con_puts("guest: unexpected exception vector ");
    con_dec(vector);
    con_puts(" at el");
    con_dec(el);
    con_puts(" esr=");
    con_hex64(esr);
    con_puts(" elr=");
    con_hex64(elr);
    con_puts(" far=");
    con_hex64(far);
    con_puts("\n");
}
