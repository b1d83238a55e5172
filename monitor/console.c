/* SPDX-License-Identifier: MIT */
#include "console.h"

#include <stdarg.h>

#include "format.h"

#include "port.h"

/* One line of formatted output; longer results are cut (no command prints wider lines). */
#define CON_FORMAT_MAX 160

void con_write(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\n')
            port_putc('\r');
        port_putc((unsigned char)s[i]);
    }
}

void con_puts(const char *s)
{
    for (; *s; s++) {
        if (*s == '\n')
            port_putc('\r');
        port_putc((unsigned char)*s);
    }
}

static void con_vprintf(const char *fmt, va_list ap)
{
    char buf[CON_FORMAT_MAX];

    fmt_vsnprintf(buf, sizeof(buf), fmt, ap);
    con_puts(buf);
}

void con_printf(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    con_vprintf(fmt, ap);
    va_end(ap);
}

int con_error(const char *fmt, ...)
{
    va_list ap;

    con_puts("error: ");
    va_start(ap, fmt);
    con_vprintf(fmt, ap);
    va_end(ap);
    con_puts("\n");
    return -1;
}
