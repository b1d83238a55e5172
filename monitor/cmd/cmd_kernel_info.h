/* SPDX-License-Identifier: MIT */
/* kmsg, sym, bt and the Linux lines of version, pc and regs: a kernel fiqmon did not
 * build, inspected through what it publishes about itself (VMCOREINFO, kallsyms, the ARM
 * unwind index). Every command answers "error: no Linux kernel found" without one. */
#ifndef FIQMON_CMD_KERNEL_INFO_H
#define FIQMON_CMD_KERNEL_INFO_H

#include <stdbool.h>
#include <stdint.h>

#include "build_options.h"

int cmd_kmsg(int argc, char **argv);
int cmd_sym(int argc, char **argv);
int cmd_bt(int argc, char **argv);

struct vmci;
/* The kernel (and its kallsyms if symbols), or NULL after the error line. */
const struct vmci *need_kernel(bool symbols);
/* A data symbol the kernel's VMCOREINFO names (init_uts_ns, prb): kallsyms has code only
 * (KALLSYMS_ALL off). False if it names no such one. */
bool kernel_data_symbol(const struct vmci *v, const char *name, target_addr_t *addr);

#if FIQMON_LINUX
/* version: "linux RELEASE VERSION" (uname -r -v), or that there is none. */
void kernel_version_line(void);
/* pc, regs: "pc: symbol+0xoff/0xsize" (and lr) when a kernel's symbols resolve the
 * address; nothing otherwise. They search for a kernel only when the interrupted context
 * is a Normal-world one, so the plain path of a board without one stays cheap. */
void kernel_annotate(target_addr_t pc, const target_addr_t *lr);
/* One pc of a listing (cpu's): *no_kernel (false for the first) keeps a search of RAM that
 * found no kernel from running again for every line (without Linux, RAM is scanned whole). */
void kernel_annotate_next(target_addr_t pc, bool *no_kernel);
/* The watchdog's report: the interrupted kernel's backtrace and the last kmsg_lines of its
 * log, each under a heading, as far as permissions and the kernel allow; nothing without
 * a kernel. */
void kernel_lockup_details(uint32_t kmsg_lines);
#else /* LINUX=0: fiqmon knows nothing of the kernel it debugs */
static inline void kernel_version_line(void) {}
static inline void kernel_annotate_next(target_addr_t pc, bool *no_kernel)
{
    (void)pc;
    (void)no_kernel;
}
static inline void kernel_annotate(target_addr_t pc, const target_addr_t *lr)
{
    (void)pc;
    (void)lr;
}
static inline void kernel_lockup_details(uint32_t kmsg_lines)
{
    (void)kmsg_lines;
}
#endif

#endif
