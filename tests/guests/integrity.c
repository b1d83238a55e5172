/* SPDX-License-Identifier: MIT */
/* integrity: proves that whatever interrupts the guest (its own timer IRQ, fiqmon's FIQ,
 * a halted monitor session) gives every register back bit for bit.
 *
 * It runs a long deterministic computation (integrity.S) in rounds of ITERATIONS loop
 * iterations, carrying r0-r12, lr and NZCV from round to round, and prints after each
 * round a checksum of that state: it must be the same in every run, whatever interrupts
 * arrived and when. `errors` counts, since the start, banked-register mismatches seen by
 * the loop (ABT/UND sp, lr, spsr; SYS sp, lr; spsr_svc), a corrupted sp_irq seen by the
 * IRQ entry, and rounds in which no timer IRQ arrived at all (the IRQ path was not
 * exercised).
 */
#include "guest.h"
#include "sp804.h"

const char guest_name[] = "integrity";

/* About 0.3 s per round under QEMU TCG (measured: tests/guests/README.md). */
#ifndef ITERATIONS
#define ITERATIONS  45000u
#endif
#ifndef IRQ_HZ
#define IRQ_HZ      1000
#endif
_Static_assert(ITERATIONS >= 1 && ITERATIONS < 0x10000, "integrity.S checks count < 0x10000");

struct integrity_state {
    uint32_t r[13];
    uint32_t lr;
    uint32_t psr;       /* NZCV in bits 31-28 */
};
_Static_assert(sizeof(struct integrity_state) == 60, "integrity.S uses offset 56 for psr");

void integrity_round(struct integrity_state *s, uint32_t iterations);
void integrity_banks_init(void);
void integrity_irq_entry(void);
void integrity_irq(void);
extern volatile uint32_t integrity_bank_errors;
extern volatile uint32_t integrity_irq_sp_errors;

static volatile uint32_t irq_count;

/* Called by integrity_irq_entry. Touches nothing the checksum covers. */
void integrity_irq(void)
{
    if (sp804_ack(TIMER01_BASE))
        irq_count++;
}

/* FNV-1a over the 15 state words: each step is a bijection of the running hash, so a
 * difference confined to one word always changes the result. */
static uint32_t checksum(const struct integrity_state *s)
{
    uint32_t h = 0x811c9dc5u;

    for (unsigned i = 0; i < 13; i++)
        h = (h ^ s->r[i]) * 0x01000193u;
    h = (h ^ s->lr) * 0x01000193u;
    return (h ^ (s->psr & ARM_PSR_NZCV)) * 0x01000193u;
}

void guest_main(uint32_t r0, uint32_t r1, uint32_t r2)
{
    (void)r0;
    (void)r1;
    (void)r2;
    struct integrity_state st = {
        .r = {0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u, 0xa4093822u, 0x299f31d0u,
              0x082efa98u, 0xec4e6c89u, 0x452821e6u, 0x38d01377u, 0xbe5466cfu, 0x34e90c6cu,
              0xc0ac29b7u},
        .lr = 0xc97c50ddu,
        .psr = 0x60000000u, /* Z and C */
    };

    con_puts("guest integrity: started\n");
    vectors_install(integrity_irq_entry);
    integrity_banks_init();
    if (!guest_timer_irq_start(TIMER01_BASE, TIMER01_VIC_LINE, TIMER_CLOCK_HZ / IRQ_HZ))
        return;
    irq_enable();

    uint32_t quiet_rounds = 0, last_irqs = irq_count;
    for (uint32_t round = 1;; round++) {
        integrity_round(&st, ITERATIONS);
        uint32_t irqs = irq_count;
        if (irqs == last_irqs)
            quiet_rounds++;
        last_irqs = irqs;
        con_printf("guest integrity: round %lu checksum %08lx errors %lu\n", round,
                   checksum(&st), integrity_bank_errors + integrity_irq_sp_errors + quiet_rounds);
    }
}
