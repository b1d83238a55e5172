/* SPDX-License-Identifier: MIT */
/* C entry of the resident copy, and the reports fiqmon makes on its own behalf. */
#include <stdint.h>

#include "handoff.h"
#include "boot_entry.h"
#include "countdown.h"
#include "format.h"
#include "hmac.h"
#include "knock.h"
#include "fiqmon_features.h"
#include "lockdown.h"
#include "monitor.h"
#include "platform.h"

#ifndef ENTRY_HALTS_DEFAULT
#define ENTRY_HALTS_DEFAULT 0 /* make ENTRY=halt: a knock halts every CPU */
#endif
#ifndef KNOCK_DEFAULT
#define KNOCK_DEFAULT KNOCK_MODE_MAGIC
#endif
#ifndef FIQMON_VERSION
#define FIQMON_VERSION "0.0.0"
#endif
#ifndef FIQMON_GIT
#define FIQMON_GIT "unknown"
#endif

/* Where the boot stub found itself (set by resident_start before C runs). */
uint32_t boot_image_base;
/* A copy of the unlock key that fiqmon could not wipe (in the flash it booted from), or 0:
 * port_mem_secret() keeps md and GDB away from it. */
uint32_t boot_key_copy;

extern const uint8_t __resident_copy_start[], __resident_image_offset[];

/* The image fiqmon was loaded from still holds everything the boot stub copied, the unlock
 * key included. Wipe that copy if it is in RAM, where the kernel will run. */
static void wipe_loaded_key(void)
{
    unsigned len;
    const uint8_t *key = lockdown_build_key(&len);
    const struct boot_target *t = port_boot_target();
    uint32_t copy;

    if (!len)
        return;
    copy = boot_image_base + (uint32_t)(uintptr_t)__resident_image_offset +
           (uint32_t)(key - __resident_copy_start);
    if (copy == (uint32_t)(uintptr_t)key)
        return; /* run in place: there is no copy */
    if (copy - t->ram_base < t->ram_size)
        crypto_wipe((void *)(uintptr_t)copy, len);
    else
        boot_key_copy = copy;
}

void fiqmon_main(uint32_t r0, uint32_t r1, uint32_t r2, uint32_t r3)
{
    char line[160];
    const char *prompt;

    (void)r0;
    (void)r1;
    (void)r2;
    (void)r3;
    wipe_loaded_key();
    platform_init();
    monitor_init(KNOCK_DEFAULT, &fiqmon_features);
    monitor_set_entry_halts(ENTRY_HALTS_DEFAULT);
    fmt_snprintf(line, sizeof(line),
             "\r\nfiqmon %s (git %s) on %s: resident at 0x%08lx, debug port %s, knock %d\r\n",
             FIQMON_VERSION, FIQMON_GIT, platform->name,
             (unsigned long)platform->resident_base, platform->debug_uart, KNOCK_DEFAULT);
    platform_early_puts(line);

    if (boot_describe_payload()) {
        /* Every outcome continues in FIQ context, where the hand-off rewrites a frame. */
        boot_countdown(platform->boot_delay_ms);
        platform_raise_service_fiq();
        return;
    }
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

    fmt_snprintf(line, sizeof(line), "\r\nfiqmon: fatal: unexpected %s at pc=%08lx spsr=%08lx\r\n",
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
