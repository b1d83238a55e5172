/* SPDX-License-Identifier: MIT */
/* Walking the tasks with a discovered layout (ktask.h). The kernel may run between reads:
 * every link is checked both ways and every task before it is read, the walk is
 * bounded, and a walk that meets a bad link says so instead of going on. */
#include "ktask.h"

#include "kmem.h"

#define TASK_DEAD 0x80u
#define TASK_IDLE 0x402u /* TASK_UNINTERRUPTIBLE | TASK_NOLOAD */

#define LONG_MASK (sizeof(kulong_t) - 1u)

struct ktask_layout ktl;

const char *ktask_step_name(unsigned step)
{
    static const char *const names[KT_STEPS] = {
        "init_task", "stack", "comm", "tasks", "pid", "real_parent",
        "mm", "__state", "on_cpu", "cpu_context", "thread_node"};

    return step < KT_STEPS ? names[step] : "";
}

static target_addr_t at(unsigned step)
{
    return ktl.at[step];
}

bool ktask_valid(target_addr_t t)
{
    kulong_t s;

    kmem_failed = false;
    if (!t || t & LONG_MASK)
        return false;
    s = krlong(t + at(KT_STACK));
    if (s ? s & (KTASK_STACK_ALIGN - 1) || kr32(s) != TASK_STACK_END_MAGIC
          : ktl.found <= KT_STATE || kr32(t + at(KT_STATE)) != TASK_DEAD)
        return false;
    for (unsigned i = 0; i < KTASK_COMM_LEN && !kmem_failed; i++) {
        uint8_t c = kr8(t + at(KT_COMM) + i);
        if (!c)
            return i > 0 && !kmem_failed;
        if (c < 0x20 || c > 0x7e)
            return false;
    }
    return false;
}

bool ktask_read(target_addr_t t, struct ktask *k)
{
    kulong_t parent;

    if (!ktask_valid(t))
        return false;
    k->addr = t;
    k->stack = krlong(t + at(KT_STACK));
    k->pid = kr32(t + at(KT_PID));
    k->tgid = kr32(t + at(KT_PID) + 4);
    parent = krlong(t + at(KT_PARENT));
    k->ppid = parent == t ? 0 : kr32(parent + at(KT_PID)); /* init_task is its own */
    k->mm = krlong(t + at(KT_MM));
    k->state = kr32(t + at(KT_STATE));
    k->on_cpu = kr32(t + at(KT_ON_CPU)) != 0;
    for (unsigned i = 0; i < KTASK_COMM_LEN; i++)
        k->comm[i] = (char)kr8(t + at(KT_COMM) + i);
    k->comm[KTASK_COMM_LEN - 1] = '\0';
    return !kmem_failed;
}

/* The next node after node, if its prev link comes back to node; else 0. */
static target_addr_t next_node(target_addr_t node)
{
    kulong_t n;

    kmem_failed = false;
    n = krlong(node);
    return !kmem_failed && n && !(n & LONG_MASK) && krlong(n + sizeof(kulong_t)) == node &&
                   !kmem_failed
               ? n
               : 0;
}

/* The threads of leader other than itself. */
static enum ktask_walk_end walk_threads(const struct ktask *leader, unsigned *count,
                                        bool (*fn)(const struct ktask *t, void *arg), void *arg)
{
    target_addr_t off = at(KT_THREADS), head = leader->addr + off, n = head;
    struct ktask k;

    for (unsigned i = 0; i < KTASK_MAX; i++) {
        if (!(n = next_node(n)))
            return KT_WALK_TORN;
        if (n == head)
            return KT_WALK_DONE;
        /* the one node that is no task is signal_struct's list head */
        if (!ktask_valid(n - off))
            continue;
        if (!ktask_read(n - off, &k) || k.tgid != leader->pid)
            return KT_WALK_TORN;
        if (++*count > KTASK_MAX)
            return KT_WALK_LIMIT;
        if (!fn(&k, arg))
            return KT_WALK_STOPPED;
    }
    return KT_WALK_LIMIT;
}

enum ktask_walk_end ktask_walk(bool threads, bool (*fn)(const struct ktask *t, void *arg),
                               void *arg)
{
    target_addr_t off = at(KT_TASKS), head = at(KT_INIT_TASK) + off, n = head;
    unsigned count = 0;
    struct ktask k;

    if (!ktask_read(at(KT_INIT_TASK), &k))
        return KT_WALK_TORN;
    if (!fn(&k, arg))
        return KT_WALK_STOPPED;
    for (;;) {
        enum ktask_walk_end end;
        if (!(n = next_node(n)))
            return KT_WALK_TORN;
        if (n == head)
            return KT_WALK_DONE;
        if (++count > KTASK_MAX)
            return KT_WALK_LIMIT;
        if (!ktask_read(n - off, &k))
            return KT_WALK_TORN;
        if (!fn(&k, arg))
            return KT_WALK_STOPPED;
        if (threads && (end = walk_threads(&k, &count, fn, arg)) != KT_WALK_DONE)
            return end;
    }
}

char ktask_state_letter(uint32_t state)
{
    /* task_state_index(): TASK_REPORT bits, highest first; TASK_IDLE shows as I. Without
     * exit_state, a task still listed with TASK_DEAD is an unreaped zombie */
    static const char letters[] = "RSDTtXZP";
    uint32_t r = state & 0x7f;
    unsigned i = 0;

    if (state == TASK_IDLE)
        return 'I';
    if (!r && state & TASK_DEAD)
        return 'Z';
    while (r) {
        r >>= 1;
        i++;
    }
    return letters[i];
}
