/* SPDX-License-Identifier: MIT */
/* port_mem_* through the platform's translation (port_mem_translated.h). fiqmon's own
 * accesses (PORT_MEM_FIQMON) may touch what port_mem_secret() keeps from users. */
#include "port_mem_translated.h"

#include "arm_mem_probe.h"
#include "platform_def.h"

static enum port_mem_space space;

void port_mem_space(enum port_mem_space s)
{
    space = s;
}

enum port_mem_space port_mem_space_now(void)
{
    return space;
}

bool port_mem_is_memory(target_addr_t addr)
{
    target_addr_t pa;

    return platform_mem_translate(addr, &pa) &&
           (pa - RAM_BASE < RAM_SIZE || pa - FLASH_BASE < FLASH_SIZE);
}

static bool reach(target_addr_t addr, unsigned width, target_addr_t *pa)
{
    return platform_mem_translate(addr, pa) &&
           (space == PORT_MEM_FIQMON || !port_mem_secret(*pa, width));
}

bool port_mem_read(target_addr_t addr, unsigned width, uint32_t *value)
{
    target_addr_t pa;

    if (!reach(addr, width, &pa))
        return false;
    return width == 1 ? probe_read8(pa, value)
           : width == 2 ? probe_read16(pa, value)
                        : probe_read32(pa, value);
}

bool port_mem_write(target_addr_t addr, unsigned width, uint32_t value)
{
    target_addr_t pa;

    if (!reach(addr, width, &pa))
        return false;
    return width == 1 ? probe_write8(pa, value)
           : width == 2 ? probe_write16(pa, value)
                        : probe_write32(pa, value);
}
