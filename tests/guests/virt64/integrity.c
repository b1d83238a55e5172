/* SPDX-License-Identifier: MIT */
/* integrity64: proves that whatever interrupts the guest (fiqmon's FIQ, a halted monitor
 * session) gives every register back bit for bit.
 *
 * It runs a long deterministic computation (integrity.S: x0-x30, q0-q31, NZCV, FPSR and
 * FPCR live) in rounds of CALLS x ITERATIONS loop iterations, carrying the state from round
 * to round, and prints after each round a checksum of that state: the same sequence in
 * every run, whatever interrupts arrived and when. `errors` counts, since the start,
 * calls ended by a corrupted loop count, system registers of EL0-EL2 (sp, elr, spsr,
 * tpidr, par) that did not read back as written at the start of a call, and exceptions
 * the guest took (none are expected). */
#include <stddef.h>

#include "console.h"
#include "integrity_state.h"

/* About 0.3 s of QEMU TCG time per round on an idle host (tests/guests/virt64/README.md). */
#define ITERATIONS 20000u
#define CALLS      8u
_Static_assert(ITERATIONS >= 1 && ITERATIONS < 0x10000, "integrity.S checks count < 0x10000");

_Static_assert(offsetof(struct integrity_state, x) == IS_X, "layout");
_Static_assert(offsetof(struct integrity_state, nzcv) == IS_NZCV, "layout");
_Static_assert(offsetof(struct integrity_state, q) == IS_Q, "layout");
_Static_assert(offsetof(struct integrity_state, fpsr) == IS_FPSR, "layout");
_Static_assert(offsetof(struct integrity_state, fpcr) == IS_FPCR, "layout");
_Static_assert(offsetof(struct integrity_state, count) == IS_COUNT, "layout");
_Static_assert(offsetof(struct integrity_state, x30_spill) == IS_X30, "layout");
_Static_assert(offsetof(struct integrity_state, q31_spill) == IS_Q31, "layout");
_Static_assert(offsetof(struct integrity_state, c_sp) == IS_C_SP, "layout");
_Static_assert(offsetof(struct integrity_state, errors) == IS_ERRORS, "layout");
_Static_assert(offsetof(struct integrity_state, sys_set) == IS_SYS_SET, "layout");
_Static_assert(offsetof(struct integrity_state, sys_seen) == IS_SYS_SEEN, "layout");
_Static_assert(sizeof(struct integrity_state) == IS_SIZE, "layout");

extern volatile uint64_t guest_aborts, guest_undefs; /* start.S counts them */

/* Global, not static: a test finds it by name (sp points at it during a round). */
struct integrity_state integrity_state;

/* What each system register (integrity_state.h's order) holds during a call: bits of the
 * state, so that they change from call to call, limited to bits that read back as written
 * (spsr: NZCV, DAIF and a valid mode; par: the successful-translation format). */
static const struct {
    uint64_t mask, set;
} sys_values[SYS_COUNT] = {
    {~0ull, 0},                      /* sp_el0 */
    {~0ull, 0},                      /* sp_el1 */
    {~0ull, 0},                      /* elr_el1 */
    {0xf00003c0ull, 0x5},            /* spsr_el1: EL1h */
    {~0ull, 0},                      /* elr_el2 */
    {0xf00003c0ull, 0x9},            /* spsr_el2: EL2h */
    {~0ull, 0},                      /* tpidr_el0 */
    {~0ull, 0},                      /* tpidr_el1 */
    {~0ull, 0},                      /* tpidr_el2 */
    {0xff00fffffffff380ull, 0},      /* par_el1: F = 0 */
};

static uint64_t splitmix64(uint64_t *seed)
{
    uint64_t z = (*seed += 0x9e3779b97f4a7c15ull);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void state_init(struct integrity_state *s)
{
    uint64_t seed = 0x243f6a8885a308d3ull;

    for (unsigned i = 0; i < 31; i++)
        s->x[i] = splitmix64(&seed);
    for (unsigned i = 0; i < 32; i++) {
        s->q[i][0] = splitmix64(&seed);
        s->q[i][1] = splitmix64(&seed);
    }
    s->nzcv = 0x60000000u; /* Z and C */
    s->fpsr = 0;
    s->fpcr = 0;
}

static void sys_plan(struct integrity_state *s)
{
    for (unsigned i = 0; i < SYS_COUNT; i++)
        s->sys_set[i] = (s->x[3 * i] & sys_values[i].mask) | sys_values[i].set;
}

static unsigned sys_mismatches(const struct integrity_state *s)
{
    unsigned n = 0;

    for (unsigned i = 0; i < SYS_COUNT; i++)
        n += s->sys_seen[i] != s->sys_set[i];
    return n;
}

/* FNV-1a over 32-bit words: each step is a bijection of the running hash, so a
 * difference confined to one word always changes the result. */
static uint32_t fnv_word(uint32_t h, uint32_t w)
{
    return (h ^ w) * 0x01000193u;
}

static uint32_t fnv_long(uint32_t h, uint64_t v)
{
    return fnv_word(fnv_word(h, (uint32_t)v), (uint32_t)(v >> 32));
}

static uint32_t checksum(const struct integrity_state *s)
{
    uint32_t h = 0x811c9dc5u;

    for (unsigned i = 0; i < 31; i++)
        h = fnv_long(h, s->x[i]);
    for (unsigned i = 0; i < 32; i++)
        h = fnv_long(fnv_long(h, s->q[i][0]), s->q[i][1]);
    h = fnv_long(h, s->nzcv);
    h = fnv_long(h, s->fpsr);
    h = fnv_long(h, s->fpcr);
    for (unsigned i = 0; i < SYS_COUNT; i++)
        h = fnv_long(h, s->sys_seen[i]);
    return h;
}

int main(void);

int main(void)
{
    struct integrity_state *s = &integrity_state;
    uint64_t sys_errors = 0;

    con_puts("guest integrity64: started\n");
    state_init(s);
    for (uint64_t round = 1;; round++) {
        for (unsigned call = 0; call < CALLS; call++) {
            sys_plan(s);
            integrity_round(s, ITERATIONS);
            sys_errors += sys_mismatches(s);
        }
        con_puts("guest integrity64: round ");
        con_dec(round);
        con_puts(" checksum ");
        con_hex32(checksum(s));
        con_puts(" errors ");
        con_dec(s->errors + sys_errors + guest_aborts + guest_undefs);
        con_puts("\n");
    }
}
