/* SPDX-License-Identifier: MIT */
#include "parse.h"

int parse_hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static enum parse_status parse_digits(const char *s, unsigned base, uint32_t *out)
{
    uint64_t v = 0;

    if (!*s)
        return PARSE_EMPTY;
    for (; *s; s++) {
        int d = parse_hex_digit(*s);
        if (d < 0 || (unsigned)d >= base)
            return PARSE_BAD_DIGIT;
        v = v * base + (unsigned)d;
        if (v > UINT32_MAX)
            return PARSE_OVERFLOW;
    }
    *out = (uint32_t)v;
    return PARSE_OK;
}

enum parse_status parse_u32(const char *s, uint32_t *out)
{
    if (s[0] == '#')
        return parse_digits(s + 1, 10, out);
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        return parse_digits(s + 2, 16, out);
    return parse_digits(s, 16, out);
}

enum parse_status parse_int(const char *s, long *out)
{
    uint32_t v;
    int neg = s[0] == '-';
    enum parse_status st = parse_digits(s + neg, 10, &v);

    if (st != PARSE_OK)
        return st;
    if (v > (uint32_t)INT32_MAX)
        return PARSE_OVERFLOW;
    *out = neg ? -(long)v : (long)v;
    return PARSE_OK;
}

const char *parse_status_text(enum parse_status st)
{
    switch (st) {
    case PARSE_OK:
        return "ok";
    case PARSE_EMPTY:
        return "no digits";
    case PARSE_BAD_DIGIT:
        return "not a number";
    case PARSE_OVERFLOW:
        return "number too large";
    }
    return "?";
}

static int is_space(char c)
{
    return c == ' ' || c == '\t';
}

int parse_words(char *line, char **argv, int max)
{
    int argc = 0;

    for (;;) {
        while (is_space(*line))
            *line++ = '\0';
        if (!*line)
            return argc;
        if (argc == max)
            return -1;
        argv[argc++] = line;
        while (*line && !is_space(*line))
            line++;
    }
}
