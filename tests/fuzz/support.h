/* SPDX-License-Identifier: MIT */
/* Shared by the libFuzzer harnesses, which link monitor/ with tests/unit/fake_port.c.
 *
 * A harness drives a parser directly, outside monitor_fiq_full(), where the real
 * monitor_frame() is NULL. The fuzz build links with -Wl,--wrap=monitor_frame, so every
 * command that asks for the interrupted context gets fuzz_frame (when set) instead.
 * A failed fake-port expectation (cmocka's fail_msg) aborts, so libFuzzer keeps the input. */
#ifndef FIQMON_FUZZ_SUPPORT_H
#define FIQMON_FUZZ_SUPPORT_H

#include "cpu_frame.h"

extern struct cpu_frame *fuzz_frame;

/* Prints the message and aborts: the harness found a bug. */
void fuzz_fail(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

#define FUZZ_CHECK(cond, ...)                                                                      \
    do {                                                                                           \
        if (!(cond))                                                                               \
            fuzz_fail(__VA_ARGS__);                                                                \
    } while (0)

#endif
