/* SPDX-License-Identifier: MIT */
/* The debug unit, on a board (or build) where the kernel's debug exceptions are its own:
 * nothing fiqmon can use (platform.h, section 9). */
#include "platform.h"

void port_debug_slots(unsigned *breakpoints, unsigned *watchpoints)
{
    *breakpoints = 0;
    *watchpoints = 0;
}

void port_debug_breakpoint(unsigned n, uint32_t addr, bool on)
{
    (void)n;
    (void)addr;
    (void)on;
}

void port_debug_watchpoint(unsigned n, uint32_t addr, uint32_t len, unsigned kind, bool on)
{
    (void)n;
    (void)addr;
    (void)len;
    (void)kind;
    (void)on;
}

void port_debug_step_breakpoint(unsigned cpu, unsigned n, uint32_t addr, bool on)
{
    (void)cpu;
    (void)n;
    (void)addr;
    (void)on;
}

void port_debug_step_watchpoints_off(unsigned cpu)
{
    (void)cpu;
}

void port_debug_step_end(unsigned cpu)
{
    (void)cpu;
}

bool port_debug_translation(uint32_t *ttbr0, uint32_t *ttbr1, uint32_t *ttbcr)
{
    *ttbr0 = *ttbr1 = *ttbcr = 0;
    return false;
}

bool port_debug_kernel_thumb(void)
{
    return false;
}

void port_debug_code_sync(uint32_t addr)
{
    (void)addr;
}

uint32_t port_debug_vectors(void)
{
    return 0;
}
