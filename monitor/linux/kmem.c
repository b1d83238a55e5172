/* SPDX-License-Identifier: MIT */
#include "kmem.h"

#include "platform.h"

#define KMEM_WAYS 8u /* direct-mapped words; tag 1 (never a word address) means empty */

bool kmem_failed;
static target_addr_t tags[KMEM_WAYS];
static uint32_t words[KMEM_WAYS];

void kmem_begin(void)
{
    kmem_failed = false;
    for (unsigned i = 0; i < KMEM_WAYS; i++)
        tags[i] = 1;
}

uint32_t kr32(target_addr_t addr)
{
    uint32_t v;

    if (port_mem_read(addr, 4, &v))
        return v;
    kmem_failed = true;
    return 0;
}

uint8_t kr8(target_addr_t addr)
{
    target_addr_t w = addr & ~(target_addr_t)3;
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

uint16_t kr16(target_addr_t addr)
{
    return (uint16_t)(kr8(addr) | kr8(addr + 1) << 8);
}

uint64_t kr64(target_addr_t addr)
{
    uint32_t lo = kr32(addr);

    return (uint64_t)kr32(addr + 4) << 32 | lo;
}

kulong_t krlong(target_addr_t addr)
{
    return sizeof(kulong_t) == 8 ? (kulong_t)kr64(addr) : (kulong_t)kr32(addr);
}

uint32_t kprel31(uint32_t addr)
{
    return addr + (uint32_t)((int32_t)(kr32(addr) << 1) >> 1);
}
