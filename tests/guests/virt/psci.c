/* SPDX-License-Identifier: MIT */
/* psci: PSCI conformance from the Normal world (virt, SMP=4). CPU 0 makes every call,
 * error returns included, and prints one line per check, `guest psci: NAME = VALUE`
 * (VALUE: r0 as a signed decimal, or a count/flag the line's name explains); the test
 * holds the expected values. The other CPUs it starts record what they saw in shared
 * words (only CPU 0 prints). SYSTEM_OFF comes last: QEMU exits. */
#include "console.h"
#include "smc.h"

#define GICD         0x08000000u
#define GICC         0x08010000u
#define VTIMER_INTID 27u
#define RAM_END      0x80000000u /* -m 1G from 0x40000000 */
#define SPIN_LIMIT   50000000u   /* a CPU that does not answer is reported, not waited for */

void secondary_entry(void);
void thumb_entry(void);
void secondary_main(uint32_t cpu);

/* what the others saw; starts[n] counts how often CPU n was started */
static volatile uint32_t starts[8];
static volatile int32_t seen_on_self[8], seen_on_cpu0[8];
static volatile uint32_t thumb_started;

static void check(const char *name, int32_t value)
{
    puts_("guest psci: ");
    puts_(name);
    puts_(" = ");
    if (value < 0) {
        putc_('-');
        value = -value;
    }
    putdec((uint32_t)value);
    puts_("\n");
}

/* A hint to let the other CPUs run: QEMU's round-robin TCG (-icount) switches CPUs on
 * it, instead of letting this one spin out its whole turn. */
static void let_others_run(void)
{
    __asm__ volatile("yield" ::: "memory");
}

static int wait_for(volatile uint32_t *word, uint32_t value)
{
    for (uint32_t i = 0; i < SPIN_LIMIT; i++, let_others_run())
        if (*word == value)
            return 1;
    return 0;
}

void secondary_main(uint32_t cpu)
{
    /* an online CPU, itself included, is ALREADY_ON to everyone */
    seen_on_self[cpu] = psci(PSCI_CPU_ON, cpu, (uint32_t)secondary_entry, cpu);
    seen_on_cpu0[cpu] = psci(PSCI_CPU_ON, 0, (uint32_t)secondary_entry, 0);
    __asm__ volatile("dmb" ::: "memory");
    starts[cpu]++;
    if (cpu == 1 && starts[1] == 1) {
        psci(PSCI_CPU_OFF, 0, 0, 0); /* does not return */
        starts[1] = 100;             /* it did: the test sees the count */
    }
}

/* bit 0 of a CPU_ON entry point: start in Thumb state (PSCI, AArch32) */
__asm__(".pushsection .text.thumb_entry, \"ax\", %progbits\n"
        ".syntax unified\n"
        ".thumb\n"
        ".global thumb_entry\n"
        ".type thumb_entry, %function\n"
        "thumb_entry:\n"
        "    movs r1, #1\n" /* (MRS reads CPSR.T as 0: that this code ran is the proof) */
        "    ldr r2, =thumb_started\n"
        "    str r1, [r2]\n"
        "    ldr r1, =secondary_entry\n"
        "    bx r1\n"
        ".ltorg\n"
        ".arm\n"
        ".popsection\n");

/* An unknown function id: NOT_SUPPORTED in r0, r1-r3 given back unchanged (SMCCC). */
static void unknown(const char *name, uint32_t fid)
{
    struct smc_regs r = smc4(fid, 0x11111111u, 0x22222222u, 0x33333333u);

    check(name, (int32_t)r.r[0]);
    puts_("guest psci: ");
    puts_(name);
    puts_(" r1-r3 kept = ");
    putdec(r.r[1] == 0x11111111u && r.r[2] == 0x22222222u && r.r[3] == 0x33333333u);
    puts_("\n");
}

/* CPU_SUSPEND standby: WFI in the firmware; the guest's own virtual timer (PPI 27, IRQs
 * masked here) is the wake-up event. */
static int32_t suspend_standby(void)
{
    uint32_t frq;
    int32_t r;

    mmio_write(GICD + 0x400 + VTIMER_INTID, 0x80);
    mmio_write(GICD + 0x100, 1u << VTIMER_INTID);
    mmio_write(GICC + 0x04, 0xff);
    mmio_write(GICC + 0x00, 1);
    __asm__ volatile("mrc p15, 0, %0, c14, c0, 0" : "=r"(frq));
    __asm__ volatile("mcr p15, 0, %0, c14, c3, 0\n\tisb" : : "r"(frq / 100)); /* 10 ms */
    __asm__ volatile("mcr p15, 0, %0, c14, c3, 1\n\tisb" : : "r"(1u));       /* on */
    r = psci(PSCI_CPU_SUSPEND, 0, (uint32_t)secondary_entry, 0);
    __asm__ volatile("mcr p15, 0, %0, c14, c3, 1\n\tisb" : : "r"(0u));       /* off */
    return r;
}

int main(void)
{
    static const struct {
        const char *name;
        uint32_t fid;
    } functions[] = {
        {"features psci_version", PSCI_VERSION},
        {"features cpu_suspend", PSCI_CPU_SUSPEND},
        {"features cpu_off", PSCI_CPU_OFF},
        {"features cpu_on", PSCI_CPU_ON},
        {"features affinity_info", PSCI_AFFINITY_INFO},
        {"features migrate_info_type", PSCI_MIGRATE_INFO_TYPE},
        {"features system_off", PSCI_SYSTEM_OFF},
        {"features system_reset", PSCI_SYSTEM_RESET},
        {"features psci_features", PSCI_FEATURES},
        {"features migrate", PSCI_MIGRATE},
        {"features migrate_info_up_cpu", PSCI_MIGRATE_INFO_UP_CPU},
        {"features 0x8400001f", 0x8400001fu},
        {"features smccc_version", 0x80000000u},
        {"features cpu_on smc64", 0xc4000003u},
    };
    const uint32_t entry = (uint32_t)secondary_entry;

    puts_("guest psci: started\n");
    check("psci_version", psci(PSCI_VERSION, 0, 0, 0));
    for (unsigned i = 0; i < sizeof(functions) / sizeof(functions[0]); i++)
        check(functions[i].name, psci(PSCI_FEATURES, functions[i].fid, 0, 0));
    check("migrate_info_type", psci(PSCI_MIGRATE_INFO_TYPE, 0, 0, 0));

    unknown("unknown 0x84000005 migrate", PSCI_MIGRATE);
    unknown("unknown 0x8400000b", 0x8400000bu);
    unknown("unknown 0x8400001f", 0x8400001fu);
    unknown("unknown 0x84000020", 0x84000020u);
    unknown("unknown 0xc4000003 cpu_on smc64", 0xc4000003u);
    unknown("unknown 0x80000000 smccc_version", 0x80000000u);
    unknown("unknown 0x83000000 oem", 0x83000000u);
    unknown("unknown 0x00000000", 0x00000000u);
    unknown("unknown 0xffffffff", 0xffffffffu);

    check("affinity_info cpu0", psci(PSCI_AFFINITY_INFO, 0, 0, 0));
    check("affinity_info cpu1", psci(PSCI_AFFINITY_INFO, 1, 0, 0));
    check("affinity_info cpu4", psci(PSCI_AFFINITY_INFO, 4, 0, 0));
    check("affinity_info 0x100", psci(PSCI_AFFINITY_INFO, 0x100, 0, 0));
    check("affinity_info cpu0 level 1", psci(PSCI_AFFINITY_INFO, 0, 1, 0));

    check("cpu_on cpu0 self", psci(PSCI_CPU_ON, 0, entry, 0));
    check("cpu_on cpu4", psci(PSCI_CPU_ON, 4, entry, 4));
    check("cpu_on cpu8", psci(PSCI_CPU_ON, 8, entry, 8));
    check("cpu_on 0x100", psci(PSCI_CPU_ON, 0x100, entry, 0));
    check("cpu_on cpu1 entry 0", psci(PSCI_CPU_ON, 1, 0, 1));
    check("cpu_on cpu1 entry below ram", psci(PSCI_CPU_ON, 1, 0x3ffffffcu, 1));
    check("cpu_on cpu1 entry past ram", psci(PSCI_CPU_ON, 1, RAM_END, 1));
    check("affinity_info cpu1 after refusals", psci(PSCI_AFFINITY_INFO, 1, 0, 0));

    /* the second call comes before CPU 1 can have run: it is still pending (under
     * -icount the CPUs run in turn, so this is the same every run) */
    check("cpu_on cpu1", psci(PSCI_CPU_ON, 1, entry, 1));
    check("cpu_on cpu1 again at once", psci(PSCI_CPU_ON, 1, entry, 1));
    check("affinity_info cpu1 at once", psci(PSCI_AFFINITY_INFO, 1, 0, 0));
    check("cpu1 started", wait_for(&starts[1], 1));
    check("cpu1 cpu_on self", seen_on_self[1]);
    check("cpu1 cpu_on cpu0", seen_on_cpu0[1]);
    /* CPU 1 turned itself off: AFFINITY_INFO says so (soon), and it can come back */
    int32_t aff = 0;
    for (uint32_t i = 0; i < SPIN_LIMIT && (aff = psci(PSCI_AFFINITY_INFO, 1, 0, 0)) != 1; i++)
        let_others_run();
    check("affinity_info cpu1 after cpu_off", aff);
    check("cpu_on cpu1 after cpu_off", psci(PSCI_CPU_ON, 1, entry, 1));
    check("cpu1 started again", wait_for(&starts[1], 2));
    check("affinity_info cpu1 on", psci(PSCI_AFFINITY_INFO, 1, 0, 0));
    check("cpu_on cpu1 online", psci(PSCI_CPU_ON, 1, entry, 1));

    check("cpu_on cpu2", psci(PSCI_CPU_ON, 2, entry, 2));
    check("cpu2 started", wait_for(&starts[2], 1));
    check("cpu2 cpu_on self", seen_on_self[2]);
    check("cpu_on cpu3 thumb entry", psci(PSCI_CPU_ON, 3, (uint32_t)thumb_entry, 3));
    check("cpu3 started", wait_for(&starts[3], 1));
    check("cpu3 ran thumb code", (int32_t)thumb_started);
    check("cpu_on cpu3 online", psci(PSCI_CPU_ON, 3, entry, 3));
    check("affinity_info cpu3", psci(PSCI_AFFINITY_INFO, 3, 0, 0));

    check("cpu_suspend powerdown", psci(PSCI_CPU_SUSPEND, 1u << 16, entry, 0));
    check("cpu_suspend level 1", psci(PSCI_CPU_SUSPEND, 1u << 24, entry, 0));
    check("cpu_suspend standby", suspend_standby());
    /* fiqmon runs on CPU 0: turning it off is refused, not done */
    check("cpu_off cpu0", psci(PSCI_CPU_OFF, 0, 0, 0));
    check("affinity_info cpu0 after cpu_off", psci(PSCI_AFFINITY_INFO, 0, 0, 0));

    puts_("guest psci: system_off next\n");
    check("system_off returned", psci(PSCI_SYSTEM_OFF, 0, 0, 0));
    return 0;
}
