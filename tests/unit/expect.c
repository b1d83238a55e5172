/* SPDX-License-Identifier: MIT */
#include "expect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

#define SLOTS 8
#define SLOT_SIZE 16384

static char *slot(void)
{
    static char bufs[SLOTS][SLOT_SIZE];
    static unsigned next;

    return bufs[next++ % SLOTS];
}

const char *expect_escape(const char *s)
{
    char *out = slot();
    size_t n = 0;

    if (!s)
        return "(null)";
    out[n++] = '"';
    for (; *s && n < SLOT_SIZE - 16; s++) {
        unsigned char c = (unsigned char)*s;
        switch (c) {
        case '\r':
            n += (size_t)sprintf(out + n, "\\r");
            break;
        case '\n':
            n += (size_t)sprintf(out + n, "\\n");
            break;
        case '\t':
            n += (size_t)sprintf(out + n, "\\t");
            break;
        case '\\':
        case '"':
            n += (size_t)sprintf(out + n, "\\%c", c);
            break;
        default:
            if (c < 0x20 || c > 0x7e)
                n += (size_t)sprintf(out + n, "\\x%02x", c);
            else
                out[n++] = (char)c;
        }
    }
    if (*s)
        n += (size_t)sprintf(out + n, "...");
    out[n++] = '"';
    out[n] = '\0';
    return out;
}

const char *tfmt(const char *fmt, ...)
{
    char *out = slot();
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(out, SLOT_SIZE, fmt, ap);
    va_end(ap);
    return out;
}

struct unpack_out {
    char *p, *end;
};

static void unpack_put(void *ctx, char c)
{
    struct unpack_out *o = ctx;

    if (o->p < o->end)
        *o->p++ = c;
}

const char *unpacked(const char *s)
{
    char *out = slot();
    struct unpack_out o = {out, out + SLOT_SIZE - 1};

    while (*s)
        text_expand((unsigned char)*s++, unpack_put, &o);
    *o.p = '\0';
    return out;
}

bool expect_str_same(const char *a, const char *b)
{
    if (!a || !b)
        return a == b;
    return strcmp(a, b) == 0;
}

static EXPECT_NORETURN void location(const char *file, int line)
{
    _fail(file, line);
    abort(); /* _fail leaves the test with longjmp; never here */
}

void expect_fail_num(const char *file, int line, const char *what, long long got, long long want)
{
    print_error("%s:\n  expected %lld (0x%llx)\n  got      %lld (0x%llx)\n", what, want,
                (unsigned long long)want, got, (unsigned long long)got);
    location(file, line);
}

void expect_fail_str(const char *file, int line, const char *what, const char *got,
                     const char *want)
{
    size_t at = 0;

    if (got && want)
        while (got[at] && got[at] == want[at])
            at++;
    print_error("%s:\n  expected %s\n  got      %s\n  (first difference at offset %zu)\n", what,
                expect_escape(want), expect_escape(got), at);
    location(file, line);
}

void expect_fail_find(const char *file, int line, const char *what, const char *hay,
                      const char *needle, bool want_found)
{
    print_error("%s:\n  expected %s %s\n  in       %s\n", what,
                want_found ? "to contain" : "not to contain", expect_escape(needle),
                expect_escape(hay));
    location(file, line);
}

void expect_fail_msg(const char *file, int line, const char *fmt, ...)
{
    char buf[SLOT_SIZE];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    print_error("%s\n", buf);
    location(file, line);
}

size_t count_substr(const char *hay, const char *needle)
{
    size_t n = 0, len = strlen(needle);

    if (!len)
        return 0;
    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p += len)
        n++;
    return n;
}

size_t count_lines(const char *s)
{
    size_t n = 0;
    const char *last = s;

    for (const char *p = s; *p; p++)
        if (*p == '\n') {
            n++;
            last = p + 1;
        }
    return n + (*last ? 1 : 0);
}

bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);

    return n >= m && strcmp(s + n - m, suffix) == 0;
}
