/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "support.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

struct cpu_frame *fuzz_frame;

struct cpu_frame *__real_monitor_frame(void);
struct cpu_frame *__wrap_monitor_frame(void);

struct cpu_frame *__wrap_monitor_frame(void)
{
    return fuzz_frame ? fuzz_frame : __real_monitor_frame();
}

void fuzz_fail(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    fprintf(stderr, "fuzz: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    abort();
}

/* cmocka outside a test run would exit(); abort instead, which libFuzzer reports. */
__attribute__((constructor)) static void cmocka_aborts(void)
{
    setenv("CMOCKA_TEST_ABORT", "1", 1);
}
