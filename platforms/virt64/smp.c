/* SPDX-License-Identifier: MIT */
/* Every core on virt64 (SMP > 1): QEMU starts all CPUs at the reset vector. CPU 0 boots
 * fiqmon; the others wait (smp_entry.S) until it sends CPU_SGI, then set up their own
 * redistributor and EL3 state and park in Secure memory until the kernel turns them on with
 * PSCI CPU_ON (monitor/psci/). At EL3 they run on a stack each. The roundup: CPU 0 sends
 * CPU_SGI (Group 0: a FIQ the Normal world cannot mask) to the online CPUs; each saves its
 * whole context (the full FIQ path, its own frame), answers, and waits while held, or
 * returns at once for a sample. */
#include "aarch64_el3_features.h"
#include "aarch64_sysreg.h"
#include "cpu_frame.h"
#include "gicv3.h"
#include "monitor.h"
#include "pl061.h"
#include "platform.h"
#include "platform_def.h"
#include "psci.h"
#include "virt64.h"

void smp_park_fresh(unsigned cpu) __attribute__((noreturn));
void smp_enter_normal(uint64_t entry, uint64_t context) __attribute__((noreturn));
void virt64_smp_park(unsigned cpu) __attribute__((noreturn));
void virt64_smp_secondary_init(unsigned cpu) __attribute__((noreturn));
void platform_fiq_full(struct cpu_frame *f);

#define ROUNDUP_WAIT_MS 500u /* (docs/every-core.md: emulated CPUs on a busy host) */

struct cpu_seen {
    volatile uint32_t answers; /* roundups and samples answered */
    volatile bool stopped;
    uint64_t pc;
    uint32_t pstate;
    struct cpu_frame *frame;
    uint32_t fiqs;                     /* FIQs it took */
    uint32_t group0, enabled, pending; /* its SGIs and PPIs */
    uintptr_t gicr;                    /* its redistributor */
};
static struct cpu_seen seen[FIQMON_SMP];
static volatile bool hold_all;
/* Bumped by every release: a CPU still waiting out one hold when the next begins must
 * leave all the same (see platforms/virt/smp.c). */
static volatile uint32_t releases;
extern struct cpu_frame cpu_frame[FIQMON_SMP];

static void wake(unsigned cpu)
{
    (void)cpu;
    __asm__ volatile("dsb sy\n\tsev" ::: "memory"); /* parked CPUs wait in WFE */
}

static void standby(void)
{
    __asm__ volatile("dsb sy\n\twfi" ::: "memory");
}

static void cpu_off(unsigned cpu)
{
    smp_park_fresh(cpu);
}

static void system_off(void)
{
    pl061_drive(SECURE_GPIO_BASE, SECURE_GPIO_POWEROFF, 1);
    for (;;) {
    }
}

static const struct psci_ops virt64_psci_ops = {
    .wake = wake,
    .standby = standby,
    .cpu_off = cpu_off,
    .system_off = system_off,
    .system_reset = platform_reset,
    .smc64 = true,
};

unsigned virt64_cpu_index(void)
{
    return (unsigned)(sysreg_mpidr_el1_read() & 0xff);
}

void virt64_smp_init(void)
{
    psci_init(FIQMON_SMP, 0, RAM_BASE, RAM_SIZE, &virt64_psci_ops);
    seen[0].gicr = virt64_gicr;
    /* CPU 0 takes CPU_SGI too (a lockup report due, later) */
    gicv3_make_private_fiq(virt64_gicr, CPU_SGI, FIQ_PRIORITY);
    /* the resident copy is in place: release the others from their wait */
    gicv3_sgi0_to_others(CPU_SGI);
}

void virt64_smp_park(unsigned cpu)
{
    uint64_t entry, context;

    while (!psci_take_on(cpu, &entry, &context))
        __asm__ volatile("wfe" ::: "memory");
    smp_enter_normal(entry, context);
}

void virt64_smp_secondary_init(unsigned cpu)
{
    aarch64_el3_enable_features();
    seen[cpu].gicr = gicv3_cpu_init(GICR_BASE, sysreg_mpidr_el1_read());
    gicv3_make_private_fiq(seen[cpu].gicr, CPU_SGI, FIQ_PRIORITY);
    virt64_smp_park(cpu);
}

int virt64_smp_fiq(uint32_t iar)
{
    uint32_t id = iar & GIC_INTID_MASK;

    seen[virt64_cpu_index()].fiqs++;
    if (id != GIC_INTID_SPURIOUS)
        gicv3_eoi_group0(iar);
    return id == CPU_SGI; /* the full path: platform_fiq_full */
}

static void seen_save(struct cpu_seen *s, struct cpu_frame *f)
{
    struct gicv3_private p;

    s->frame = f;
    s->pc = f->pc;
    s->pstate = f->pstate;
    gicv3_read_private(s->gicr, &p);
    s->group0 = p.group0;
    s->enabled = p.enabled;
    s->pending = p.pending;
}

void platform_fiq_full(struct cpu_frame *f)
{
    unsigned cpu = virt64_cpu_index();
    struct cpu_seen *s = &seen[cpu];
    uint32_t release = releases;

    if (cpu == 0) {
        platform_monitor_enter();
        monitor_fiq_full(f);
        platform_monitor_exit();
        return;
    }
    seen_save(s, f);
    s->stopped = hold_all;
    __atomic_add_fetch(&s->answers, 1, __ATOMIC_RELEASE);
    while (hold_all && releases == release)
        __asm__ volatile("wfe" ::: "memory");
    s->stopped = false; /* (the frame may have been edited: the exit path reloads it) */
}

/* Sends the roundup FIQ to every other online CPU; the ones that did not answer in time. */
static uint32_t call_others(void)
{
    uint32_t before[FIQMON_SMP], targets = 0, late, start, limit;

    for (unsigned i = 1; i < FIQMON_SMP; i++)
        if (psci.cpu[i].state == PSCI_ON) {
            targets |= 1u << i;
            before[i] = seen[i].answers;
        }
    if (!targets)
        return 0;
    gicv3_sgi0_to_list(CPU_SGI, targets);
    late = targets;
    start = platform_ticks();
    limit = platform_ticks_per_ms() * ROUNDUP_WAIT_MS;
    while (late && platform_ticks() - start < limit)
        for (unsigned i = 1; i < FIQMON_SMP; i++)
            if ((late & (1u << i)) && seen[i].answers != before[i])
                late &= ~(1u << i);
    return late;
}

uint32_t port_cpus_hold(bool hold)
{
    if (!hold) {
        releases++;
        hold_all = false;
        __asm__ volatile("dsb sy\n\tsev" ::: "memory");
        return 0;
    }
    hold_all = true;
    return call_others();
}

uint32_t port_cpus_sample(void)
{
    return hold_all ? 0 : call_others(); /* held: what they saved is where they are */
}

void port_cpu(unsigned n, struct port_cpu *out)
{
    if (n == 0) {
        struct cpu_frame *f = &cpu_frame[0];
        struct gicv3_private p;

        *out = (struct port_cpu){true, true, f->pc, f->pstate, f, port_fiqs_taken(), 0, 0, 0};
        gicv3_read_private(virt64_gicr, &p);
        out->private_fiq = p.group0;
        out->private_enabled = p.enabled;
        out->private_pending = p.pending;
        return;
    }
    out->online = psci.cpu[n].state == PSCI_ON;
    out->stopped = seen[n].stopped;
    out->pc = seen[n].pc;
    out->cpsr = seen[n].pstate;
    out->frame = out->stopped ? seen[n].frame : 0;
    out->fiqs = seen[n].fiqs;
    out->private_fiq = seen[n].group0;
    out->private_enabled = seen[n].enabled;
    out->private_pending = seen[n].pending;
}

uint64_t virt64_smp_smc(uint32_t fid, uint64_t a1, uint64_t a2, uint64_t a3)
{
    return (uint64_t)(int64_t)psci_call(virt64_cpu_index(), fid, a1, a2, a3);
}
