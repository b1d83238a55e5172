/* SPDX-License-Identifier: MIT */
/* The module list of an AArch32 kernel without debug info (kmodule.h). */
#include "kmodule.h"

#include <stddef.h>

#include "kcode.h"
#include "kmem.h"
#include "vmcoreinfo.h"

#define MOD_STATE 0u /* enum module_state state; struct list_head list; char name[60] */
#define MOD_LIST 4u
#define MOD_NAME 12u
#define CORE_SCAN 1024u        /* bytes of a struct module searched for core_layout */
#define PAGE_MASK_4K 0xfffu
#define CORE_SIZE_MAX 0x4000000u /* 64 MiB: the ARM module area is 16 MiB */

static bool head_candidate(uint32_t head)
{
    return !(head & 3) && kmodule_list_ok(head, &kml.count);
}

static bool core_at(uint32_t off)
{
    uint32_t n = kml.head;

    while ((n = kmodule_next(n)) && n != kml.head) {
        uint32_t m = n - MOD_LIST, base = kr32(m + off), size = kr32(m + off + 4);
        if (kmem_failed || !base || base & PAGE_MASK_4K || !size || size > CORE_SIZE_MAX ||
            m < base || m - base >= size)
            return false;
    }
    return n == kml.head;
}

bool kmodule_discover(void)
{
    if (kml.generation == kernel_generation && kml.head && kml.core)
        return true;
    kml.state = MOD_STATE;
    kml.list = MOD_LIST;
    kml.name = MOD_NAME;
    kml.name_len = KMODULE_NAME_MAX;
    kml.core = 0;
    kml.sizes = 0;
    kml.head = kcode_find_address("module_get_kallsym", head_candidate);
    kml.generation = kernel_generation;
    if (kml.head && kml.count)
        for (uint32_t off = MOD_NAME + KMODULE_NAME_MAX; off < CORE_SCAN && !kml.core; off += 4)
            if (core_at(off))
                kml.core = off;
    if (kml.core) { /* core_layout {base, size}: /proc/modules' size once init is freed */
        kml.size[0] = kml.core + 4;
        kml.sizes = 1;
    }
    kmem_begin();
    return kml.head != 0;
}
