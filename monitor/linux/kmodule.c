/* SPDX-License-Identifier: MIT */
#include "kmodule.h"

#include <stddef.h>

#include "kcode.h"
#include "kmem.h"
#include "vmcoreinfo.h"

#define MOD_STATE 0u /* enum module_state state; struct list_head list; char name[56] */
#define MOD_LIST 4u
#define MOD_NAME 12u
#define STATE_MAX 3u           /* MODULE_STATE_UNFORMED */
#define CORE_SCAN 1024u        /* bytes of a struct module searched for core_layout */
#define PAGE_MASK_4K 0xfffu
#define CORE_SIZE_MAX 0x4000000u /* 64 MiB: the ARM module area is 16 MiB */

struct kmodule_layout kml;

static uint32_t next_node(uint32_t node)
{
    uint32_t n;

    kmem_failed = false;
    n = kr32(node);
    return !kmem_failed && n && !(n & 3) && kr32(n + 4) == node && !kmem_failed ? n : 0;
}

/* A module's state and name check out; name copied to out (KMODULE_NAME_MAX bytes). */
static bool module_ok(uint32_t m, char *out)
{
    kmem_failed = false;
    if (kr32(m + MOD_STATE) > STATE_MAX || kmem_failed)
        return false;
    for (unsigned i = 0; i < KMODULE_NAME_MAX; i++) {
        uint8_t c = kr8(m + MOD_NAME + i);
        if (out)
            out[i] = (char)c;
        if (kmem_failed)
            return false;
        if (!c)
            return i > 0;
        if (c <= 0x20 || c > 0x7e)
            return false;
    }
    return false;
}

/* Every module on the list at head checks out (and the list closes); n: how many. */
static bool list_ok(uint32_t head, uint32_t *count)
{
    uint32_t n = head;

    for (*count = 0; *count <= KMODULE_MAX; ++*count) {
        if (!(n = next_node(n)))
            return false;
        if (n == head)
            return true;
        if (!module_ok(n - MOD_LIST, NULL))
            return false;
    }
    return false;
}

static bool head_candidate(uint32_t head)
{
    return !(head & 3) && list_ok(head, &kml.count);
}

static bool core_at(uint32_t off)
{
    uint32_t n = kml.head;

    while ((n = next_node(n)) && n != kml.head) {
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
    kml.core = 0;
    kml.head = kcode_find_address("module_get_kallsym", head_candidate);
    kml.generation = kernel_generation;
    if (kml.head && kml.count)
        for (uint32_t off = MOD_NAME + KMODULE_NAME_MAX; off < CORE_SCAN && !kml.core; off += 4)
            if (core_at(off))
                kml.core = off;
    kmem_begin();
    return kml.head != 0;
}

bool kmodule_walk(bool (*fn)(const struct kmodule *m, void *arg), void *arg)
{
    uint32_t n = kml.head;
    struct kmodule k;

    for (unsigned i = 0; i <= KMODULE_MAX; i++) {
        if (!(n = next_node(n)))
            return false;
        if (n == kml.head)
            return true;
        k.addr = n - MOD_LIST;
        if (!module_ok(k.addr, k.name))
            return false;
        k.state = kr32(k.addr + MOD_STATE);
        k.base = kml.core ? kr32(k.addr + kml.core) : 0;
        k.size = kml.core ? kr32(k.addr + kml.core + 4) : 0;
        if (kmem_failed)
            return false;
        if (!fn(&k, arg))
            return true;
    }
    return false;
}

const char *kmodule_state_name(uint32_t state)
{
    static const char *const names[] = {"Live", "Loading", "Unloading", "Unformed"};

    return state <= STATE_MAX ? names[state] : "?";
}
