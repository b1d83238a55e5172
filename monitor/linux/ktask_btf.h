/* SPDX-License-Identifier: MIT */
/* The task_struct and struct module layouts of a kernel that carries its BTF (arm64
 * Debian: CONFIG_DEBUG_INFO_BTF=y), for the walks of ktask.h and kmodule.h. Each offset is
 * the kernel's own (btf.h), checked for the kind and size the walks read (a pid is a
 * 4-byte int, stack a pointer, comm a char[16], ...). Kernel data has no symbol
 * (KALLSYMS_ALL is off), so:
 *
 *   init_task  from the running task (arm64 keeps `current` in SP_EL0 while the kernel
 *              runs): its real_parent chain always ends in init_task, the one task that
 *              is its own parent (pid 0, "swapper/0"); else, as on AArch32, where
 *              show_state_filter computes its address (kcode_a64.h), checked the same way
 *   modules    where module_get_kallsym (or find_module_all, print_modules) computes the
 *              list head's address: the first whose ring closes with every node a module
 *
 * Found once per kernel_generation; ktl.found and kml.head say how far it got. */
#ifndef FIQMON_KTASK_BTF_H
#define FIQMON_KTASK_BTF_H

#include <stdbool.h>
#include <stdint.h>

#include "target.h"

/* Why the layout was not found: "" if it was; otherwise what is missing, e.g. "no BTF",
 * "task_struct.pid", "init_task". */
extern const char *ktask_btf_missing;
/* The task_struct member each offset of ktl.at[] is (its name in this kernel's BTF:
 * "__state", or an older kernel's "state"), for ps -l. */
extern const char *ktask_btf_path[];
/* How init_task was found: "real_parent chain from the running task",
 * "show_state_filter". */
extern const char *ktask_btf_init_how;

/* Fills ktl from the kernel's BTF, init_task found from running (a task_struct address
 * the CPU holds, 0 if none). Returns ktl.found (KT_STEPS: everything; KT_THREADS: all but
 * the thread list). Needs ksyms_ready(). */
unsigned ktask_btf_discover(target_addr_t running);
/* Fills kml (offsets from the BTF, the head from the code). False if the head or a
 * needed member is not found (ktask_btf_missing says which). Needs ksyms_ready(). */
bool kmodule_btf_discover(void);
/* How the modules head was found: the function whose code computes it. */
extern const char *kmodule_btf_how;

#endif
