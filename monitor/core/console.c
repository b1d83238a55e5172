/* SPDX-License-Identifier: MIT */
#include "console.h"

#include <stdarg.h>
#include <string.h>

#include "format.h"
#include "text.h"

#include "platform.h"

/* One line of formatted output; longer results are cut (no command prints wider lines). */
#define CON_FORMAT_MAX 160

/* Where output goes instead of the port (con_set_sink), or NULL. */
static void (*con_sink)(const char *s, size_t n);
/* Where a copy of it goes as well (con_set_copy), or NULL. */
static void (*con_copy)(const char *s, size_t n);

void con_set_sink(void (*sink)(const char *s, size_t n))
{
    con_sink = sink;
}

void con_set_copy(void (*copy)(const char *s, size_t n))
{
    con_copy = copy;
}

void con_write(const char *s, size_t n)
{
    if (con_copy)
        con_copy(s, n);
    if (con_sink) {
        con_sink(s, n);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\n')
            port_putc('\r');
        port_putc((unsigned char)s[i]);
    }
}

struct con_chunk {
    size_t n;
    char buf[CON_FORMAT_MAX];
};

static void con_chunk_put(void *ctx, char c)
{
    struct con_chunk *k = ctx;

    if (k->n == sizeof(k->buf)) {
        con_write(k->buf, k->n);
        k->n = 0;
    }
    k->buf[k->n++] = c;
}

void con_puts(const char *s)
{
    struct con_chunk k;

    k.n = 0;
    while (*s)
        text_expand((unsigned char)*s++, con_chunk_put, &k);
    con_write(k.buf, k.n);
}

static void con_vprintf(const char *fmt, va_list ap)
{
    char buf[CON_FORMAT_MAX];

    /* the formatter expanded the format; %s arguments are shown as they are */
    con_write(buf, (size_t)fmt_vsnprintf(buf, sizeof(buf), fmt, ap));
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
