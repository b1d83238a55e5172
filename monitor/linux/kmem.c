/* SPDX-License-Identifier: MIT */
#include "kmem.h"

#include "platform.h"

#define KMEM_WAYS 8u /* direct-mapped words; tag 1 (never a word address) means empty */
#define TLB_WAYS 4u  /* pages the software walk translated last; tag 1: empty */
#define DESC_ADDR 0x0000fffffffff000ull /* a descriptor's output address, bits 47:12 */

bool kmem_failed;
static target_addr_t tags[KMEM_WAYS];
static uint32_t words[KMEM_WAYS];

static struct {
    uint64_t pgd; /* 0: off */
    unsigned va_bits;
    uint64_t va[TLB_WAYS], pa[TLB_WAYS];
} kt;

void kmem_begin(void)
{
    kmem_failed = false;
    for (unsigned i = 0; i < KMEM_WAYS; i++)
        tags[i] = 1;
}

void kmem_kernel_tables(uint64_t pgd_pa, unsigned va_bits)
{
    kt.pgd = va_bits >= 39 && va_bits <= 48 && !(pgd_pa & 0xfff) ? pgd_pa : 0;
    kt.va_bits = va_bits;
    for (unsigned i = 0; i < TLB_WAYS; i++)
        kt.va[i] = 1;
}

static bool phys64(uint64_t pa, uint64_t *v)
{
    uint32_t lo = 0, hi = 0;
    bool ok;

    port_mem_space(PORT_MEM_PHYSICAL);
    ok = port_mem_read((target_addr_t)pa, 4, &lo) && port_mem_read((target_addr_t)pa + 4, 4, &hi);
    port_mem_space(PORT_MEM_VIRTUAL);
    *v = (uint64_t)hi << 32 | lo;
    return ok;
}

bool kmem_walk(uint64_t pgd_pa, unsigned va_bits, uint64_t va, uint64_t *pa)
{
    /* levels of 9 index bits above the 12-bit page offset: 48 bits take levels 0-3, 39
     * take 1-3; the first level resolves what is left over */
    unsigned first = 4 - (va_bits - 12 + 8) / 9;
    uint64_t table = pgd_pa;

    for (unsigned level = first; level <= 3; level++) {
        unsigned shift = 12 + 9 * (3 - level), bits = level == first ? va_bits - shift : 9;
        uint64_t d, size = (uint64_t)1 << shift;

        if (!phys64(table + 8 * (va >> shift & (((uint64_t)1 << bits) - 1)), &d) || !(d & 1))
            return false;
        if (level < 3 && (d & 2)) { /* the next table */
            table = d & DESC_ADDR;
            continue;
        }
        /* a page (level 3, type 3), or a block (type 1: level 1 1 GiB, level 2 2 MiB) */
        if ((level == 3) != ((d & 2) != 0) || level == 0)
            return false;
        *pa = (d & DESC_ADDR & ~(size - 1)) | (va & (size - 1));
        return true;
    }
    return false;
}

bool kmem_kernel_phys(target_addr_t addr, uint64_t *pa)
{
    uint64_t page = (uint64_t)addr & ~(uint64_t)0xfff;
    unsigned way = (unsigned)(page >> 12) % TLB_WAYS;

    if (!kt.pgd || !((uint64_t)addr >> 63))
        return false;
    if (kt.va[way] != page) { /* a few pages remembered */
        if (!kmem_walk(kt.pgd, kt.va_bits, page, pa))
            return false;
        kt.va[way] = page;
        kt.pa[way] = *pa;
    }
    *pa = kt.pa[way] | (addr & 0xfff);
    return true;
}

static bool read_kernel_tables(target_addr_t addr, uint32_t *v)
{
    uint64_t pa;
    bool ok;

    if (!kmem_kernel_phys(addr, &pa))
        return false;
    port_mem_space(PORT_MEM_PHYSICAL);
    ok = port_mem_read((target_addr_t)pa, 4, v);
    port_mem_space(PORT_MEM_VIRTUAL);
    return ok;
}

static bool read_word(target_addr_t addr, uint32_t *v)
{
    /* (a 32-bit kernel's addresses have no top half: AArch32 never tries its tables) */
    return port_mem_read(addr, 4, v) || (sizeof(target_addr_t) == 8 && read_kernel_tables(addr, v));
}

uint32_t kr32(target_addr_t addr)
{
    uint32_t v;

    if (read_word(addr, &v))
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
        if (!read_word(w, &v)) {
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
