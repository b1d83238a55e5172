/* SPDX-License-Identifier: MIT */
/* The kernel's loaded modules (docs/tasks.md): the `modules` list head and where struct
 * module keeps its state, list node, name, core base and the sizes /proc/modules adds up.
 * On AArch32 (no debug info) the head is found where module_get_kallsym loads it (kcode.h)
 * and checked by its links; struct module begins with its state, its list node and its
 * name (unchanged since 2.6), and where its core_layout {base, size} lies is discovered:
 * the first pair of words that, in every module, is a page-aligned block holding the
 * struct module itself (the module's own data, .gnu.linkonce.this_module, is part of its
 * core) (kmodule_layout.c). On arm64 every offset comes from the kernel's BTF and the
 * head from the code that uses it (ktask_btf.c). The walk here serves both. */
#ifndef FIQMON_KMODULE_H
#define FIQMON_KMODULE_H

#include <stdbool.h>
#include <stdint.h>

#include "kmem.h"

#define KMODULE_NAME_MAX 60u /* MODULE_NAME_LEN on 32 bits (64 - sizeof(long)) */
#define KMODULE_MAX 512u     /* modules walked */
#define KMODULE_SIZES 8u     /* sizes added up at most (6.4's module_memory: 7) */

struct kmodule_layout {
    uint32_t generation; /* kernel_generation; 0: none */
    target_addr_t head;  /* &modules; 0: not found */
    uint32_t state, list, name, name_len; /* offsets in struct module; the name's bytes */
    uint32_t core;       /* offset of the core's base pointer in struct module; 0: not found */
    uint32_t size[KMODULE_SIZES]; /* offsets of the sizes /proc/modules adds up */
    uint32_t sizes;      /* how many (0 without core) */
    uint32_t count;      /* modules when found */
};
extern struct kmodule_layout kml;

/* AArch32: finds the list head (and the core offset if there is a module to find it in).
 * Needs ksyms_ready(). False if the head is not found. */
bool kmodule_discover(void);

struct kmodule {
    target_addr_t addr, base; /* base: 0 without kml.core */
    uint32_t state, size;     /* size: 0 without kml.core */
    char name[KMODULE_NAME_MAX];
};

/* The node after node on a list, if its prev link comes back to node; else 0. */
target_addr_t kmodule_next(target_addr_t node);
/* The module at m checks out (state 0-3, a printable name within name_len bytes); the
 * name is copied to out if not NULL (KMODULE_NAME_MAX bytes). */
bool kmodule_ok(target_addr_t m, char *out);
/* The list at kml.head closes and every module on it checks out; *count: how many. */
bool kmodule_list_ok(target_addr_t head, uint32_t *count);

/* Each module in list order, checked and read; false from fn stops. Returns true if the
 * whole list was walked, false if a link or a module failed its check or there were
 * more than KMODULE_MAX (a partial list). */
bool kmodule_walk(bool (*fn)(const struct kmodule *m, void *arg), void *arg);

/* "Live", "Loading", "Unloading", "Unformed" as /proc/modules names the states. */
const char *kmodule_state_name(uint32_t state);

#endif
