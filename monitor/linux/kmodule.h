/* SPDX-License-Identifier: MIT */
/* The kernel's loaded modules without debug info (docs/tasks.md): the `modules` list head
 * is found where module_get_kallsym loads it (kcode.h) and checked by its links; struct
 * module begins with its state, its list node and its name (unchanged since 2.6), and
 * where its core_layout {base, size} lies is discovered: the first pair of words that,
 * in every module, is a page-aligned block holding the struct module itself (the
 * module's own data, .gnu.linkonce.this_module, is part of its core). */
#ifndef FIQMON_KMODULE_H
#define FIQMON_KMODULE_H

#include <stdbool.h>
#include <stdint.h>

#define KMODULE_NAME_MAX 60u /* MODULE_NAME_LEN on 32 bits */
#define KMODULE_MAX 512u     /* modules walked */

struct kmodule_layout {
    uint32_t generation; /* kernel_generation; 0: none */
    uint32_t head;       /* &modules; 0: not found */
    uint32_t core;       /* offset of core_layout.base in struct module; 0: not found */
    uint32_t count;      /* modules when found */
};
extern struct kmodule_layout kml;

/* Finds the list head (and the core offset if there is a module to find it in). Needs
 * ksyms_ready(). False if the head is not found. */
bool kmodule_discover(void);

struct kmodule {
    uint32_t addr, state, base, size; /* base, size: 0 without kml.core */
    char name[KMODULE_NAME_MAX];
};

/* Each module in list order, checked and read; false from fn stops. Returns true if the
 * whole list was walked, false if a link or a module failed its check or there were
 * more than KMODULE_MAX (a partial list). */
bool kmodule_walk(bool (*fn)(const struct kmodule *m, void *arg), void *arg);

/* "Live", "Loading", "Unloading", "Unformed" as /proc/modules names the states. */
const char *kmodule_state_name(uint32_t state);

#endif
