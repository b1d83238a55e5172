/* SPDX-License-Identifier: MIT */
/* Addresses a kernel function builds in a register with a movw/movt pair (ARM mode, the
 * way GCC loads the address of a global such as init_task or the modules list head):
 * kernel data that kallsyms (text symbols only) does not name. */
#ifndef FIQMON_KCODE_H
#define FIQMON_KCODE_H

#include <stdbool.h>
#include <stdint.h>

#define KCODE_SCAN_MAX 4096u /* bytes of a function searched */

/* Each address function name loads with movw rN then movt rN, in code order, offered to
 * accept until it returns true; returns that address, 0 if none was accepted (or there
 * is no such function). Needs ksyms_ready(). */
uint32_t kcode_find_address(const char *name, bool (*accept)(uint32_t addr));

#endif
