/* SPDX-License-Identifier: MIT */
#include "task_fixture.h"

#include <string.h>

#include "fake_port.h"
#include "kernel_fixture.h"

#define STACK_MAGIC 0x57ac6e9du
#define SIGNALS 0xc0330000u /* each process's signal_struct thread_head */
#define MMS 0xc0338000u

static const struct kfix_sym syms[] = {
    {KFIX_STEXT, 'T', "_stext"},
    {TFIX_SHOW_STATE, 'T', "show_state_filter"},
    {TFIX_MOD_KALLSYM, 'T', "module_get_kallsym"},
    {0xc0009200u, 'T', "_etext"},
};

static const struct {
    uint32_t pid, tgid, parent, mm, state, on_cpu; /* parent: its index, which is its pid */
    const char *comm;
} tasks[TFIX_NTASKS] = {
    {0, 0, 0, 0, 0, 0, "swapper/0"},
    {1, 1, 0, MMS, 1, 0, "init"},
    {2, 2, 0, 0, 1, 0, "kthreadd"},
    {3, 3, 2, 0, 0x402, 0, "kworker/0:1"},
    {10, 10, 1, MMS + 0x100, 1, 0, "sleepy"},
    {11, 11, 1, MMS + 0x200, 0, 1, "spinner"},
    {12, 10, 1, MMS + 0x100, 1, 0, "sleepy"}, /* sleepy's second thread */
};

uint32_t tfix_task(unsigned i)
{
    return TFIX_TASKS + i * TFIX_TASK_SIZE;
}

static uint32_t movw(unsigned rd, uint32_t v, bool top)
{
    v = top ? v >> 16 : v & 0xffff;
    return (top ? 0xe3400000u : 0xe3000000u) | (v >> 12) << 16 | rd << 12 | (v & 0xfff);
}

static void load(uint32_t at, unsigned rd, uint32_t v)
{
    kfix_w32(at, movw(rd, v, false));
    kfix_w32(at + 4, 0xe1a00000u); /* nop between: the pair need not be adjacent */
    kfix_w32(at + 8, movw(rd, v, true));
}

static void link(uint32_t *nodes, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        kfix_w32(nodes[i], nodes[(i + 1) % n]);
        kfix_w32(nodes[i] + 4, nodes[(i + n - 1) % n]);
    }
}

static void build_tasks(void)
{
    uint32_t ring[TFIX_NTASKS], n = 0;

    for (unsigned i = 0; i < TFIX_NTASKS; i++) {
        uint32_t t = tfix_task(i), stack = TFIX_STACKS + i * 0x2000u;
        kfix_w32(stack, STACK_MAGIC);
        kfix_w32(t + 8, 0);                                 /* thread_info.cpu */
        kfix_w32(t + TFIX_OFF_CONTEXT + 32, stack + 0x1f00); /* saved sp, pc */
        kfix_w32(t + TFIX_OFF_CONTEXT + 36, TFIX_SHOW_STATE + 0x40);
        kfix_w32(t + TFIX_OFF_STATE, tasks[i].state);
        kfix_w32(t + TFIX_OFF_STACK, stack);
        kfix_w32(t + TFIX_OFF_STACK + 4, 2);               /* usage */
        kfix_w32(t + TFIX_OFF_ON_CPU, tasks[i].on_cpu);
        kfix_w32(t + TFIX_OFF_MM, tasks[i].mm);
        kfix_w32(t + TFIX_OFF_MM + 4, tasks[i].mm);
        kfix_w32(t + TFIX_OFF_PID, tasks[i].pid);
        kfix_w32(t + TFIX_OFF_PID + 4, tasks[i].tgid);
        kfix_w32(t + TFIX_OFF_PARENT, tfix_task(tasks[i].parent)); /* real_parent, parent */
        kfix_w32(t + TFIX_OFF_PARENT + 4, tfix_task(tasks[i].parent));
        fake_mem_write(t + TFIX_OFF_COMM, tasks[i].comm, strlen(tasks[i].comm) + 1);
        if (tasks[i].mm)
            kfix_w32(tasks[i].mm, 1); /* mm_users: the mm reads */
        if (i < TFIX_NTASKS - 1)
            ring[n++] = t + TFIX_OFF_TASKS;
    }
    link(ring, n);
    /* thread groups: each leader with its signal_struct's head; sleepy with its thread */
    for (unsigned i = 0; i < TFIX_NTASKS - 1; i++) {
        uint32_t g[3] = {tfix_task(i) + TFIX_OFF_THREADS, SIGNALS + 16 * i,
                         tfix_task(TFIX_NTASKS - 1) + TFIX_OFF_THREADS};
        link(g, i == 4 ? 3 : 2);
    }
    load(TFIX_SHOW_STATE, 3, KFIX_UTS); /* a decoy first: init_uts_ns is no task */
    load(TFIX_SHOW_STATE + 12, 2, tfix_task(0));
}

static void build_modules(void)
{
    static const char *const names[] = {"crc7", "crc8"};
    uint32_t nodes[3] = {TFIX_MODULES_HEAD};

    for (unsigned i = 0; i < 2; i++) {
        uint32_t core = TFIX_MODULE_CORE + i * 0x2000u, m = core + 0x1000u;
        kfix_w32(m, 0); /* MODULE_STATE_LIVE */
        fake_mem_write(m + 12, names[i], strlen(names[i]) + 1);
        kfix_w32(m + TFIX_OFF_CORE, core);
        kfix_w32(m + TFIX_OFF_CORE + 4, 0x2000);
        nodes[1 + i] = m + 4;
    }
    link(nodes, 3);
    load(TFIX_MOD_KALLSYM, 1, TFIX_MODULES_HEAD);
}

void tfix_build_syms(const struct kfix_sym *table, unsigned n)
{
    kfix_reset();
    fake_mem_map(TFIX_STACKS, TFIX_NTASKS * 0x2000u);
    kfix_kernel();
    kfix_kallsyms(table, n, KFIX_MARKERS_BEFORE_SEQS);
    build_tasks();
    build_modules();
    kfix_publish();
}

void tfix_build(void)
{
    tfix_build_syms(syms, sizeof(syms) / sizeof(syms[0]));
}
