/* SPDX-License-Identifier: MIT */
/* deadlock: the main loop holds a spinlock; the timer IRQ handler takes the same lock and
 * so spins forever in spin_lock, in IRQ mode (IRQs masked by the exception, FIQs not). */
#include "guest.h"
#include "sp804.h"

const char guest_name[] = "deadlock";

#define TICK_HZ 100

static volatile uint32_t big_lock;
static volatile uint32_t work_done;

void spin_lock(volatile uint32_t *lock) __attribute__((noinline));
void spin_unlock(volatile uint32_t *lock) __attribute__((noinline));

/* ARMv5 has no exclusives: swp atomically swaps in 1 and returns the old value. */
void spin_lock(volatile uint32_t *lock)
{
    uint32_t old;

    do {
        __asm__ volatile("swp %0, %2, [%1]" : "=&r"(old) : "r"(lock), "r"(1u) : "memory");
    } while (old != 0);
}

void spin_unlock(volatile uint32_t *lock)
{
    *lock = 0;
}

static void deadlock_irq(void)
{
    sp804_ack(TIMER01_BASE);
    spin_lock(&big_lock);   /* held by the main loop: never returns */
    spin_unlock(&big_lock);
}

void guest_main(uint32_t r0, uint32_t r1, uint32_t r2)
{
    (void)r0;
    (void)r1;
    (void)r2;
    con_puts("guest deadlock: taking the lock twice\n");
    vectors_install(irq_entry);
    irq_handler = deadlock_irq;
    spin_lock(&big_lock);
    if (!guest_timer_irq_start(TIMER01_BASE, TIMER01_VIC_LINE, TIMER_CLOCK_HZ / TICK_HZ))
        return;
    irq_enable();
    for (;;)
        work_done++;    /* with the lock held, until the first tick */
}
