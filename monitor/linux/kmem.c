/* SPDX-License-Identifier: MIT */
#include "kmem.h"

#include "platform.h"

#define KMEM_WAYS 8u /* direct-mapped words; tag 1 (never a word address) means empty */

bool kmem_failed;
static uint32_t tags[KMEM_WAYS], words[KMEM_WAYS];

void kmem_begin(void)
{
    kmem_failed = false;
    for (unsigned i = 0; i < KMEM_WAYS; i++)
        tags[i] = 1;
}

uint32_t kr32(uint32_t addr)
{
    uint32_t v;

    if (port_mem_read(addr, 4, &v))
        return v;
    kmem_failed = true;
    return 0;
}

uint8_t kr8(uint32_t addr)
{
    uint32_t w = addr & ~3u;
    unsigned way = (w >> 2) % KMEM_WAYS;

    if (tags[way] != w) {
        uint32_t v;
        if (!port_mem_read(w, 4, &v)) {
            kmem_failed = true;
            return 0;
        }
        tags[way] = w;
        words[way] = v;
    }
    return (uint8_t)(words[way] >> (8 * (addr & 3)));
}

uint16_t kr16(uint32_t addr)
{
    return (uint16_t)(kr8(addr) | kr8(addr + 1) << 8);
}

uint64_t kr64(uint32_t addr)
{
    uint32_t lo = kr32(addr);

    return (uint64_t)kr32(addr + 4) << 32 | lo;
}

uint32_t kprel31(uint32_t addr)
{
    return addr + (uint32_t)((int32_t)(kr32(addr) << 1) >> 1);
}
