/* SPDX-License-Identifier: MIT */
#include "kmodule.h"

#include <stddef.h>

#include "kmem.h"

#define STATE_MAX 3u /* MODULE_STATE_UNFORMED */
#define LONG_MASK (sizeof(kulong_t) - 1u)

struct kmodule_layout kml;

target_addr_t kmodule_next(target_addr_t node)
{
    kulong_t n;

    kmem_failed = false;
    n = krlong(node);
    return !kmem_failed && n && !(n & LONG_MASK) && krlong(n + sizeof(kulong_t)) == node &&
                   !kmem_failed
               ? n
               : 0;
}

bool kmodule_ok(target_addr_t m, char *out)
{
    uint32_t len = kml.name_len < KMODULE_NAME_MAX ? kml.name_len : KMODULE_NAME_MAX;

    kmem_failed = false;
    if (kr32(m + kml.state) > STATE_MAX || kmem_failed)
        return false;
    for (unsigned i = 0; i < len; i++) {
        uint8_t c = kr8(m + kml.name + i);
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

bool kmodule_list_ok(target_addr_t head, uint32_t *count)
{
    target_addr_t n = head;

    for (*count = 0; *count <= KMODULE_MAX; ++*count) {
        if (!(n = kmodule_next(n)))
            return false;
        if (n == head)
            return true;
        if (!kmodule_ok(n - kml.list, NULL))
            return false;
    }
    return false;
}

bool kmodule_walk(bool (*fn)(const struct kmodule *m, void *arg), void *arg)
{
    target_addr_t n = kml.head;
    struct kmodule k;

    for (unsigned i = 0; i <= KMODULE_MAX; i++) {
        if (!(n = kmodule_next(n)))
            return false;
        if (n == kml.head)
            return true;
        k.addr = n - kml.list;
        if (!kmodule_ok(k.addr, k.name))
            return false;
        k.state = kr32(k.addr + kml.state);
        k.base = kml.core ? krlong(k.addr + kml.core) : 0;
        k.size = 0;
        for (unsigned j = 0; kml.core && j < kml.sizes && j < KMODULE_SIZES; j++)
            k.size += kr32(k.addr + kml.size[j]);
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
