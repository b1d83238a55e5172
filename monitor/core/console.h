/* SPDX-License-Identifier: MIT */
/* Text output on the debug port. '\n' goes out as CR LF. */
#ifndef FIQMON_CONSOLE_H
#define FIQMON_CONSOLE_H

#include <stddef.h>

void con_write(const char *s, size_t n);
/* A literal or a TEXT() (text.h), expanded if packed; anything else goes to con_write(). */
void con_puts(const char *s);
void con_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "error: <message>\n" and returns -1, so handlers can `return con_error(...)`. */
int con_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Send all of the above to sink(s, n) instead of the port, as written (no CR added);
 * NULL restores the port. For capturing a command's output (GDB's "monitor CMD"). */
void con_set_sink(void (*sink)(const char *s, size_t n));
/* Also give copy(s, n) everything written, as written; NULL stops. For keeping a report. */
void con_set_copy(void (*copy)(const char *s, size_t n));

#endif
