/* SPDX-License-Identifier: MIT */
/* A small vsnprintf for the monitor: %s %c %d %i %u %x %X %%, flags '-' and '0', a field
 * width, and the 'l' modifier. Everything fiqmon prints needs no more; newlib's version
 * costs several KiB of code and most of a 3 KiB FIQ stack. Output is always terminated;
 * the return value is the length written (not the length wanted). */
#ifndef FIQMON_FORMAT_H
#define FIQMON_FORMAT_H

#include <stdarg.h>
#include <stddef.h>

int fmt_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int fmt_snprintf(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
