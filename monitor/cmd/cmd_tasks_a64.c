/* SPDX-License-Identifier: MIT */
/* AArch64's half of the task commands (cmd_tasks.h): the layout from the kernel's BTF
 * (ktask_btf.c), the running task from SP_EL0, backtraces by frame records. */
#include "cmd_tasks.h"

#if FIQMON_AARCH64
#include "btf.h"
#include "console.h"
#include "cpu_frame.h"
#include "kmem.h"
#include "kmodule.h"
#include "ktask.h"
#include "ktask_btf.h"
#include "monitor.h"
#include "unwind_a64.h"

/* Interrupted in the Normal world's kernel (EL1, or EL2 under VHE), not in user space. */
static bool in_kernel(const struct cpu_frame *f)
{
    return f->world == FRAME_WORLD_NORMAL && !(f->pstate & A64_PSTATE_NRW) &&
           (f->pstate & A64_PSTATE_M_MASK) >> 2 != 0;
}

/* `current`: arm64 keeps it in SP_EL0 while the kernel runs (in user space SP_EL0 is the
 * user's stack pointer). */
static target_addr_t current_task(void)
{
    const struct cpu_frame *f = monitor_frame();

    return in_kernel(f) ? f->sp_el0 : 0;
}

unsigned tasks_arch_discover(void)
{
    return ktask_btf_discover(current_task());
}

void tasks_arch_layout_error(unsigned found)
{
    if (!kernel_btf())
        con_error("cannot find the kernel's BTF (CONFIG_DEBUG_INFO_BTF)");
    else
        con_error("cannot find task_struct layout (%s)",
                  ktask_btf_missing[0] ? ktask_btf_missing : ktask_step_name(found));
}

void tasks_arch_show_layout(void)
{
    unsigned found = tasks_arch_discover();
    const struct btf *b = kernel_btf();

    if (!b) {
        con_puts("btf: not found\n");
        return;
    }
    con_printf("btf " TARGET_ADDR_FMT ": %s, %u types, %u bytes\n", (unsigned long)b->hdr,
               kernel_btf_how(), (unsigned)b->count,
               (unsigned)(b->strings + b->strings_len - b->hdr));
    if (found >= KT_THREADS)
        con_printf("init_task " TARGET_ADDR_FMT ": %s, %u tasks\n", (unsigned long)ktl.at[0],
                   ktask_btf_init_how, (unsigned)ktl.ring);
    for (unsigned i = KT_STACK; i < found; i++) {
        con_printf("%-12s+%-5u task_struct.%s", ktask_step_name(i), (unsigned)ktl.at[i],
                   ktask_btf_path[i]);
        if (i == KT_CONTEXT)
            con_printf(" (fp +%u, sp +%u, pc +%u)", (unsigned)ktl.context_fp,
                       (unsigned)ktl.context_sp, (unsigned)ktl.context_pc);
        con_puts("\n");
    }
    if (found < KT_STEPS)
        con_printf("%s: not found\n", ktask_btf_missing[0] ? ktask_btf_missing
                                                            : ktask_step_name(found));
    if (kmodule_btf_discover()) {
        con_printf("modules " TARGET_ADDR_FMT ": adrp in %s, %u modules; struct module: "
                   "state +%u, list +%u, name +%u, base +%u, sizes",
                   (unsigned long)kml.head, kmodule_btf_how, (unsigned)kml.count,
                   (unsigned)kml.state, (unsigned)kml.list, (unsigned)kml.name,
                   (unsigned)kml.core);
        for (unsigned i = 0; i < kml.sizes; i++)
            con_printf(" +%u", (unsigned)kml.size[i]);
        con_puts("\n");
    } else {
        con_printf("modules: not found (%s)\n", ktask_btf_missing);
    }
}

bool tasks_arch_modules(void)
{
    if (kmodule_btf_discover())
        return true;
    if (!kernel_btf())
        con_error("cannot find the kernel's BTF (CONFIG_DEBUG_INFO_BTF)");
    else
        con_error("cannot find the module list (%s)", ktask_btf_missing);
    return false;
}

/* Without `current` (user space, or the entry code before it set SP_EL0), the task on
 * a CPU if only one is. */
static target_addr_t on_cpu;
static unsigned on_cpu_count;

static bool count_on_cpu(const struct ktask *t, void *arg)
{
    (void)arg;
    if (t->on_cpu) {
        on_cpu = t->addr;
        on_cpu_count++;
    }
    return true;
}

target_addr_t tasks_arch_running(bool threads)
{
    const struct cpu_frame *f = monitor_frame();
    target_addr_t t = current_task();

    if (t && ktask_valid(t))
        return t;
    if (f->world != FRAME_WORLD_NORMAL)
        return 0;
    on_cpu = 0;
    on_cpu_count = 0;
    ktask_walk(threads, count_on_cpu, NULL);
    return on_cpu_count == 1 ? on_cpu : 0;
}

void tasks_arch_backtrace(const struct ktask *t, bool running)
{
    struct cpu_frame *f = monitor_frame();
    target_addr_t ctx = t->addr + ktl.at[KT_CONTEXT];
    uint64_t fp, pc;

    if (running) {
        if (!in_kernel(f)) {
            con_printf("bt: in user mode at pc=%016lx\n", (unsigned long)f->pc);
            return;
        }
        unwind_a64_backtrace(f);
        return;
    }
    if (t->on_cpu) {
        con_puts("bt: running on another CPU: no saved context\n");
        return;
    }
    if (!t->stack) {
        con_puts("bt: exited: no stack\n");
        return;
    }
    kmem_failed = false;
    fp = krlong(ctx + ktl.context_fp);
    pc = krlong(ctx + ktl.context_pc);
    if (kmem_failed) {
        con_puts("bt: its saved context does not read\n");
        return;
    }
    unwind_a64_backtrace_from(pc, fp);
}
#endif
