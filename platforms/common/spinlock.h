/* SPDX-License-Identifier: MIT */
/* A spinlock for fiqmon's Monitor-mode code on several CPUs (FIQs masked while held, so a
 * CPU never waits for itself). Exclusives as psci.c uses them; WFE while another CPU holds
 * it, SEV on release. Held for a few register accesses at a time, never across a wait for
 * another CPU. */
#ifndef FIQMON_SPINLOCK_H
#define FIQMON_SPINLOCK_H

#include <stdint.h>

struct spinlock {
    volatile uint32_t held;
};

#if defined(FIQMON_SMP) && FIQMON_SMP > 1
static inline void spin_lock(struct spinlock *l)
{
    while (__atomic_exchange_n(&l->held, 1u, __ATOMIC_ACQUIRE))
        while (__atomic_load_n(&l->held, __ATOMIC_RELAXED))
            __asm__ volatile("wfe" ::: "memory");
}

static inline void spin_unlock(struct spinlock *l)
{
    __atomic_store_n(&l->held, 0u, __ATOMIC_RELEASE);
    __asm__ volatile("dsb\n\tsev" ::: "memory");
}
#else /* one CPU: FIQs masked is exclusion enough, and the one wire's hot path pays nothing */
static inline void spin_lock(struct spinlock *l)
{
    (void)l;
}

static inline void spin_unlock(struct spinlock *l)
{
    (void)l;
}
#endif

#endif
