/* SPDX-License-Identifier: MIT */
#include "cmd_tasks.h"

#include <string.h>

#include "cmd_kernel_info.h"
#include "console.h"
#include "kmem.h"
#include "kmodule.h"
#include "ktask.h"
#include "parse.h"

/* The layout every task command needs (threads: thread_node too), or the error line. */
static bool need_layout(unsigned steps)
{
    unsigned found;

    if (!need_kernel(true))
        return false;
    found = tasks_arch_discover();
    if (found < steps) {
        tasks_arch_layout_error(found);
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

int cmd_ps(int argc, char **argv)
{
    bool threads = argc == 2 && strcmp(argv[1], "-t") == 0;

    if (argc == 2 && !threads && strcmp(argv[1], "-l") != 0)
        return con_error("usage: ps [-t|-l]");
    if (argc == 2 && !threads) {
        if (!need_kernel(true))
            return -1;
        tasks_arch_show_layout();
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
    con_printf("%-20s %8u %-9s " TARGET_ADDR_FMT "\n", m->name, (unsigned)m->size,
               kmodule_state_name(m->state), (unsigned long)m->base);
    return true;
}

int cmd_lsmod(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    if (!need_kernel(true) || !tasks_arch_modules())
        return -1;
    con_puts("Module                   Size State     Address\n");
    if (!kmodule_walk(lsmod_line, NULL))
        con_puts("lsmod: partial list: a link failed its check\n");
    return 0;
}

/* --- backtraces ------------------------------------------------------------------------ */
static target_addr_t running;

static bool bt_each(const struct ktask *t, void *arg)
{
    uint32_t pid = *(uint32_t *)arg;

    if (pid == ~0u || t->pid == pid) {
        con_printf("PID %u %s task=" TARGET_ADDR_FMT "%s\n", (unsigned)t->pid, t->comm,
                   (unsigned long)t->addr, t->addr == running ? " (interrupted here)" : "");
        tasks_arch_backtrace(t, t->addr == running);
        return pid == ~0u;
    }
    return true;
}

int tasks_backtrace(const char *arg)
{
    uint32_t pid = ~0u;
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
    running = tasks_arch_running(threads);
    end = ktask_walk(threads, bt_each, &pid);
    if (end == KT_WALK_STOPPED)
        return 0;
    walk_end("bt", end);
    return pid == ~0u ? 0 : con_error("no task with pid %u", (unsigned)pid);
}
