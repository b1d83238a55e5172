/* SPDX-License-Identifier: MIT */
/* Discovery of the task_struct layout (ktask.h, docs/tasks.md). Each step searches the
 * words of init_task or of the tasks on its ring for the one field that satisfies an
 * invariant the kernel guarantees, and takes the first that does. */
#include "ktask.h"

#include "kallsyms.h"
#include "kcode.h"
#include "kmem.h"
#include "unwind.h"
#include "vmcoreinfo.h"

#define TASK_SCAN 4096u     /* bytes of a task_struct searched for a field */
#define PARENT_SCAN 64u     /* real_parent within this many bytes after tgid */
#define PID_LIMIT 4194304u  /* PID_MAX_LIMIT */
#define STATE_LIMIT 0x10000u /* TASK_STATE_MAX */
#define CPUS_MAX 8u         /* tasks on a CPU at once (on_cpu set) at most */

static uint32_t init_task(void)
{
    return ktl.at[KT_INIT_TASK];
}

/* The next node of a list, if its prev link comes back: else 0. */
static uint32_t ring_next(uint32_t node)
{
    uint32_t n;

    kmem_failed = false;
    n = kr32(node);
    if (kmem_failed || !n || n & 3 || kr32(n + 4) != node || kmem_failed)
        return 0;
    return n;
}

/* init_task's ring by the tasks offset found: the task after prev (0: the first), or 0
 * at the end of the ring or at a broken link. */
static uint32_t ring_task(uint32_t prev)
{
    uint32_t off = ktl.at[KT_TASKS], head = init_task() + off;
    uint32_t n = ring_next(prev ? prev + off : head);

    return n && n != head ? n - off : 0;
}

static bool stack_ok_at(uint32_t task, uint32_t off)
{
    uint32_t s;

    kmem_failed = false;
    s = kr32(task + off);
    return s && !(s & (KERNEL_THREAD_SIZE - 1)) && kr32(s) == TASK_STACK_END_MAGIC &&
           !kmem_failed;
}

static bool comm_ok(uint32_t a)
{
    kmem_failed = false;
    for (unsigned i = 0; i < KTASK_COMM_LEN; i++) {
        uint8_t c = kr8(a + i);
        if (kmem_failed)
            return false;
        if (!c)
            return i > 0;
        if (c < 0x20 || c > 0x7e)
            return false;
    }
    return false;
}

static uint32_t word(uint32_t task, unsigned step)
{
    return kr32(task + ktl.at[step]);
}

/* --- init_task, stack, comm: a candidate passes all three --------------------------- */
static bool is_swapper(uint32_t a)
{
    static const char name[] = "swapper";

    for (unsigned i = 0; i < sizeof(name) - 1; i++)
        if (kr8(a + i) != (uint8_t)name[i])
            return false;
    return (kr8(a + 7) == 0 || kr8(a + 7) == '/') && comm_ok(a);
}

static bool init_task_candidate(uint32_t t)
{
    uint32_t off;

    if (!t || t & 3)
        return false;
    ktl.at[KT_INIT_TASK] = t;
    ktl.found = KT_STACK;
    for (off = 0; off < TASK_SCAN && !stack_ok_at(t, off); off += 4)
        ;
    if (off == TASK_SCAN)
        return false;
    ktl.at[KT_STACK] = off;
    ktl.found = KT_COMM;
    kmem_begin();
    for (off = 0; off < TASK_SCAN && !is_swapper(t + off); off += 4)
        ;
    if (off == TASK_SCAN)
        return false;
    ktl.at[KT_COMM] = off;
    ktl.found = KT_TASKS;
    return true;
}

/* --- tasks: a ring of at least two tasks at one offset, every link both ways --------- */
static bool tasks_at(uint32_t off)
{
    uint32_t head = init_task() + off, n, stacks = 0;
    unsigned i;

    for (n = ring_next(head), i = 0; n && n != head && i < KTASK_MAX; n = ring_next(n), i++) {
        if (stack_ok_at(n - off, ktl.at[KT_STACK]))
            stacks++;
        else if (kr32(n - off + ktl.at[KT_STACK]) || kmem_failed) /* exited: no stack */
            return false;
        if (!comm_ok(n - off + ktl.at[KT_COMM]))
            return false;
    }
    ktl.ring = i;
    return n == head && stacks >= 2;
}

/* --- pid, tgid: init 0; then 1, 2, ... increasing along the ring, tgid == pid --------- */
static bool pid_at(uint32_t off)
{
    uint32_t t = 0, last = 0, n = 0;

    kmem_failed = false;
    if (kr32(init_task() + off) || kr32(init_task() + off + 4) || kmem_failed)
        return false;
    while ((t = ring_task(t))) {
        uint32_t pid = kr32(t + off);
        if (kmem_failed || pid != kr32(t + off + 4) || pid <= last || pid >= PID_LIMIT ||
            (n < 2 && pid != n + 1))
            return false;
        last = pid;
        n++;
    }
    return n >= 2;
}

/* --- real_parent: init_task for init_task, pid 1 and 2; an older task for the rest --- */
static bool parent_at(uint32_t off)
{
    uint32_t t = 0, n = 0, pid = ktl.at[KT_PID];

    if (kr32(init_task() + off) != init_task())
        return false;
    while ((t = ring_task(t))) {
        uint32_t p = kr32(t + off);
        if (n++ < 2 ? p != init_task()
                    : p != init_task() && (!stack_ok_at(p, ktl.at[KT_STACK]) ||
                                           kr32(p + pid) >= kr32(t + pid)))
            return false;
    }
    return n >= 2;
}

/* --- mm, searched between tasks and pid (where it has always been): NULL in init_task
 * and kthreadd (pid 2), set in init (pid 1, a user process once it has exec'd); where
 * set, an aligned readable pointer, active_mm (the next word) the same, and not the same
 * in every process --------------------------------------------------------------------- */
static bool mm_at(uint32_t off)
{
    uint32_t t = 0, n = 0, first = 0;
    bool differ = false;

    kmem_failed = false;
    if (kr32(init_task() + off))
        return false;
    while ((t = ring_task(t))) {
        uint32_t mm = kr32(t + off);
        if ((n == 0 && !mm) || (n == 1 && mm) ||
            (mm && (mm & 3 || kr32(t + off + 4) != mm || (kr32(mm), kmem_failed))))
            return false;
        if (mm && !first)
            first = mm;
        differ |= mm && mm != first;
        n++;
    }
    return differ && !kmem_failed;
}

static bool kthreadd_second(void)
{
    static const char name[] = "kthreadd";
    uint32_t t = ring_task(ring_task(0));

    for (unsigned i = 0; t && i < sizeof(name); i++)
        if (kr8(t + ktl.at[KT_COMM] + i) != (uint8_t)name[i])
            return false;
    return t;
}

/* --- __state: the word before stack (it leads task_struct after thread_info); 0 in
 * init_task (the idle task is TASK_RUNNING), valid state bits only, some task asleep -- */
static bool state_ok(uint32_t off)
{
    uint32_t t = 0, asleep = 0;

    if (kr32(init_task() + off))
        return false;
    while ((t = ring_task(t))) {
        uint32_t s = kr32(t + off);
        if (s >= STATE_LIMIT)
            return false;
        asleep |= s & 3;
    }
    return asleep;
}

/* --- on_cpu: 0 or 1 in every task, 1 in at least one and at most CPUS_MAX ------------ */
static bool on_cpu_at(uint32_t off)
{
    uint32_t t = init_task(), ones = 0;

    kmem_failed = false;
    do {
        uint32_t v = kr32(t + off);
        if (v > 1)
            return false;
        ones += v;
    } while ((t = ring_task(t)));
    return ones && ones <= CPUS_MAX && !kmem_failed;
}

/* --- cpu_context: in every task off a CPU with a stack, the saved sp (word 8) points
 * into that stack and the saved pc (word 9) into the kernel's code ------------------- */
static bool context_at(uint32_t off)
{
    uint32_t t = 0, lo, hi, n = 0;

    ksyms_range(&lo, &hi);
    while ((t = ring_task(t))) {
        uint32_t s = word(t, KT_STACK), sp, pc;
        if (word(t, KT_ON_CPU) || !stack_ok_at(t, ktl.at[KT_STACK]))
            continue;
        sp = kr32(t + off + 32);
        pc = kr32(t + off + 36);
        if (sp <= s || sp - s > KERNEL_THREAD_SIZE || pc < lo || pc > hi || kmem_failed)
            return false;
        n++;
    }
    return n >= 2;
}

/* --- thread_node: every leader's ring holds its threads (same tgid) and exactly one
 * node that is no task (signal_struct's thread_head) ------------------------------- */
static bool threads_at(uint32_t off)
{
    uint32_t t = 0, leaders = 0;

    while ((t = ring_task(t))) {
        uint32_t head = t + off, n, others = 0, tgid = word(t, KT_PID);
        unsigned i;
        for (n = ring_next(head), i = 0; n && n != head && i < KTASK_MAX;
             n = ring_next(n), i++) {
            if (!stack_ok_at(n - off, ktl.at[KT_STACK]))
                others++;
            else if (kr32(n - off + ktl.at[KT_PID] + 4) != tgid)
                return false;
        }
        if (n != head || others != 1)
            return false;
        leaders++;
    }
    return leaders >= 2;
}

/* The first offset in [from, to) where ok holds. */
static bool search(unsigned step, uint32_t from, uint32_t to, bool (*ok)(uint32_t off))
{
    for (uint32_t off = from; off < to; off += 4) {
        kmem_begin();
        if (ok(off)) {
            ktl.at[step] = off;
            ktl.found = (uint8_t)(step + 1);
            return true;
        }
    }
    return false;
}

static void discover(void)
{
    uint32_t stack;

    ktl.found = KT_INIT_TASK;
    if (!kcode_find_address("show_state_filter", init_task_candidate)) {
        ktl.found = KT_INIT_TASK; /* no candidate passed all three checks */
        return;
    }
    stack = ktl.at[KT_STACK];
    if (!search(KT_TASKS, 0, TASK_SCAN, tasks_at) || !search(KT_PID, 0, TASK_SCAN, pid_at) ||
        !search(KT_PARENT, ktl.at[KT_PID] + 8, ktl.at[KT_PID] + 8 + PARENT_SCAN, parent_at) ||
        !kthreadd_second() ||
        !search(KT_MM, ktl.at[KT_TASKS] + 8, ktl.at[KT_PID], mm_at) ||
        !search(KT_STATE, stack - 4, stack, state_ok) ||
        !search(KT_ON_CPU, stack + 4, stack + 64, on_cpu_at) ||
        !search(KT_CONTEXT, 0, ktl.at[KT_STATE], context_at))
        return;
    search(KT_THREADS, 0, TASK_SCAN, threads_at);
}

unsigned ktask_discover(void)
{
    if (ktl.generation != kernel_generation || ktl.found != KT_STEPS) {
        discover();
        ktl.generation = kernel_generation;
        kmem_begin();
    }
    return ktl.found;
}
