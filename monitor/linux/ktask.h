/* SPDX-License-Identifier: MIT */
/* The kernel's tasks (docs/tasks.md). Debian's armmp kernel has no BTF and kallsyms names
 * text only, so on AArch32 init_task is found where show_state_filter loads it (kcode.h),
 * and the task_struct fields fiqmon needs are discovered from memory, each by a heuristic
 * checked against an invariant of its own (ktask_layout.c); nothing is taken from one
 * build. A step that cannot be validated stops the discovery: fiqmon never guesses. An
 * arm64 kernel describes its structs in its BTF: there the offsets are read from it and
 * init_task found from the running task (ktask_btf.c).
 *
 * The layout is kept for the kernel it was found in (kernel_generation); every walk (this
 * file's, ktask_walk.c, the same for both) still checks each pointer it follows, since
 * the kernel may run while fiqmon reads. Pointers are the kernel's longs (kmem.h). */
#ifndef FIQMON_KTASK_H
#define FIQMON_KTASK_H

#include <stdbool.h>
#include <stdint.h>

#include "kmem.h"

#define TASK_STACK_END_MAGIC 0x57ac6e9du /* lowest word of every kernel stack */
#define KTASK_COMM_LEN 16u                /* TASK_COMM_LEN */
#define KTASK_MAX 1024u                   /* tasks (and threads of one task) walked */
/* Kernel stacks are aligned to THREAD_SIZE at least: 8 KiB on ARM, 16 KiB on arm64 (4 KiB
 * pages; VMAP_STACK aligns them to twice that) */
#if FIQMON_AARCH64
#define KTASK_STACK_ALIGN 16384u
#else
#define KTASK_STACK_ALIGN 8192u
#endif

/* Discovery steps, in order; each but the first is a task_struct field offset. */
enum ktask_step {
    KT_INIT_TASK, /* init_task's address */
    KT_STACK,     /* stack: the pointer to its kernel stack */
    KT_COMM,      /* comm[16] */
    KT_TASKS,     /* tasks: the list_head of every thread group leader */
    KT_PID,       /* pid, then tgid */
    KT_PARENT,    /* real_parent */
    KT_MM,        /* mm (NULL: a kernel thread) */
    KT_STATE,     /* __state */
    KT_ON_CPU,    /* on_cpu */
    KT_CONTEXT,   /* cpu_context: ARM's in thread_info (r4-r9, sl, fp, sp, pc), arm64's in
                     thread (x19-x28, fp, sp, pc) */
    KT_THREADS,   /* thread_node: the task's link in its thread group */
    KT_STEPS
};

struct ktask_layout {
    uint32_t generation;      /* kernel_generation it was found for; 0: none */
    target_addr_t at[KT_STEPS]; /* at[KT_INIT_TASK]: the address; the rest: offsets */
    uint32_t ring;            /* tasks on init_task's ring when found */
    uint32_t context_fp, context_sp, context_pc; /* arm64 (BTF): in cpu_context */
    uint8_t found;            /* steps found: at[i] is valid for i < found */
};
extern struct ktask_layout ktl;

/* Finds the layout (kept while it is complete and the kernel unchanged). Returns the
 * number of steps found (KT_STEPS: all). Needs ksyms_ready(). */
unsigned ktask_discover(void);
/* "init_task", "stack", ... */
const char *ktask_step_name(unsigned step);

/* One task as read. */
struct ktask {
    target_addr_t addr, stack, mm;
    uint32_t state, pid, tgid, ppid;
    bool on_cpu;
    char comm[KTASK_COMM_LEN];
};

/* The task at addr looks like one: its stack pointer is KTASK_STACK_ALIGN aligned and the
 * stack's lowest word is TASK_STACK_END_MAGIC (or, for an exited task, the stack is freed and
 * __state says TASK_DEAD), and its comm is a printable NUL-terminated string. Needs
 * ktl.found > KT_COMM (> KT_STATE for exited tasks). */
bool ktask_valid(target_addr_t addr);
/* Reads the fields found so far (ktl.found > KT_ON_CPU for all of them). */
bool ktask_read(target_addr_t addr, struct ktask *t);

enum ktask_walk_end {
    KT_WALK_DONE,    /* the whole ring */
    KT_WALK_TORN,    /* a pointer that fails its check: the list changed under us */
    KT_WALK_LIMIT,   /* more than KTASK_MAX */
    KT_WALK_STOPPED, /* fn returned false */
};
/* init_task, then every task on its ring in order (with threads, each leader's other
 * threads after it), each checked and read before fn sees it. Needs a complete layout
 * (threads: ktl.found == KT_STEPS; else ktl.found > KT_ON_CPU). */
enum ktask_walk_end ktask_walk(bool threads, bool (*fn)(const struct ktask *t, void *arg),
                               void *arg);

/* Process state letter as the kernel's ps shows it (R S D T t X Z P I). */
char ktask_state_letter(uint32_t state);

#endif
