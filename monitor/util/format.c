/* SPDX-License-Identifier: MIT */
#include "format.h"

#include <stdbool.h>
#include <stdint.h>

#include "text.h"

struct out {
    char *p, *end; /* end: the last byte, kept for the terminator */
};

static void put(struct out *o, char c)
{
    if (o->p < o->end)
        *o->p++ = c;
}

static void put_expanded(void *o, char c)
{
    put(o, c);
}

static void pad(struct out *o, char c, int n)
{
    while (n-- > 0)
        put(o, c);
}

static void field(struct out *o, const char *s, int len, int width, bool left, char fill)
{
    if (!left)
        pad(o, fill, width - len);
    for (int i = 0; i < len; i++)
        put(o, s[i]);
    if (left)
        pad(o, ' ', width - len);
}

int fmt_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    struct out o = {buf, buf + (size ? size - 1 : 0)};

    if (!size)
        return 0;
    for (; *fmt; fmt++) {
        bool left = false, is_long = false;
        char fill = ' ', digits[22]; /* a 64-bit long in decimal, and its sign */
        int width = 0, len = 0;
        unsigned long v;
        const char *s;

        if (*fmt != '%') {
            text_expand((unsigned char)*fmt, put_expanded, &o); /* a packed format (text.h) */
            continue;
        }
        fmt++;
        for (;; fmt++) {
            if (*fmt == '-')
                left = true;
            else if (*fmt == '0')
                fill = '0';
            else
                break;
        }
        while (*fmt >= '0' && *fmt <= '9')
            width = width * 10 + (*fmt++ - '0');
        if (*fmt == 'l') {
            is_long = true;
            fmt++;
        }
        switch (*fmt) {
        case 's':
            s = va_arg(ap, const char *);
            if (!s)
                s = "(null)";
            while (s[len])
                len++;
            field(&o, s, len, width, left, ' ');
            break;
        case 'c':
            digits[0] = (char)va_arg(ap, int);
            field(&o, digits, 1, width, left, ' ');
            break;
        case 'd':
        case 'i': {
            long sv = is_long ? va_arg(ap, long) : va_arg(ap, int);
            bool neg = sv < 0;
            v = neg ? 0ul - (unsigned long)sv : (unsigned long)sv;
            do
                digits[sizeof(digits) - 1 - len++] = (char)('0' + v % 10);
            while ((v /= 10) && len < (int)sizeof(digits) - 1);
            if (neg)
                digits[sizeof(digits) - 1 - len++] = '-';
            field(&o, digits + sizeof(digits) - len, len, width, left, neg ? ' ' : fill);
            break;
        }
        case 'u':
        case 'x':
        case 'X': {
            unsigned base = *fmt == 'u' ? 10 : 16;
            const char *hex = *fmt == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
            v = is_long ? va_arg(ap, unsigned long) : va_arg(ap, unsigned);
            do
                digits[sizeof(digits) - 1 - len++] = hex[v % base];
            while ((v /= base) && len < (int)sizeof(digits));
            field(&o, digits + sizeof(digits) - len, len, width, left, fill);
            break;
        }
        case '%':
            put(&o, '%');
            break;
        default: /* unknown conversion: show it rather than guess at arguments */
            put(&o, '%');
            if (!*fmt)
                fmt--;
            else
                put(&o, *fmt);
            break;
        }
    }
    *o.p = '\0';
    return (int)(o.p - buf);
}

int fmt_snprintf(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = fmt_vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    return n;
}
