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

static enum parse_status parse_digits(const char *s, unsigned base, uint64_t max, uint64_t *out)
{
    uint64_t v = 0;

    if (!*s)
        return PARSE_EMPTY;
    for (; *s; s++) {
        int d = parse_hex_digit(*s);
        if (d < 0 || (unsigned)d >= base)
            return PARSE_BAD_DIGIT;
        if (v > (max - (unsigned)d) / base)
            return PARSE_OVERFLOW;
        v = v * base + (unsigned)d;
    }
    *out = v;
    return PARSE_OK;
}

static enum parse_status parse_number(const char *s, uint64_t max, uint64_t *out)
{
    if (s[0] == '#')
        return parse_digits(s + 1, 10, max, out);
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        return parse_digits(s + 2, 16, max, out);
    return parse_digits(s, 16, max, out);
}

enum parse_status parse_addr(const char *s, target_addr_t *out)
{
    uint64_t v;
    enum parse_status st = parse_number(s, TARGET_ADDR_MAX, &v);

    if (st == PARSE_OK)
        *out = (target_addr_t)v;
    return st;
}

enum parse_status parse_u32(const char *s, uint32_t *out)
{
    uint64_t v;
    enum parse_status st = parse_number(s, UINT32_MAX, &v);

    if (st == PARSE_OK)
        *out = (uint32_t)v;
    return st;
}

enum parse_status parse_int(const char *s, long *out)
{
    uint64_t v;
    int neg = s[0] == '-';
    enum parse_status st = parse_digits(s + neg, 10, INT32_MAX, &v);

    if (st != PARSE_OK)
        return st;
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
