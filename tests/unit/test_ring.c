/* SPDX-License-Identifier: MIT */
/* The receive ring: FIFO order, free-running counters that wrap, drops when full. */
#include "expect.h"

#include "ring.h"

/* A plain FIFO model the ring is checked against. */
struct model {
    uint8_t q[RING_SIZE];
    unsigned first, count;
    uint32_t drops;
};

static bool model_put(struct model *m, uint8_t c)
{
    if (m->count == RING_SIZE) {
        m->drops++;
        return false;
    }
    m->q[(m->first + m->count++) % RING_SIZE] = c;
    return true;
}

static int model_get(struct model *m)
{
    if (!m->count)
        return -1;
    int c = m->q[m->first];
    m->first = (m->first + 1) % RING_SIZE;
    m->count--;
    return c;
}

/* ring_init must make a ring out of whatever the memory held. */
static void fresh(struct ring *r)
{
    memset(r, 0xa5, sizeof(*r));
    ring_init(r);
}

static uint32_t rng_state;

static uint32_t rng(void)
{
    uint32_t x = rng_state;

    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return rng_state = x;
}

static void test_bytes_come_out_in_the_order_they_went_in(void **state)
{
    struct ring r;

    fresh(&r);
    for (int i = 0; i < 10; i++)
        EXPECT_EQ(ring_put(&r, (uint8_t)(0xa0 + i)), true);
    EXPECT_EQ(ring_count(&r), 10);
    for (int i = 0; i < 10; i++)
        EXPECT_EQ(ring_get(&r), 0xa0 + i);
    EXPECT_EQ(ring_count(&r), 0);
}

static void test_empty_ring_gives_minus_one(void **state)
{
    struct ring r;

    fresh(&r);
    EXPECT_EQ(ring_get(&r), -1);
    EXPECT_EQ(ring_count(&r), 0);
    ring_put(&r, 0);
    EXPECT_EQ(ring_get(&r), 0); /* a zero byte is data, not "empty" */
    EXPECT_EQ(ring_get(&r), -1);
}

static void test_bytes_0x80_to_0xff_come_back_positive(void **state)
{
    struct ring r;

    fresh(&r);
    for (int c = 0x80; c <= 0xff; c++) {
        ring_put(&r, (uint8_t)c);
        EXPECT_EQ(ring_get(&r), c);
    }
}

/* Random put/get bursts against the model, from counters at a given start value. */
static void run_against_model(uint32_t start, unsigned steps)
{
    struct ring r;
    struct model m = {.first = 0};

    fresh(&r);
    r.head = r.tail = start;
    rng_state = 0x2545f491u ^ start;
    for (unsigned step = 0; step < steps; step++) {
        unsigned burst = rng() % (RING_SIZE + 40);
        if (rng() & 1) {
            for (unsigned i = 0; i < burst; i++) {
                uint8_t c = (uint8_t)rng();
                bool want = model_put(&m, c);
                EXPECT_TRUE(ring_put(&r, c) == want, "step %u: ring_put gave %d, want %d", step,
                            !want, want);
            }
        } else {
            for (unsigned i = 0; i < burst; i++) {
                int want = model_get(&m);
                int got = ring_get(&r);
                EXPECT_TRUE(got == want, "step %u: ring_get gave %d, want %d", step, got, want);
            }
        }
        EXPECT_TRUE(ring_count(&r) == m.count, "step %u: ring_count %u, want %u", step,
                    (unsigned)ring_count(&r), m.count);
        EXPECT_EQ(r.drops, m.drops);
    }
}

static void test_order_holds_over_many_wraps_of_the_buffer(void **state)
{
    run_against_model(0, 20000);
}

static void test_order_holds_when_the_counters_wrap_past_uint32_max(void **state)
{
    static const uint32_t starts[] = {
        UINT32_MAX - 1000, UINT32_MAX - RING_SIZE, UINT32_MAX - 1, UINT32_MAX, 0x7fffffffu,
    };

    for (unsigned i = 0; i < sizeof(starts) / sizeof(starts[0]); i++)
        run_against_model(starts[i], 3000);
}

static void test_head_counts_every_byte_stored_across_the_wrap(void **state)
{
    struct ring r;

    fresh(&r);
    r.head = r.tail = UINT32_MAX - 2;
    for (int i = 0; i < 6; i++) {
        ring_put(&r, (uint8_t)i);
        EXPECT_EQ(ring_get(&r), i);
    }
    EXPECT_EQ(r.head, 3u); /* UINT32_MAX - 2 + 6, modulo 2^32 */
    EXPECT_EQ(ring_count(&r), 0);
}

static void test_full_ring_refuses_and_counts_drops(void **state)
{
    struct ring r;

    fresh(&r);
    for (unsigned i = 0; i < RING_SIZE; i++)
        EXPECT_EQ(ring_put(&r, (uint8_t)i), true);
    EXPECT_EQ(ring_count(&r), RING_SIZE);
    EXPECT_EQ(ring_put(&r, 0xee), false);
    EXPECT_EQ(ring_put(&r, 0xef), false);
    EXPECT_EQ(r.drops, 2);
    EXPECT_EQ(ring_count(&r), RING_SIZE);
    /* the dropped bytes overwrote nothing */
    for (unsigned i = 0; i < RING_SIZE; i++)
        EXPECT_EQ(ring_get(&r), (int)(i & 0xff));
    EXPECT_EQ(ring_get(&r), -1);
}

static void test_full_ring_accepts_again_after_one_get(void **state)
{
    struct ring r;

    fresh(&r);
    for (unsigned i = 0; i < RING_SIZE; i++)
        ring_put(&r, 1);
    EXPECT_EQ(ring_put(&r, 2), false);
    EXPECT_EQ(ring_get(&r), 1);
    EXPECT_EQ(ring_put(&r, 3), true);
    EXPECT_EQ(ring_put(&r, 4), false);
    EXPECT_EQ(r.drops, 2);
}

static void test_full_ring_is_detected_when_head_has_wrapped_but_tail_has_not(void **state)
{
    struct ring r;

    fresh(&r);
    r.head = r.tail = UINT32_MAX - 9;
    for (unsigned i = 0; i < RING_SIZE; i++)
        EXPECT_EQ(ring_put(&r, (uint8_t)i), true);
    EXPECT_TRUE(r.head < r.tail, "head 0x%08x should have wrapped below tail 0x%08x",
                (unsigned)r.head, (unsigned)r.tail);
    EXPECT_EQ(ring_count(&r), RING_SIZE);
    EXPECT_EQ(ring_put(&r, 0xff), false);
    EXPECT_EQ(r.drops, 1);
    EXPECT_EQ(ring_get(&r), 0);
}

static void test_discard_forgets_pending_bytes_but_not_the_byte_count(void **state)
{
    struct ring r;

    fresh(&r);
    for (int i = 0; i < 5; i++)
        ring_put(&r, (uint8_t)i);
    ring_discard(&r);
    EXPECT_EQ(ring_count(&r), 0);
    EXPECT_EQ(ring_get(&r), -1);
    EXPECT_EQ(r.head, 5);
    ring_put(&r, 0x42);
    EXPECT_EQ(ring_get(&r), 0x42);
}

static void test_discard_of_a_full_ring_makes_room_for_a_whole_ring(void **state)
{
    struct ring r;

    fresh(&r);
    for (unsigned i = 0; i < RING_SIZE + 3; i++)
        ring_put(&r, 7);
    ring_discard(&r);
    for (unsigned i = 0; i < RING_SIZE; i++)
        EXPECT_EQ(ring_put(&r, (uint8_t)i), true);
    EXPECT_EQ(r.drops, 3);
    EXPECT_EQ(ring_get(&r), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bytes_come_out_in_the_order_they_went_in),
        cmocka_unit_test(test_empty_ring_gives_minus_one),
        cmocka_unit_test(test_bytes_0x80_to_0xff_come_back_positive),
        cmocka_unit_test(test_order_holds_over_many_wraps_of_the_buffer),
        cmocka_unit_test(test_order_holds_when_the_counters_wrap_past_uint32_max),
        cmocka_unit_test(test_head_counts_every_byte_stored_across_the_wrap),
        cmocka_unit_test(test_full_ring_refuses_and_counts_drops),
        cmocka_unit_test(test_full_ring_accepts_again_after_one_get),
        cmocka_unit_test(test_full_ring_is_detected_when_head_has_wrapped_but_tail_has_not),
        cmocka_unit_test(test_discard_forgets_pending_bytes_but_not_the_byte_count),
        cmocka_unit_test(test_discard_of_a_full_ring_makes_room_for_a_whole_ring),
    };

    return cmocka_run_group_tests_name("ring", tests, NULL, NULL);
}
