/* SPDX-License-Identifier: MIT */
/* Every core on virt (SMP > 1): QEMU starts all CPUs at the reset vector. CPU 0 boots
 * fiqmon; the others wait (smp_entry.S) until it sends CPU_SGI, then set up their own
 * banked GIC state, SCR and NSACR and park in Secure memory until the kernel turns them on
 * with PSCI CPU_ON (monitor/psci/). They run in Monitor mode, each on its own stack. */
#include "armv7_cp15.h"
#if FIQMON_HYP
#include "breakpoints.h"
#endif
#include "cpu_frame.h"
#include "gicv2.h"
#include "mmio.h"
#include "monitor.h"
#include "pl061.h"
#include "platform.h"
#include "platform_def.h"
#include "psci.h"
#include "virt.h"
#if FIQMON_WATCHDOG
#include "watchdog.h"
#endif

void smp_park_fresh(unsigned cpu) __attribute__((noreturn));
void smp_enter_normal(uint32_t entry, uint32_t context) __attribute__((noreturn));

static void wake(unsigned cpu)
{
    (void)cpu;
    __asm__ volatile("dsb\n\tsev" ::: "memory"); /* parked CPUs wait in WFE */
}

static void standby(void)
{
    __asm__ volatile("dsb\n\twfi" ::: "memory");
}

static void cpu_off(unsigned cpu)
{
#if FIQMON_WATCHDOG
    virt_watchdog_follow(false); /* an off CPU is not watched */
#endif
    smp_park_fresh(cpu);
}

static void system_off(void)
{
    pl061_drive(SECURE_GPIO_BASE, SECURE_GPIO_POWEROFF, 1);
    for (;;) {
    }
}

static const struct psci_ops virt_psci_ops = {
    .wake = wake,
    .standby = standby,
    .cpu_off = cpu_off,
    .system_off = system_off,
    .system_reset = platform_reset,
};

unsigned virt_cpu_index(void)
{
    return cp15_mpidr_read() & 0xffu;
}

void virt_smp_init(void)
{
    psci_init(FIQMON_SMP, 0, RAM_BASE, RAM_SIZE, &virt_psci_ops);
    /* CPU 0 takes CPU_SGI too: another CPU's lockup report is due (watchdog_timer.c) */
    gicv2_make_secure_fiq(GICD_BASE, CPU_SGI, FIQ_PRIORITY, 0);
    /* the resident copy is in place: release the others from their wait (all but self) */
    __asm__ volatile("dsb" ::: "memory");
    mmio_write_32(GICD_BASE + GICD_SGIR, (1u << 24) | CPU_SGI);
}

void virt_smp_park(unsigned cpu) __attribute__((noreturn));
void virt_smp_park(unsigned cpu)
{
    uint64_t entry, context; /* (an AArch32 kernel's: 32 bits) */

    while (!psci_take_on(cpu, &entry, &context))
        __asm__ volatile("wfe" ::: "memory");
#if FIQMON_WATCHDOG
    virt_watchdog_follow(true);
#endif
#if FIQMON_HYP
    virt_hyp_arm_cpu(cpu); /* its own Hyp bank: stage 2 (the emulated console) on it too */
    virt_debug_sync();     /* and the breakpoints every CPU has */
#endif
    smp_enter_normal((uint32_t)entry, (uint32_t)context);
}

void virt_smp_secondary_init(unsigned cpu) __attribute__((noreturn));
void virt_smp_secondary_init(unsigned cpu)
{
    gicv2_cpu_init_secure(GICD_BASE, GICC_BASE);
    gicv2_make_secure_fiq(GICD_BASE, CPU_SGI, FIQ_PRIORITY, 0);
    cp15_scr_write(SCR_FIQ | SCR_AW);
    cp15_nsacr_write(NSACR_CP10 | NSACR_CP11);
    virt_smp_park(cpu);
}

/* The roundup: CPU 0 sends CPU_SGI (group 0: a FIQ the Normal world cannot mask) to the
 * online CPUs; each saves its whole context (the full FIQ path, its own frame), answers,
 * and waits while hold_all, or returns at once for a sample. */
#define ROUNDUP_WAIT_MS 500u /* (docs/every-core.md: emulated CPUs on a busy host) */

struct cpu_seen {
    volatile uint32_t answers; /* roundups and samples answered */
    volatile bool stopped;
    uint32_t pc, cpsr;
    struct cpu_frame *frame;
    uint32_t fiqs;                    /* FIQs it took */
    uint32_t group0, enabled, pending; /* its banked SGIs and PPIs */
    struct ns_sysregs sysregs;         /* its Normal world's CP15 bank */
};
static struct cpu_seen seen[FIQMON_SMP];
static volatile bool hold_all;
/* Bumped by every release. A CPU still waiting out one hold when the next begins (the host
 * had not run it since the release) must leave all the same: waiting on hold_all alone it
 * would sleep through the release, miss the new roundup (its FIQ masked) and be reported
 * as running on while it was stopped. */
static volatile uint32_t releases;
extern struct cpu_frame cpu_frame[FIQMON_SMP];

/* A debug event on CPU i, handed to CPU 0 (virt_smp_debug_event): busy from the trap until
 * CPU i resumes; due until CPU 0 takes it; done with CPU 0's verdict. */
struct debug_handoff {
    volatile bool busy, due, done;
    uint8_t kind;
    uint32_t addr;
    int verdict;
};
static struct debug_handoff handoff[FIQMON_SMP];

/* What the monitor shows of a CPU that stops with context f (a roundup, a sample, its own
 * lockup or debug event). */
static void seen_save(struct cpu_seen *s, struct cpu_frame *f)
{
    s->pc = f->pc;
    s->cpsr = f->cpsr;
    s->frame = f;
    gicv2_read_private(GICD_BASE, &s->group0, &s->enabled, &s->pending);
    virt_read_ns_sysregs(&s->sysregs);
}

#if FIQMON_HYP
/* On CPU 0 (its FIQ, in the monitor's context own): every other CPU's debug event that
 * waits, decided here, the session opened on it for a stop. True if a session ran. */
static bool serve_debug_events(struct cpu_frame *own)
{
    bool session = false;

    for (unsigned i = 1; i < FIQMON_SMP; i++) {
        struct debug_handoff *h = &handoff[i];
        struct cpu_frame *f = seen[i].frame;
        if (!h->due)
            continue;
        h->due = false;
        monitor_view_cpu(i, f); /* (its memory reads: the kernel's text, by its context) */
        h->verdict = debug_event(f, i, (enum debug_event_kind)h->kind, h->addr);
        if (h->verdict == DEBUG_STOP) {
            monitor_debug_stop(own, i, f);
            session = true;
        } else {
            monitor_view_cpu(0, 0);
        }
        __asm__ volatile("dsb" ::: "memory");
        h->done = true;
        __asm__ volatile("dsb\n\tsev" ::: "memory");
    }
    return session;
}

bool virt_smp_debug_due(void)
{
    for (unsigned i = 1; i < FIQMON_SMP; i++)
        if (handoff[i].due)
            return true;
    return false;
}

int virt_smp_debug_event(unsigned cpu, struct cpu_frame *f, unsigned kind, uint32_t addr)
{
    struct cpu_seen *s = &seen[cpu];
    struct debug_handoff *h = &handoff[cpu];

    seen_save(s, f);
    h->kind = (uint8_t)kind;
    h->addr = addr;
    h->done = false;
    h->busy = true; /* stopped: no roundup waits for it (its FIQs are masked here) */
    s->stopped = true;
    __asm__ volatile("dsb" ::: "memory");
    h->due = true;
    __asm__ volatile("dsb" ::: "memory");
    mmio_write_32(GICD_BASE + GICD_SGIR, (1u << 16) | CPU_SGI); /* to CPU 0 */
    while (!h->done)
        __asm__ volatile("wfe" ::: "memory");
    s->stopped = false;
    h->busy = false;
    virt_debug_sync(); /* the table, and the step CPU 0 armed for it */
    return h->verdict;
}
#endif

int virt_smp_fiq(uint32_t iar)
{
    uint32_t id = iar & GIC_INTID_MASK;
    int full = id == CPU_SGI; /* the full path: platform_fiq_full */

    seen[virt_cpu_index()].fiqs++;
#if FIQMON_WATCHDOG
    /* its own timer, sampled on its own CPU; a lockup: stopped for the report (below) */
    if (id == WATCHDOG_TIMER_INTID)
        full = virt_watchdog_tick();
    else
        virt_watchdog_follow(true); /* a new setting reaches it with CPU 0's sample */
#endif
    gicv2_eoi(GICC_BASE, iar);
    return full;
}

void platform_fiq_full(struct cpu_frame *f);
void platform_fiq_full(struct cpu_frame *f)
{
    unsigned cpu = virt_cpu_index();
    struct cpu_seen *s = &seen[cpu];
    uint32_t release = releases;

    if (cpu == 0) {
        platform_monitor_enter();
#if FIQMON_HYP
        if (!serve_debug_events(f))
#endif
            monitor_fiq_full(f);
        platform_monitor_exit();
        return;
    }
    seen_save(s, f);
#if FIQMON_WATCHDOG
    /* Wedged: stopped (not rounded up: the others run on) until CPU 0 has reported it
     * from this frame (lockup_report); CPU_SGI tells CPU 0 the report is due. */
    bool wedged = mon_watchdog.cpu[cpu].due;
    s->stopped = hold_all || wedged;
    __atomic_add_fetch(&s->answers, 1, __ATOMIC_RELEASE);
    if (wedged) {
        __asm__ volatile("dsb" ::: "memory");
        mmio_write_32(GICD_BASE + GICD_SGIR, (1u << 16) | CPU_SGI);
    }
    while ((hold_all && releases == release) || mon_watchdog.cpu[cpu].due)
        __asm__ volatile("wfe" ::: "memory");
    virt_watchdog_follow(true);
#else
    s->stopped = hold_all;
    __atomic_add_fetch(&s->answers, 1, __ATOMIC_RELEASE);
    while (hold_all && releases == release)
        __asm__ volatile("wfe" ::: "memory");
#endif
    s->stopped = false; /* (the frame may have been edited: the exit path reloads it) */
#if FIQMON_HYP
    virt_debug_sync(); /* breakpoints set while it was held, or a step armed for it */
#endif
}

/* CPU i stopped on its own for a lockup report (until CPU 0 has written it): already in
 * its FIQ, it cannot take the roundup's, and its context is saved. */
static bool wedged(unsigned i)
{
#if FIQMON_WATCHDOG
    return mon_watchdog.cpu[i].due;
#else
    (void)i;
    return false;
#endif
}

/* Sends the roundup FIQ to every other online CPU; the ones that did not answer in time. */
static uint32_t call_others(void)
{
    uint32_t before[FIQMON_SMP], targets = 0, late, start, limit;

    for (unsigned i = 1; i < FIQMON_SMP; i++)
        if (psci.cpu[i].state == PSCI_ON && !wedged(i) && !handoff[i].busy) {
            targets |= 1u << i;
            before[i] = seen[i].answers;
        }
    if (!targets)
        return 0;
    __asm__ volatile("dsb" ::: "memory");
    mmio_write_32(GICD_BASE + GICD_SGIR, (targets << 16) | CPU_SGI);
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
        hold_all = false; /* (a CPU stopped for a lockup report stays until it is done) */
        __asm__ volatile("dsb\n\tsev" ::: "memory");
        return 0;
    }
    hold_all = true;
    return call_others();
}

uint32_t port_cpus_sample(void)
{
    return hold_all ? 0 : call_others(); /* held: what they saved is where they are */
}

void virt_smp_kick(void)
{
    if (!hold_all)
        call_others();
}

void port_cpu(unsigned n, struct port_cpu *out)
{
    struct cpu_frame *f = &cpu_frame[0];

    if (n == 0) {
        *out = (struct port_cpu){true, true, f->pc, f->cpsr, f, port_fiqs_taken(), 0, 0, 0};
        gicv2_read_private(GICD_BASE, &out->private_fiq, &out->private_enabled,
                           &out->private_pending);
        return;
    }
    out->online = psci.cpu[n].state == PSCI_ON;
    out->stopped = seen[n].stopped;
    out->pc = seen[n].pc;
    out->cpsr = seen[n].cpsr;
    out->frame = out->stopped ? seen[n].frame : 0;
    out->fiqs = seen[n].fiqs;
    out->private_fiq = seen[n].group0;
    out->private_enabled = seen[n].enabled;
    out->private_pending = seen[n].pending;
}

const struct ns_sysregs *virt_cpu_sysregs(unsigned n)
{
    return n == 0 || n >= FIQMON_SMP ? &ns_sysregs : &seen[n].sysregs;
}

uint32_t virt_smp_smc(uint32_t fid, uint32_t a1, uint32_t a2, uint32_t a3)
{
    return (uint32_t)psci_call(virt_cpu_index(), fid, a1, a2, a3);
}
