/* SPDX-License-Identifier: MIT */
#include "cmd_tasks.h"

#include <string.h>

#include "cmd_kernel_info.h"
#include "console.h"
#include "cpu_frame.h"
#include "kmem.h"
#include "kmodule.h"
#include "ktask.h"
#include "monitor.h"
#include "platform.h"
#include "parse.h"
#include "unwind.h"

/* The layout every task command needs (threads: thread_node too), or the error line. */
static bool need_layout(unsigned steps)
{
    unsigned found;

    if (!need_kernel(true))
        return false;
    found = ktask_discover();
    if (found < steps) {
        con_error("cannot find task_struct layout (%s)", ktask_step_name(found));
        return false;
    }
    return true;
}

static void walk_end(const char *cmd, enum ktask_walk_end end)
{
    static const char *const why[] = {"", "a link failed its check: the list changed under us",
                                      "", ""};

    if (end == KT_WALK_TORN)
        con_printf("%s: partial list: %s\n", cmd, why[end]);
    else if (end == KT_WALK_LIMIT)
        con_printf("%s: partial list: stopped after %u tasks\n", cmd, KTASK_MAX);
}

static bool ps_line(const struct ktask *t, void *arg)
{
    (void)arg;
    con_printf("%5u %5u %c %c %s%s%s\n", (unsigned)t->pid, (unsigned)t->ppid,
               ktask_state_letter(t->state), t->on_cpu ? '*' : ' ', t->mm ? "" : "[",
               t->comm, t->mm ? "" : "]");
    return true;
}

static void layout(void)
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

int cmd_ps(int argc, char **argv)
{
    bool threads = argc == 2 && strcmp(argv[1], "-t") == 0;

    if (argc == 2 && !threads && strcmp(argv[1], "-l") != 0)
        return con_error("usage: ps [-t|-l]");
    if (argc == 2 && !threads) {
        if (!need_kernel(true))
            return -1;
        layout();
        return 0;
    }
    if (!need_layout(threads ? KT_STEPS : KT_CONTEXT))
        return -1;
    con_puts("  PID  PPID S C COMMAND\n");
    walk_end("ps", ktask_walk(threads, ps_line, NULL));
    return 0;
}

static bool lsmod_line(const struct kmodule *m, void *arg)
{
    (void)arg;
    con_printf("%-20s %8u %-9s %08x\n", m->name, (unsigned)m->size,
               kmodule_state_name(m->state), (unsigned)m->base);
    return true;
}

int cmd_lsmod(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    if (!need_kernel(true))
        return -1;
    if (!kmodule_discover())
        return con_error("cannot find the module list (module_get_kallsym)");
    con_puts("Module                   Size State     Address\n");
    if (!kmodule_walk(lsmod_line, NULL))
        con_puts("lsmod: partial list: a link failed its check\n");
    return 0;
}

/* --- backtraces ------------------------------------------------------------------------ */
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

static void task_backtrace(const struct ktask *t)
{
    struct cpu_frame *f = monitor_frame();
    uint32_t regs[16] = {0};

    con_printf("PID %u %s task=%08x%s\n", (unsigned)t->pid, t->comm, (unsigned)t->addr,
               t->addr == running ? " (interrupted here)" : "");
    if (t->addr == running) {
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

static bool bt_each(const struct ktask *t, void *arg)
{
    uint32_t pid = *(uint32_t *)arg;

    if (pid == ~0u || t->pid == pid) {
        task_backtrace(t);
        return pid == ~0u;
    }
    return true;
}

int tasks_backtrace(const char *arg)
{
    struct cpu_frame *f = monitor_frame();
    uint32_t pid = ~0u, sp = f->svc.sp;
    enum ktask_walk_end end;
    bool threads;
    long n;

    if (strcmp(arg, "-t") != 0) { /* a pid is decimal, as ps shows it */
        if (parse_int(arg, &n) != PARSE_OK || n < 0 || n >= 0x7fffffff)
            return con_error("usage: bt [-s|-t|-a|PID]");
        pid = (uint32_t)n;
    }
    if (!need_layout(KT_STEPS - 1))
        return -1;
    threads = ktl.found == KT_STEPS;
    running = 0;
    on_cpu_count = 0;
    if (f->world == FRAME_WORLD_NORMAL)
        ktask_walk(threads, find_running, &sp);
    if (on_cpu_count > 1)
        running = 0; /* several CPUs: which one is this is not known */
    end = ktask_walk(threads, bt_each, &pid);
    if (end == KT_WALK_STOPPED)
        return 0;
    walk_end("bt", end);
    return pid == ~0u ? 0 : con_error("no task with pid %u", (unsigned)pid);
}
