/* SPDX-License-Identifier: MIT */
/* Polled console output on CONSOLE_UART_BASE. The UART is left as QEMU (or the boot
 * loader) set it up: enabled, 8N1; the guests only write DR and poll FR. */
#include <stdarg.h>

#include "guest.h"
#include "mmio.h"
#include "pl011.h"

void con_putc(char c)
{
    while (mmio_read_32(CONSOLE_UART_BASE + PL011_FR) & PL011_FR_TXFF)
        ;
    mmio_write_32(CONSOLE_UART_BASE + PL011_DR, (uint8_t)c);
}

void con_puts(const char *s)
{
    for (; *s; s++) {
        if (*s == '\n')
            con_putc('\r');
        con_putc(*s);
    }
}

void con_put_text(const char *s, uint32_t max)
{
    for (uint32_t i = 0; i < max && s[i]; i++)
        con_putc(s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?');
}

/* Digits of v in base 10 or 16, most significant first, into buf; returns the count.
 * No division: ARMv5 has none and the guests link without libgcc. */
static unsigned format_digits(char *buf, uint32_t v, bool hex)
{
    static const uint32_t pow10[] = {1000000000u, 100000000u, 10000000u, 1000000u, 100000u,
                                     10000u,      1000u,      100u,      10u,      1u};
    unsigned n = 0;

    if (hex) {
        for (int shift = 28; shift >= 0; shift -= 4) {
            unsigned d = (v >> shift) & 0xfu;
            if (d || n || shift == 0)
                buf[n++] = (char)(d < 10 ? '0' + d : 'a' + d - 10);
        }
        return n;
    }
    for (unsigned i = 0; i < sizeof(pow10) / sizeof(pow10[0]); i++) {
        char d = '0';
        while (v >= pow10[i]) {
            v -= pow10[i];
            d++;
        }
        if (d != '0' || n || i == sizeof(pow10) / sizeof(pow10[0]) - 1)
            buf[n++] = d;
    }
    return n;
}

void con_printf(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    for (; *fmt; fmt++) {
        if (*fmt != '%') {
            if (*fmt == '\n')
                con_putc('\r');
            con_putc(*fmt);
            continue;
        }
        fmt++;
        char pad = ' ';
        unsigned width = 0;
        if (*fmt == '0') {
            pad = '0';
            fmt++;
        }
        while (*fmt >= '0' && *fmt <= '9')
            width = width * 10 + (unsigned)(*fmt++ - '0');
        if (*fmt == 'l')
            fmt++;

        char buf[12];
        unsigned n = 0;
        bool negative = false;
        switch (*fmt) {
        case 'd': {
            int32_t v = va_arg(ap, int32_t);
            negative = v < 0;
            n = format_digits(buf, negative ? 0u - (uint32_t)v : (uint32_t)v, false);
            break;
        }
        case 'u':
            n = format_digits(buf, va_arg(ap, uint32_t), false);
            break;
        case 'x':
            n = format_digits(buf, va_arg(ap, uint32_t), true);
            break;
        case 'c':
            buf[n++] = (char)va_arg(ap, int);
            break;
        case 's': {
            const char *s = va_arg(ap, const char *);
            con_puts(s ? s : "(null)");
            continue;
        }
        case '\0':
            fmt--;
            continue;
        default:
            buf[n++] = *fmt;
            break;
        }
        if (negative && pad == '0')
            con_putc('-');
        for (unsigned i = n + negative; i < width; i++)
            con_putc(pad);
        if (negative && pad != '0')
            con_putc('-');
        for (unsigned i = 0; i < n; i++)
            con_putc(buf[i]);
    }
    va_end(ap);
}
