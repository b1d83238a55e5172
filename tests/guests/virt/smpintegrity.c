/* SPDX-License-Identifier: MIT */
/* smpintegrity: the integrity guest on every CPU (virt, SMP). CPU 0 starts the others with
 * PSCI CPU_ON; each CPU then runs its own deterministic computation (smpintegrity.S:
 * r0-r12, lr and NZCV live) in ROUNDS rounds of ITERATIONS iterations and publishes a
 * checksum per round (a fixed amount of work). CPU 0 alone prints them (no lock on the console), between its own
 * rounds: the same sequence per CPU in every run, whatever roundups stopped the CPUs. */
#include "console.h"
#include "smc.h"

/* A round is CALLS loops of ITERATIONS iterations: about 0.15 s of TCG time per CPU. */
#define ITERATIONS 60000u
#define CALLS      8u
#define ROUNDS     100u
#define MAX_CPUS   8u
_Static_assert(ITERATIONS >= 1 && ITERATIONS < 0x10000, "smpintegrity.S checks count < 0x10000");

struct smp_state {
    uint32_t r[13];
    uint32_t lr;
    uint32_t psr;    /* NZCV in bits 31-28 */
    uint32_t errors; /* rounds ended by a corrupted count */
};
_Static_assert(sizeof(struct smp_state) == 64, "smpintegrity.S uses offsets 56 and 60");

void smp_integrity_round(struct smp_state *s, uint32_t iterations);
void secondary_entry(void);
void secondary_main(uint32_t cpu);

static volatile uint32_t sums[MAX_CPUS][ROUNDS];
static volatile uint32_t errors[MAX_CPUS][ROUNDS];
static volatile uint32_t done[MAX_CPUS]; /* rounds published */

static void publish_barrier(void)
{
    __asm__ volatile("dmb" ::: "memory");
}

/* FNV-1a over the state: a difference confined to one word always changes it. */
static uint32_t checksum(const struct smp_state *s)
{
    uint32_t h = 0x811c9dc5u;

    for (unsigned i = 0; i < 13; i++)
        h = (h ^ s->r[i]) * 0x01000193u;
    h = (h ^ s->lr) * 0x01000193u;
    return (h ^ (s->psr & 0xf0000000u)) * 0x01000193u;
}

static uint32_t cpus = 1;
static int print_new(void);

/* CPU 0 also prints, between its own rounds. */
static void work(uint32_t cpu)
{
    /* a different start per CPU: their sequences differ, each is fixed */
    struct smp_state st = {
        .r = {0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u, 0xa4093822u, 0x299f31d0u,
              0x082efa98u, 0xec4e6c89u, 0x452821e6u, 0x38d01377u, 0xbe5466cfu, 0x34e90c6cu,
              0xc0ac29b7u},
        .lr = 0xc97c50ddu ^ cpu * 0x9e3779b9u,
        .psr = 0x60000000u, /* Z and C */
    };

    st.r[cpu % 13] ^= cpu * 0x7f4a7c15u;
    for (uint32_t round = 0; round < ROUNDS; round++) {
        for (uint32_t i = 0; i < CALLS; i++)
            smp_integrity_round(&st, ITERATIONS);
        sums[cpu][round] = checksum(&st);
        errors[cpu][round] = st.errors;
        publish_barrier();
        done[cpu] = round + 1;
        if (cpu == 0)
            print_new();
    }
}

void secondary_main(uint32_t cpu)
{
    if (cpu < MAX_CPUS)
        work(cpu);
}

static uint32_t printed[MAX_CPUS];

/* Prints what the CPUs published since the last call; true when all of them are done. */
static int print_new(void)
{
    int all = 1;

    for (uint32_t c = 0; c < cpus; c++) {
        uint32_t n = done[c];

        publish_barrier();
        for (; printed[c] < n; printed[c]++) {
            puts_("guest smpintegrity: cpu ");
            putdec(c);
            puts_(" round ");
            putdec(printed[c] + 1);
            puts_(" checksum ");
            puthex8(sums[c][printed[c]]);
            puts_(" errors ");
            putdec(errors[c][printed[c]]);
            puts_("\n");
        }
        all &= n == ROUNDS;
    }
    return all;
}

int main(void)
{
    puts_("guest smpintegrity: started\n");
    /* every CPU PSCI knows: CPU_ON until it names one that does not exist */
    for (; cpus < MAX_CPUS; cpus++) {
        int32_t r = psci(PSCI_CPU_ON, cpus, (uint32_t)secondary_entry, cpus);
        if (r == PSCI_INVALID_PARAMETERS)
            break;
        if (r != PSCI_SUCCESS) {
            puts_("guest smpintegrity: CPU_ON failed\n");
            return 1;
        }
    }
    puts_("guest smpintegrity: cpus ");
    putdec(cpus);
    puts_("\n");
    work(0);
    while (!print_new()) {
    }
    puts_("guest smpintegrity: done\n");
    return 0;
}
