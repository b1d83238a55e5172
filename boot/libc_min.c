/* SPDX-License-Identifier: MIT */
/* The few C library routines fiqmon uses, small rather than fast: newlib's ARMv7 memcpy and
 * strcmp alone are 1.8 KiB, more than a tenth of the monitor. Nothing here is on the FIQ
 * hot path. Built without loop-pattern recognition, or the compiler would turn these very
 * loops back into calls to themselves. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define NO_PATTERNS __attribute__((optimize("no-tree-loop-distribute-patterns")))

NO_PATTERNS void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
    uint8_t *d = dst;
    const uint8_t *s = src;

    while (n--)
        *d++ = *s++;
    return dst;
}

NO_PATTERNS void *memmove(void *dst, const void *src, size_t n)
{
    uint8_t *d = dst;
    const uint8_t *s = src;

    if (d < s) {
        while (n--)
            *d++ = *s++;
    } else {
        while (n--)
            d[n] = s[n];
    }
    return dst;
}

NO_PATTERNS void *memset(void *dst, int c, size_t n)
{
    uint8_t *d = dst;

    while (n--)
        *d++ = (uint8_t)c;
    return dst;
}

NO_PATTERNS size_t strlen(const char *s)
{
    const char *p = s;

    while (*p)
        p++;
    return (size_t)(p - s);
}

NO_PATTERNS int strcmp(const char *a, const char *b)
{
    while (*a && *a == *b) {
        a++;
        b++;
    }
    return (unsigned char)*a - (unsigned char)*b;
}

NO_PATTERNS int strncmp(const char *a, const char *b, size_t n)
{
    for (; n; n--, a++, b++) {
        if (*a != *b || !*a)
            return (unsigned char)*a - (unsigned char)*b;
    }
    return 0;
}

NO_PATTERNS int memcmp(const void *a, const void *b, size_t n)
{
    const uint8_t *p = a, *q = b;

    for (; n; n--, p++, q++) {
        if (*p != *q)
            return *p - *q;
    }
    return 0;
}
