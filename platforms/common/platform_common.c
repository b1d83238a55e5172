/* SPDX-License-Identifier: MIT */
/* What every platform would otherwise write again: delays and entropy from its counter,
 * the payload's address from where fiqmon was loaded, and a reset that lets the last
 * bytes of output leave first. */
#include "handoff.h"
#include "platform.h"
#include "pl011_debug_port.h"

extern uint32_t boot_image_base;      /* boot/main.c: where the boot stub found itself */
extern const uint8_t __image_size[];  /* linker: the .bin fiqmon was loaded from */

void port_delay_ms(uint32_t ms)
{
    uint32_t start = platform_ticks(), ticks = ms * platform_ticks_per_ms();

    while (platform_ticks() - start < ticks) {
    }
}

uint32_t port_clock_ms(void)
{
    /* the counter wraps (every 68 s at 62.5 MHz): carry the ticks not yet whole ms */
    static uint32_t last, ticks, ms;
    uint32_t now = platform_ticks(), per_ms = platform_ticks_per_ms();

    ticks += now - last;
    last = now;
    ms += ticks / per_ms;
    ticks %= per_ms;
    return ms;
}

uint32_t port_entropy(void)
{
    return platform_ticks();
}

/* A payload header may follow fiqmon's own image, PAYLOAD_ALIGN-aligned. */
const struct boot_target *port_boot_target(void)
{
    static struct boot_target t;

    t = platform->boot;
    t.payload_addr = (boot_image_base + (uint32_t)(uintptr_t)__image_size + PAYLOAD_ALIGN - 1) &
                     ~(PAYLOAD_ALIGN - 1);
    return &t;
}

void port_reboot(void)
{
    debug_uart_flush(); /* the reset would cut the last characters off */
    platform_reset();
}
