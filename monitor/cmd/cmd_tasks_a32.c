/* SPDX-License-Identifier: MIT */
/* AArch32's half of the task commands (cmd_tasks.h): the layout discovered in a kernel
 * without debug info (ktask_layout.c, kmodule_layout.c), the EHABI unwinder. */
#include "cmd_tasks.h"

#if !FIQMON_AARCH64
#include "console.h"
#include "cpu_frame.h"
#include "kmem.h"
#include "kmodule.h"
#include "ktask.h"
#include "monitor.h"
#include "unwind.h"

unsigned tasks_arch_discover(void)
{
    return ktask_discover();
}

void tasks_arch_layout_error(unsigned found)
{
    con_error("cannot find task_struct layout (%s)", ktask_step_name(found));
}

void tasks_arch_show_layout(void)
{
    static const char *const how[KT_STEPS] = {
        "",
        "8 KiB aligned, lowest word 57ac6e9d",
        "\"swapper\" in init_task",
        "a ring of tasks, links both ways",
        "0, then 1, 2... rising; tgid (+4) = pid",
        "init_task for 0-2, else an older task",
        "NULL in kthreadd, = active_mm in init",
        "the word before stack; state bits only",
        "0 or 1; 1 in 1 to 8 tasks",
        "saved sp in the stack, pc in the code",
        "threads of one tgid and one list head"};
    unsigned found = ktask_discover();

    for (unsigned i = 0; i < found; i++) {
        if (i == KT_INIT_TASK)
            con_printf("init_task %08x: movw/movt in show_state_filter, %u tasks\n",
                       (unsigned)ktl.at[0], (unsigned)ktl.ring);
        else
            con_printf("%-12s+%-5u %s\n", ktask_step_name(i), (unsigned)ktl.at[i], how[i]);
    }
    if (found < KT_STEPS)
        con_printf("%s: not found\n", ktask_step_name(found));
    if (kmodule_discover())
        con_printf("modules %08x: movw/movt in module_get_kallsym, %u modules, core_layout "
                   "+%u\n", (unsigned)kml.head, (unsigned)kml.count, (unsigned)kml.core);
    else
        con_puts("modules: not found\n");
}

bool tasks_arch_modules(void)
{
    if (kmodule_discover())
        return true;
    con_error("cannot find the module list (module_get_kallsym)");
    return false;
}

/* The task this CPU was running: its kernel stack holds the svc sp (in user mode too, the
 * bank keeps the top of that stack); on an IRQ stack, the one task on a CPU if only one
 * is. */
static uint32_t running;
static unsigned on_cpu_count;

static bool find_running(const struct ktask *t, void *arg)
{
    uint32_t sp = *(uint32_t *)arg;

    if (t->on_cpu) {
        on_cpu_count++;
        if (!running)
            running = t->addr;
    }
    if (t->stack && ((sp - 1) & ~(KERNEL_THREAD_SIZE - 1)) == t->stack) {
        running = t->addr;
        on_cpu_count = 0; /* found by its stack: certain */
        return false;
    }
    return true;
}

target_addr_t tasks_arch_running(bool threads)
{
    struct cpu_frame *f = monitor_frame();
    uint32_t sp = f->svc.sp;

    running = 0;
    on_cpu_count = 0;
    if (f->world == FRAME_WORLD_NORMAL)
        ktask_walk(threads, find_running, &sp);
    if (on_cpu_count > 1)
        running = 0; /* several CPUs: which one is this is not known */
    return running;
}

void tasks_arch_backtrace(const struct ktask *t, bool is_running)
{
    struct cpu_frame *f = monitor_frame();
    uint32_t regs[16] = {0};

    if (is_running) {
        if ((f->cpsr & ARM_MODE_MASK) == ARM_MODE_USR) {
            con_printf("bt: in user mode at pc=%08x\n", (unsigned)f->pc);
            return;
        }
        for (unsigned i = 0; i < 16; i++)
            regs[i] = *frame_reg(f, i);
    } else if (t->on_cpu) {
        con_puts("bt: running on another CPU: no saved context\n");
        return;
    } else if (!t->stack) {
        con_puts("bt: exited: no stack\n");
        return;
    } else {
        uint32_t ctx = t->addr + ktl.at[KT_CONTEXT];
        kmem_failed = false;
        for (unsigned i = 0; i < 8; i++)
            regs[4 + i] = kr32(ctx + 4 * i); /* r4-r9, sl, fp */
        regs[13] = kr32(ctx + 32);
        regs[15] = kr32(ctx + 36);
        if (kmem_failed) {
            con_puts("bt: its saved context does not read\n");
            return;
        }
    }
    unwind_backtrace(regs, false);
}
#endif
