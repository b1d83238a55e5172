/* SPDX-License-Identifier: MIT */
/* C entry of the resident copy, and the reports fiqmon makes on its own behalf. */
#include <stdint.h>
#include <stdio.h>

#include "boot.h"
#include "knock.h"
#include "monitor.h"
#include "platform.h"
#include "port.h"

#ifndef KNOCK_DEFAULT
#define KNOCK_DEFAULT KNOCK_MODE_MAGIC
#endif
#ifndef FIQMON_VERSION
#define FIQMON_VERSION "0.0.0"
#endif
#ifndef FIQMON_GIT
#define FIQMON_GIT "unknown"
#endif

/* In: r0-r3 as the loader passed them to _start (boot protocol arguments). */
void fiqmon_main(uint32_t r0, uint32_t r1, uint32_t r2, uint32_t r3)
{
    char line[160];
    const char *prompt;

    (void)r0;
    (void)r1;
    (void)r2;
    (void)r3;
    platform_init();
    monitor_init(KNOCK_DEFAULT);
    snprintf(line, sizeof(line),
             "\r\nfiqmon %s (git %s) on %s: resident at 0x%08lx, debug port %s, knock %d\r\n",
             FIQMON_VERSION, FIQMON_GIT, port_platform_name(),
             (unsigned long)platform_resident_base(), port_debug_uart_name(), KNOCK_DEFAULT);
    platform_early_puts(line);
    prompt = knock_prompt(KNOCK_DEFAULT);
    if (prompt) {
        platform_early_puts(prompt);
        platform_early_puts("\r\n");
    }
}

static const char *const exception_names[] = {"?", "undefined instruction", "SWI",
                                              "prefetch abort", "data abort", "reserved vector",
                                              "IRQ"};

/* Called from the vector stubs for exceptions fiqmon does not expect; never returns. */
void fatal_exception(unsigned kind, uint32_t pc, uint32_t spsr)
{
    char line[120];

    snprintf(line, sizeof(line), "\r\nfiqmon: fatal: unexpected %s at pc=%08lx spsr=%08lx\r\n",
             kind < sizeof(exception_names) / sizeof(exception_names[0]) ? exception_names[kind]
                                                                          : "exception",
             (unsigned long)pc, (unsigned long)spsr);
    platform_early_puts(line);
}

/* The idle loop found a register changed across a FIQ: the entry/exit path lost state. */
void idle_report_corruption(void)
{
    platform_early_puts("\r\nfiqmon: fatal: idle context corrupted across a FIQ\r\n");
}
