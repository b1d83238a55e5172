/* SPDX-License-Identifier: MIT */
/* The debug unit (HYP=1): fiqmon programs the breakpoint and watchpoint registers from
 * Monitor mode; the Hyp shim (HDCR.TDE, set by virt_hyp_arm) brings their debug
 * exceptions to fiqmon and shows the kernel no debug unit of its own (docs/breakpoints.md).
 * Each CPU has its own unit and only that CPU can write it: the monitor's CPU writes its
 * own at once and keeps a table (plus a step's registers per CPU) that every other CPU
 * applies before it runs the kernel again (virt_debug_sync). Registers:
 * platforms/common/armv7_debug.h. */
#include "armv7_debug.h"
#include "monitor.h"
#include "platform.h"
#include "virt.h"

#define SLOTS_MAX 16

#define PAIR_CASES(op2, v)                                                                     \
    case 0: DBG_PAIR_WRITE(0, op2, v); break;                                                  \
    case 1: DBG_PAIR_WRITE(1, op2, v); break;                                                  \
    case 2: DBG_PAIR_WRITE(2, op2, v); break;                                                  \
    case 3: DBG_PAIR_WRITE(3, op2, v); break;                                                  \
    case 4: DBG_PAIR_WRITE(4, op2, v); break;                                                  \
    case 5: DBG_PAIR_WRITE(5, op2, v); break;                                                  \
    case 6: DBG_PAIR_WRITE(6, op2, v); break;                                                  \
    case 7: DBG_PAIR_WRITE(7, op2, v); break;                                                  \
    case 8: DBG_PAIR_WRITE(8, op2, v); break;                                                  \
    case 9: DBG_PAIR_WRITE(9, op2, v); break;                                                  \
    case 10: DBG_PAIR_WRITE(10, op2, v); break;                                                \
    case 11: DBG_PAIR_WRITE(11, op2, v); break;                                                \
    case 12: DBG_PAIR_WRITE(12, op2, v); break;                                                \
    case 13: DBG_PAIR_WRITE(13, op2, v); break;                                                \
    case 14: DBG_PAIR_WRITE(14, op2, v); break;                                                \
    case 15: DBG_PAIR_WRITE(15, op2, v); break;                                                \
    default: break

static void bvr(unsigned n, uint32_t v) { switch (n) { PAIR_CASES(4, v); } }
static void bcr(unsigned n, uint32_t v) { switch (n) { PAIR_CASES(5, v); } }
static void wvr(unsigned n, uint32_t v) { switch (n) { PAIR_CASES(6, v); } }
static void wcr(unsigned n, uint32_t v) { switch (n) { PAIR_CASES(7, v); } }

#if FIQMON_SMP > 1
#define CPUS FIQMON_SMP
static unsigned self(void) { return virt_cpu_index(); }
#else
#define CPUS 1
static unsigned self(void) { return 0; }
#endif

/* The table: what every CPU's unit holds (value and control; control 0 is off). */
struct pair {
    uint32_t value, control;
};
static struct pair table_bp[SLOTS_MAX], table_wp[SLOTS_MAX];
static unsigned slots_bp, slots_wp;
static volatile uint32_t table_version;

/* A step's registers on one CPU, over the table; applied by that CPU (virt_debug_sync)
 * when it is not the one the monitor runs on. */
static struct {
    uint32_t step_bps; /* slots holding the step's own pair */
    bool wps_off;
    bool dirty;       /* changed since the CPU last applied it */
    uint32_t applied; /* the table_version it holds */
    struct pair bp[SLOTS_MAX];
} unit[CPUS];

/* Pair n: its control off while the value changes, then on if p says so. */
static void write_pair(unsigned n, struct pair p, void (*value)(unsigned, uint32_t),
                       void (*control)(unsigned, uint32_t))
{
    control(n, 0);
    __asm__ volatile("isb");
    if (!p.control)
        return;
    value(n, p.value);
    control(n, p.control);
    __asm__ volatile("isb");
}

static void write_bp(unsigned n, struct pair p)
{
    write_pair(n, p, bvr, bcr);
}

static void write_wp(unsigned n, struct pair p)
{
    write_pair(n, p, wvr, wcr);
}

static struct pair bp_of(unsigned cpu, unsigned n)
{
    return unit[cpu].step_bps & (1u << n) ? unit[cpu].bp[n] : table_bp[n];
}

static struct pair wp_of(unsigned cpu, unsigned n)
{
    return unit[cpu].wps_off ? (struct pair){0, 0} : table_wp[n];
}

/* This CPU's whole unit as the table and its step say. */
static void apply(unsigned cpu)
{
    uint32_t version = table_version;

    for (unsigned n = 0; n < slots_bp; n++)
        write_bp(n, bp_of(cpu, n));
    for (unsigned n = 0; n < slots_wp; n++)
        write_wp(n, wp_of(cpu, n));
    unit[cpu].dirty = false;
    unit[cpu].applied = version;
}

void virt_debug_sync(void)
{
    unsigned cpu = self();

    if (virt_hyp_installed && cpu < CPUS &&
        (unit[cpu].dirty || unit[cpu].applied != table_version))
        apply(cpu);
}

void port_debug_slots(unsigned *breakpoints, unsigned *watchpoints)
{
    uint32_t didr;

    if (!virt_hyp_installed) { /* no Hyp: the kernel's debug exceptions are its own */
        *breakpoints = *watchpoints = 0;
        return;
    }
    didr = dbg_didr_read();
    *breakpoints = slots_bp = (didr >> DBGDIDR_BRPS_SHIFT & 0xfu) + 1u;
    *watchpoints = slots_wp = (didr >> DBGDIDR_WRPS_SHIFT & 0xfu) + 1u;
}

static struct pair bp_pair(uint32_t addr, bool on)
{
    uint32_t bas = !(addr & 1u) ? DBGBCR_BAS_ARM
                   : addr & 2u  ? DBGBCR_BAS_THUMB_HI
                                : DBGBCR_BAS_THUMB_LO;

    if (!on)
        return (struct pair){0, 0};
    return (struct pair){addr & ~3u, DBGBCR_SSC_NS | bas << DBGBCR_BAS_SHIFT |
                                         DBGBCR_PMC_PL0_PL1 | DBGBCR_ENABLE};
}

/* The others take a new table at their next FIQ: while they run on (the asynchronous
 * shell), a sample brings that FIQ now. Held CPUs take it when released. */
static void table_changed(void)
{
    table_version++;
#if FIQMON_SMP > 1
    if (self() == 0)
        virt_smp_kick();
#endif
}

void port_debug_breakpoint(unsigned n, uint32_t addr, bool on)
{
    struct pair p = bp_pair(addr, on);
    unsigned cpu = self();

    if (n >= SLOTS_MAX)
        return;
    if (table_bp[n].value == p.value && table_bp[n].control == p.control)
        return;
    table_bp[n] = p;
    if (!(unit[cpu].step_bps & (1u << n)))
        write_bp(n, p);
    table_changed();
}

void port_debug_watchpoint(unsigned n, uint32_t addr, uint32_t len, unsigned kind, bool on)
{
    uint32_t lsc = (kind & 1u ? DBGWCR_LSC_STORE : 0) | (kind & 2u ? DBGWCR_LSC_LOAD : 0);
    struct pair p = {0, 0};

    if (n >= SLOTS_MAX)
        return;
    if (on)
        p = (struct pair){addr & ~3u, DBGWCR_SSC_NS |
                                          ((1u << len) - 1u) << (DBGWCR_BAS_SHIFT + (addr & 3u)) |
                                          lsc | DBGWCR_PAC_PL0_PL1 | DBGWCR_ENABLE};
    if (table_wp[n].value == p.value && table_wp[n].control == p.control)
        return;
    table_wp[n] = p;
    if (!unit[self()].wps_off)
        write_wp(n, p);
    table_changed();
}

void port_debug_step_breakpoint(unsigned cpu, unsigned n, uint32_t addr, bool on)
{
    if (cpu >= CPUS || n >= SLOTS_MAX)
        return;
    unit[cpu].step_bps |= 1u << n;
    unit[cpu].bp[n] = bp_pair(addr, on);
    if (cpu == self())
        write_bp(n, unit[cpu].bp[n]);
    else
        unit[cpu].dirty = true; /* it is stopped: it applies it as it resumes */
}

void port_debug_step_watchpoints_off(unsigned cpu)
{
    if (cpu >= CPUS)
        return;
    unit[cpu].wps_off = true;
    if (cpu == self())
        for (unsigned n = 0; n < slots_wp; n++)
            write_wp(n, (struct pair){0, 0});
    else
        unit[cpu].dirty = true;
}

void port_debug_step_end(unsigned cpu)
{
    if (cpu >= CPUS)
        return;
    unit[cpu].step_bps = 0;
    unit[cpu].wps_off = false;
    if (cpu == self())
        apply(cpu);
    else
        unit[cpu].dirty = true;
}

bool port_debug_translation(uint32_t *ttbr0, uint32_t *ttbr1, uint32_t *ttbcr)
{
    const struct ns_sysregs *r = virt_cpu_sysregs(monitor_cpu());

    *ttbr0 = r->ttbr0;
    *ttbr1 = r->ttbr1;
    *ttbcr = r->ttbcr;
    return r->sctlr & 1u; /* SCTLR.M */
}

bool port_debug_kernel_thumb(void)
{
    return virt_cpu_sysregs(0)->sctlr & (1u << 30); /* SCTLR.TE */
}

uint32_t port_debug_vectors(void)
{
    const struct ns_sysregs *r = virt_cpu_sysregs(0);

    return r->sctlr & (1u << 13) ? 0xffff0000u : r->vbar; /* SCTLR.V: high vectors */
}
