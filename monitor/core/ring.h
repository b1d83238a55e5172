/* SPDX-License-Identifier: MIT */
/* Receive ring: one producer (the UART drain in FIQ context), one consumer (the monitor).
 * head and tail are free-running counters, so head also counts every byte ever stored. */
#ifndef FIQMON_RING_H
#define FIQMON_RING_H

#include <stdbool.h>
#include <stdint.h>

#define RING_SIZE 256u /* power of two */

struct ring {
    volatile uint32_t head; /* bytes stored so far */
    volatile uint32_t tail; /* bytes taken so far */
    uint32_t drops;         /* bytes refused because the ring was full */
    uint8_t buf[RING_SIZE];
};

_Static_assert((RING_SIZE & (RING_SIZE - 1)) == 0, "RING_SIZE must be a power of two");

static inline void ring_init(struct ring *r)
{
    r->head = 0;
    r->tail = 0;
    r->drops = 0;
}

static inline uint32_t ring_count(const struct ring *r)
{
    return r->head - r->tail;
}

static inline bool ring_put(struct ring *r, uint8_t c)
{
    uint32_t head = r->head;

    if (head - r->tail == RING_SIZE) {
        r->drops++;
        return false;
    }
    r->buf[head & (RING_SIZE - 1)] = c;
    r->head = head + 1;
    return true;
}

/* Returns the oldest byte, or -1 when empty. */
static inline int ring_get(struct ring *r)
{
    uint32_t tail = r->tail;

    if (tail == r->head)
        return -1;
    int c = r->buf[tail & (RING_SIZE - 1)];
    r->tail = tail + 1;
    return c;
}

/* Forget pending bytes (consumer side). */
static inline void ring_discard(struct ring *r)
{
    r->tail = r->head;
}

#endif
