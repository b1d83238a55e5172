/* SPDX-License-Identifier: MIT */
/* port_mem_read/write for platforms where fiqmon sees the kernel's memory at its
 * physical addresses (MMU off in the monitor, or an identity map): one probe per access. */
#include "arm_mem_probe.h"
#include "platform.h"

/* The monitor window runs with the MMU off: all three spaces are physical. Only fiqmon's
 * own accesses (PORT_MEM_FIQMON) may touch what port_mem_secret() keeps from users. */
static enum port_mem_space space;

void port_mem_space(enum port_mem_space s)
{
    space = s;
}

static bool refused(uint32_t addr, unsigned width)
{
    return space != PORT_MEM_FIQMON && port_mem_secret(addr, width);
}

bool port_mem_read(target_addr_t addr, unsigned width, uint32_t *value)
{
    if (refused(addr, width))
        return false;
    switch (width) {
    case 1:
        return probe_read8(addr, value);
    case 2:
        return probe_read16(addr, value);
    default:
        return probe_read32(addr, value);
    }
}

bool port_mem_write(target_addr_t addr, unsigned width, uint32_t value)
{
    if (refused(addr, width))
        return false;
    switch (width) {
    case 1:
        return probe_write8(addr, value);
    case 2:
        return probe_write16(addr, value);
    default:
        return probe_write32(addr, value);
    }
}
