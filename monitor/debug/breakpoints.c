/* SPDX-License-Identifier: MIT */
#include "breakpoints.h"

#include <string.h>

#include "next_pc.h"
#include "platform.h"
#include "text_mapping.h"

struct slot {
    uint32_t addr, len;
    uint8_t used, kind, gdb;
};

/* A software breakpoint: fiqmon's BKPT in the kernel's text, the instruction it replaced */
struct soft {
    uint32_t addr; /* bit 0: Thumb (a 16-bit BKPT) */
    uint32_t orig;
    bool used;
};

static struct {
    bool sized;
    unsigned nbp, nwp;
    struct slot bp[DEBUG_SLOTS_MAX], wp[DEBUG_SLOTS_MAX];
    /* a step in flight (on step_cpu's debug unit): the registers it armed, what it
     * turned off there (the other CPUs keep the table: port_debug_step_*) */
    bool stepping, user_step;
    uint8_t step_cpu;
    uint32_t step_slots;   /* a bit per breakpoint register */
    uint32_t step_vectors; /* the vector addresses among them (reported as such) */
    uint32_t suspended_bp; /* the user's breakpoint at the pc stepped over (bit) */
    int suspended_soft;    /* the software breakpoint stepped over (index + 1), or 0 */
    /* while it is out of the text, a breakpoint register (index + 1) stands in for it on
     * every other CPU (several CPUs: one that runs there meanwhile still stops) */
    int soft_guard;
    /* requested by `ss` / GDB's s for CPU step_request_cpu: armed when it resumes */
    bool step_pending;
    uint8_t step_request_cpu;
    /* CPU stop_cpu stopped on a debug event at stop_pc: resuming there steps over it */
    bool stopped_on_event;
    uint8_t stop_cpu;
    uint32_t stop_pc;
    struct soft soft[DEBUG_SOFT_MAX];
} dbg;

struct debug_stop debug_last_stop;

void debug_reset(void)
{
    memset(&dbg, 0, sizeof(dbg));
    memset(&debug_last_stop, 0, sizeof(debug_last_stop));
}

static void size_unit(void)
{
    if (dbg.sized)
        return;
    port_debug_slots(&dbg.nbp, &dbg.nwp);
    if (dbg.nbp > DEBUG_SLOTS_MAX)
        dbg.nbp = DEBUG_SLOTS_MAX;
    if (dbg.nwp > DEBUG_SLOTS_MAX)
        dbg.nwp = DEBUG_SLOTS_MAX;
    dbg.sized = true;
}

unsigned debug_breakpoint_slots(void)
{
    size_unit();
    return dbg.nbp;
}

unsigned debug_watchpoint_slots(void)
{
    size_unit();
    return dbg.nwp;
}

static bool read_raw(uint32_t addr, unsigned width, uint32_t *value)
{
    port_mem_space(PORT_MEM_VIRTUAL);
    return !port_mem_unavailable() && port_mem_read(addr, width, value);
}

static int find_soft(uint32_t addr);

/* The kernel's code as it is without fiqmon's BKPTs (what a step decodes). */
static bool read_text(uint32_t addr, unsigned width, uint32_t *value)
{
    int i = find_soft(addr);

    if (!read_raw(addr, width, value))
        return false;
    if (i >= 0 && (dbg.soft[i].addr & ~1u) == addr && dbg.suspended_soft != i + 1) {
        uint32_t keep = dbg.soft[i].addr & 1u ? 0xffff0000u : 0;
        *value = (*value & keep) | (dbg.soft[i].orig & ~keep);
    }
    return true;
}

static bool read_pa(uint32_t pa, uint32_t *value)
{
    return port_mem_read(pa, 4, value);
}

/* 0 if the kernel may run the instruction at addr: its tables map it, not XN (or its MMU
 * is off, or its tables are long-descriptor ones, which are not walked:
 * docs/breakpoints.md); -5 not mapped there, -6 mapped XN (data). */
static int executable(uint32_t addr)
{
    struct text_mapping_regs r;
    enum text_mapping m;

    if (!port_debug_translation(&r.ttbr0, &r.ttbr1, &r.ttbcr))
        return 0;
    port_mem_space(PORT_MEM_PHYSICAL);
    m = text_mapping_at(addr & ~1u, &r, read_pa);
    port_mem_space(PORT_MEM_VIRTUAL);
    return m == TEXT_UNMAPPED ? -5 : m == TEXT_NOT_EXECUTABLE ? -6 : 0;
}

/* --- software breakpoints -------------------------------------------------------------- */

static unsigned insn_size(uint32_t addr)
{
    return addr & 1u ? 2u : 4u;
}

/* The word (or halfword) of text at addr, fresh from memory (the caches agree first). */
static bool text_read(uint32_t addr, uint32_t *v)
{
    port_debug_code_sync(addr & ~1u);
    return read_raw(addr & ~1u, insn_size(addr), v);
}

/* Rewrites the instruction at addr and makes every CPU fetch it; true if it reads back. */
static bool text_write(uint32_t addr, uint32_t v)
{
    uint32_t back;

    port_mem_space(PORT_MEM_VIRTUAL);
    if (port_mem_unavailable() || !port_mem_write(addr & ~1u, insn_size(addr), v))
        return false;
    port_debug_code_sync(addr & ~1u);
    return text_read(addr, &back) && back == v;
}

static uint32_t bkpt_for(uint32_t addr)
{
    return addr & 1u ? DEBUG_BKPT_THUMB : DEBUG_BKPT_ARM;
}

static int find_soft(uint32_t addr)
{
    for (unsigned i = 0; i < DEBUG_SOFT_MAX; i++)
        if (dbg.soft[i].used && (dbg.soft[i].addr & ~1u) == (addr & ~1u))
            return (int)i;
    return -1;
}

/* Puts the original instruction back if fiqmon's BKPT is still there (the kernel may
 * have rewritten its text since: then it is the kernel's). */
static void soft_restore(unsigned i)
{
    uint32_t now;

    if (text_read(dbg.soft[i].addr, &now) && now == bkpt_for(dbg.soft[i].addr))
        text_write(dbg.soft[i].addr, dbg.soft[i].orig);
}

int debug_soft_set(uint32_t addr)
{
    uint32_t orig;
    int free = -1;

    size_unit();
    if (!dbg.nbp)
        return -2; /* (the step over it needs the unit) */
    if (find_soft(addr) >= 0)
        return -3;
    if (addr & 2u && !(addr & 1u))
        return -4; /* an ARM instruction is word-aligned */
    port_mem_space(PORT_MEM_VIRTUAL);
    if (!port_mem_is_memory(addr & ~1u) || !text_read(addr, &orig))
        return -5;
    int mapping = executable(addr);
    if (mapping)
        return mapping; /* (data: a BKPT there would corrupt it) */
    if (orig == bkpt_for(addr))
        return -4; /* fiqmon's own BKPT already: nothing to restore later */
    for (unsigned i = 0; i < DEBUG_SOFT_MAX && free < 0; i++)
        if (!dbg.soft[i].used)
            free = (int)i;
    if (free < 0)
        return -1;
    if (!text_write(addr, bkpt_for(addr))) {
        text_write(addr, orig); /* (if it half-happened) */
        return -5;
    }
    dbg.soft[free] = (struct soft){.addr = addr, .orig = orig, .used = true};
    return free + 1;
}

bool debug_soft_clear(uint32_t addr)
{
    int i = find_soft(addr);

    if (i < 0)
        return false;
    if (dbg.suspended_soft == i + 1)
        dbg.suspended_soft = 0; /* stepped over right now: the original is in place */
    else
        soft_restore((unsigned)i);
    dbg.soft[i].used = false;
    return true;
}

unsigned debug_soft_count(void)
{
    unsigned n = 0;

    for (unsigned i = 0; i < DEBUG_SOFT_MAX; i++)
        n += dbg.soft[i].used;
    return n;
}

/* The pc as a breakpoint address: bit 0 for Thumb. */
static uint32_t pc_addr(const struct cpu_frame *f)
{
    return f->cpsr & ARM_PSR_T ? (f->pc & ~1u) | 1u : f->pc & ~3u;
}

/* Breakpoint addresses match by instruction, whatever bit 0 says of the state. */
static bool same_insn(uint32_t a, uint32_t b)
{
    return (a & ~1u) == (b & ~1u);
}

static int find_bp(uint32_t addr)
{
    for (unsigned i = 0; i < dbg.nbp; i++)
        if (dbg.bp[i].used && same_insn(dbg.bp[i].addr, addr))
            return (int)i;
    return -1;
}

int debug_break_set(uint32_t addr, enum debug_owner owner)
{
    size_unit();
    if (!dbg.nbp)
        return -2;
    if (find_bp(addr) >= 0)
        return -3;
    uint32_t insn;
    if (!read_text(addr & ~1u, 2, &insn))
        return -5; /* nothing there for the kernel to run */
    int mapping = executable(addr);
    if (mapping)
        return mapping;
    for (unsigned i = 0; i < dbg.nbp; i++) {
        if (dbg.bp[i].used || (dbg.step_slots & (1u << i)))
            continue;
        dbg.bp[i] = (struct slot){.addr = addr, .used = 1, .gdb = owner == DEBUG_BY_GDB};
        port_debug_breakpoint(i, addr, true);
        return (int)i + 1;
    }
    return -1;
}

static void bp_off(unsigned i)
{
    dbg.bp[i].used = 0;
    dbg.suspended_bp &= ~(1u << i);
    port_debug_breakpoint(i, 0, false); /* (a step in flight keeps its own until it ends) */
}

bool debug_break_clear(uint32_t addr)
{
    int i;

    size_unit();
    i = find_bp(addr);
    if (i < 0)
        return false;
    bp_off((unsigned)i);
    return true;
}

bool debug_break_clear_number(unsigned number)
{
    size_unit();
    if (number == 0 || number > dbg.nbp || !dbg.bp[number - 1].used)
        return false;
    bp_off(number - 1);
    return true;
}

bool debug_break_get(unsigned n, uint32_t *addr)
{
    size_unit();
    if (n == 0 || n > dbg.nbp || !dbg.bp[n - 1].used)
        return false;
    *addr = dbg.bp[n - 1].addr;
    return true;
}

int debug_watch_set(uint32_t addr, uint32_t len, enum watch_kind kind, enum debug_owner owner)
{
    size_unit();
    if (!dbg.nwp)
        return -2;
    /* the unit watches within one aligned word: 1, 2 or 4 bytes that stay in it */
    if ((len != 1 && len != 2 && len != 4) || (addr & 3u) + len > 4u)
        return -4;
    for (unsigned i = 0; i < dbg.nwp; i++)
        if (dbg.wp[i].used && dbg.wp[i].addr == addr && dbg.wp[i].len == len &&
            dbg.wp[i].kind == kind)
            return -3;
    for (unsigned i = 0; i < dbg.nwp; i++) {
        if (dbg.wp[i].used)
            continue;
        dbg.wp[i] = (struct slot){.addr = addr, .len = len, .used = 1, .kind = (uint8_t)kind,
                                  .gdb = owner == DEBUG_BY_GDB};
        port_debug_watchpoint(i, addr, len, kind, true); /* (a step over keeps its own off) */
        return (int)i + 1;
    }
    return -1;
}

bool debug_watch_clear(uint32_t addr, uint32_t len, enum watch_kind kind)
{
    size_unit();
    for (unsigned i = 0; i < dbg.nwp; i++) {
        if (dbg.wp[i].used && dbg.wp[i].addr == addr && dbg.wp[i].len == len &&
            dbg.wp[i].kind == kind) {
            dbg.wp[i].used = 0;
            port_debug_watchpoint(i, 0, 0, 0, false);
            return true;
        }
    }
    return false;
}

bool debug_watch_clear_number(unsigned number)
{
    size_unit();
    if (number == 0 || number > dbg.nwp || !dbg.wp[number - 1].used)
        return false;
    struct slot *w = &dbg.wp[number - 1];
    return debug_watch_clear(w->addr, w->len, (enum watch_kind)w->kind);
}

enum debug_owner debug_break_owner(unsigned n)
{
    return n && n <= DEBUG_SLOTS_MAX && dbg.bp[n - 1].gdb ? DEBUG_BY_GDB : DEBUG_BY_SHELL;
}

enum debug_owner debug_watch_owner(unsigned n)
{
    return n && n <= DEBUG_SLOTS_MAX && dbg.wp[n - 1].gdb ? DEBUG_BY_GDB : DEBUG_BY_SHELL;
}

bool debug_watch_get(unsigned n, uint32_t *addr, uint32_t *len, enum watch_kind *kind)
{
    size_unit();
    if (n == 0 || n > dbg.nwp || !dbg.wp[n - 1].used)
        return false;
    *addr = dbg.wp[n - 1].addr;
    *len = dbg.wp[n - 1].len;
    *kind = (enum watch_kind)dbg.wp[n - 1].kind;
    return true;
}

/* The step's breakpoints off, the stepping CPU's registers back to the table. */
static void step_end(void)
{
    if (dbg.stepping)
        port_debug_step_end(dbg.step_cpu);
    if (dbg.suspended_soft) { /* its instruction has run: the BKPT goes back */
        struct soft *s = &dbg.soft[dbg.suspended_soft - 1];
        if (s->used)
            text_write(s->addr, bkpt_for(s->addr));
        dbg.suspended_soft = 0;
    }
    if (dbg.soft_guard) { /* (after the BKPT is back: no moment without either) */
        port_debug_breakpoint((unsigned)dbg.soft_guard - 1, 0, false);
        dbg.soft_guard = 0;
    }
    dbg.step_slots = dbg.step_vectors = dbg.suspended_bp = 0;
    dbg.stepping = dbg.user_step = false;
}

/* The breakpoints and watchpoints (every one, or GDB's only) and the software
 * breakpoints (GDB's) off. A step in flight keeps its own registers until it ends. */
static void clear(bool gdb_only)
{
    size_unit();
    for (unsigned i = 0; i < dbg.nbp; i++)
        if (dbg.bp[i].used && (dbg.bp[i].gdb || !gdb_only))
            bp_off(i);
    for (unsigned i = 0; i < dbg.nwp; i++)
        if (dbg.wp[i].used && (dbg.wp[i].gdb || !gdb_only))
            debug_watch_clear(dbg.wp[i].addr, dbg.wp[i].len, (enum watch_kind)dbg.wp[i].kind);
    for (unsigned i = 0; i < DEBUG_SOFT_MAX; i++)
        if (dbg.soft[i].used)
            debug_soft_clear(dbg.soft[i].addr);
}

void debug_clear_gdb(void)
{
    clear(true);
}

bool debug_soft_get(unsigned n, uint32_t *addr)
{
    if (n == 0 || n > DEBUG_SOFT_MAX || !dbg.soft[n - 1].used)
        return false;
    *addr = dbg.soft[n - 1].addr;
    return true;
}

void debug_clear_all(void)
{
    size_unit();
    step_end();
    clear(false);
    dbg.step_pending = false;
    dbg.stopped_on_event = false;
}

/* The step's target addresses: every successor, and for a user's step the vector of the
 * exception the instruction itself takes (SVC, UDF), reported as such. An interrupt, or a
 * fault the kernel fixes up (a page fault), runs its handler unseen: the step ends when
 * the instruction has run. */
static unsigned step_targets(struct cpu_frame *f, bool user, uint32_t *t, uint32_t *vectors)
{
    struct next_pc np;
    unsigned n = 0;

    *vectors = 0;
    if (!next_pc(f, read_text, &np))
        return 0;
    for (unsigned i = 0; i < np.n; i++)
        t[n++] = np.addr[i];
    if (user && np.vector) {
        *vectors |= 1u << n;
        t[n++] = port_debug_vectors() + np.vector;
    }
    return n;
}

static unsigned free_slots(void)
{
    unsigned n = 0;

    for (unsigned i = 0; i < dbg.nbp; i++)
        n += !dbg.bp[i].used || (dbg.suspended_bp & (1u << i));
    return n;
}

/* A free register (not the user's, not a step's: the highest, the step takes the lowest)
 * for the software breakpoint at addr while the stepping CPU runs its original: on every
 * CPU but that one. */
static void soft_guard_on(unsigned cpu, uint32_t addr)
{
    if (platform->cpus < 2)
        return; /* one CPU: nobody else can run there */
    for (unsigned i = dbg.nbp; i-- > 0;) {
        if (dbg.bp[i].used || (dbg.step_slots & (1u << i)))
            continue;
        port_debug_breakpoint(i, addr, true);
        port_debug_step_breakpoint(cpu, i, 0, false);
        dbg.soft_guard = (int)i + 1;
        return;
    }
    /* none free: other CPUs may run the instruction unseen for one step (docs) */
}

/* Arms a step from f, CPU cpu's context; false (nothing changed) if it cannot be. */
static bool step_arm(struct cpu_frame *f, unsigned cpu, bool user, bool over_watchpoint,
                     const char **error)
{
    uint32_t t[4], vectors;
    unsigned n = step_targets(f, user, t, &vectors);
    int at_pc = find_bp(pc_addr(f));

    if (!n) {
        *error = "the instruction at the pc cannot be stepped (unreadable, or not decoded)";
        return false;
    }
    int soft = find_soft(f->pc);

    if (at_pc >= 0)
        dbg.suspended_bp |= 1u << at_pc; /* its register is free while the step runs */
    if (free_slots() < n) {
        dbg.suspended_bp = 0;
        *error = "no free breakpoint register for the step";
        return false;
    }
    if (soft >= 0 && dbg.suspended_soft != soft + 1) { /* the kernel runs the original */
        /* the guard first (a register the step can spare): no moment with neither the
         * BKPT nor the register */
        if (free_slots() > n)
            soft_guard_on(cpu, dbg.soft[soft].addr);
        if (!text_write(dbg.soft[soft].addr, dbg.soft[soft].orig)) {
            dbg.suspended_bp = 0;
            if (dbg.soft_guard)
                port_debug_breakpoint((unsigned)dbg.soft_guard - 1, 0, false);
            dbg.soft_guard = 0;
            *error = "the software breakpoint at the pc does not come out";
            return false;
        }
        dbg.suspended_soft = soft + 1;
    }
    if (at_pc >= 0)
        port_debug_step_breakpoint(cpu, (unsigned)at_pc, 0, false);
    if (over_watchpoint)
        port_debug_step_watchpoints_off(cpu);
    for (unsigned k = 0, i = 0; k < n; k++) {
        while ((dbg.bp[i].used && !(dbg.suspended_bp & (1u << i))) ||
               dbg.soft_guard == (int)i + 1)
            i++;
        port_debug_step_breakpoint(cpu, i, t[k], true);
        dbg.step_slots |= 1u << i;
        if (vectors & (1u << k))
            dbg.step_vectors |= 1u << i;
        i++;
    }
    dbg.stepping = true;
    dbg.step_cpu = (uint8_t)cpu;
    dbg.user_step = user;
    return true;
}

bool debug_step_request(struct cpu_frame *f, unsigned cpu, const char **error)
{
    uint32_t t[4], vectors;

    size_unit();
    if (!dbg.nbp) {
        *error = "no debug unit here (the Hyp shim routes its exceptions: HYP=1 on virt)";
        return false;
    }
    if (!f) {
        *error = "that cpu is not stopped (off, or it did not answer the roundup)";
        return false;
    }
    if (dbg.stepping && dbg.step_cpu != cpu) {
        *error = "another cpu's step has not run yet: 'continue' lets it finish";
        return false;
    }
    unsigned n = step_targets(f, true, t, &vectors);
    if (!n) {
        *error = "the instruction at the pc cannot be stepped (unreadable, or not decoded)";
        return false;
    }
    if (free_slots() + (find_bp(pc_addr(f)) >= 0) < n) {
        *error = "a step needs a free breakpoint register for each place it may go";
        return false;
    }
    dbg.step_pending = true;
    dbg.step_request_cpu = (uint8_t)cpu;
    return true;
}

/* CPU n's saved context while the monitor runs: own for CPU 0, the port's for a stopped
 * other one (NULL if it runs on or is off). */
static struct cpu_frame *frame_of(unsigned n, struct cpu_frame *own)
{
    struct port_cpu c;

    if (!n)
        return own;
    port_cpu(n, &c);
    return c.frame;
}

void debug_resuming(struct cpu_frame *own)
{
    const char *error = 0;
    struct cpu_frame *f = frame_of(dbg.stop_cpu, own);
    bool here = dbg.stopped_on_event && f && f->pc == dbg.stop_pc;

    size_unit();
    debug_last_stop.valid = false; /* it is history once the kernel runs */
    dbg.stopped_on_event = false;
    if (!dbg.nbp)
        return;
    if (dbg.stepping) {
        if (!dbg.step_pending)
            return; /* a FIQ came before the stepped instruction ran: the step stays armed */
        step_end();
    }
    if (dbg.step_pending) {
        struct cpu_frame *s = frame_of(dbg.step_request_cpu, own);
        dbg.step_pending = false;
        if (s)
            step_arm(s, dbg.step_request_cpu, true,
                     here && dbg.step_request_cpu == dbg.stop_cpu && debug_last_stop.watch,
                     &error);
    } else if (here && (find_bp(pc_addr(f)) >= 0 || find_soft(f->pc) >= 0 ||
                        debug_last_stop.watch)) {
        step_arm(f, dbg.stop_cpu, false, debug_last_stop.watch, &error); /* over what stopped it */
    }
    /* (a step that cannot be armed leaves everything as it was: the same stop again) */
}

static bool is_bkpt(const struct cpu_frame *f)
{
    uint32_t v;

    if (f->cpsr & ARM_PSR_T)
        return read_text(f->pc & ~1u, 2, &v) && (v & 0xff00u) == 0xbe00u;
    return read_text(f->pc & ~3u, 4, &v) && (v & 0x0ff000f0u) == 0x01200070u;
}

static enum debug_verdict stop(const struct cpu_frame *f, unsigned cpu, struct debug_stop s)
{
    s.valid = true;
    debug_last_stop = s;
    dbg.stopped_on_event = true;
    dbg.stop_cpu = (uint8_t)cpu;
    dbg.stop_pc = f->pc;
    return DEBUG_STOP;
}

enum debug_verdict debug_event(struct cpu_frame *f, unsigned cpu, enum debug_event_kind kind,
                               uint32_t data_addr)
{
    /* (another CPU's step does not end here: its registers are only on its unit) */
    bool was_stepping = dbg.stepping && dbg.step_cpu == cpu, user = dbg.user_step;
    uint32_t vector_hit = 0;
    int n;

    size_unit();
    if (was_stepping) {
        vector_hit = dbg.step_vectors != 0 && kind == DEBUG_EVENT_BREAKPOINT;
        step_end();
    }
    if (kind == DEBUG_EVENT_WATCHPOINT) {
        int hit = -1, only = -1, enabled = 0;
        for (unsigned i = 0; i < dbg.nwp; i++) {
            if (!dbg.wp[i].used)
                continue;
            enabled++;
            only = (int)i;
            if (data_addr >= dbg.wp[i].addr && data_addr < dbg.wp[i].addr + dbg.wp[i].len)
                hit = (int)i;
        }
        if (hit < 0 && enabled == 1)
            hit = only; /* the CPU need not say which address it was */
        if (hit < 0)
            return DEBUG_RESUME; /* none of fiqmon's: stale (just cleared) */
        return stop(f, cpu, (struct debug_stop){.watch = true, .kind = dbg.wp[hit].kind,
                                           .number = (uint8_t)(hit + 1),
                                           .addr = dbg.wp[hit].addr});
    }
    n = find_bp(pc_addr(f));
    if (was_stepping) {
        if (user) {
            uint32_t base = port_debug_vectors();
            uint32_t pc = f->pc & ~1u;
            if (vector_hit && (pc == base + NEXT_PC_SVC || pc == base + NEXT_PC_UNDEF))
                vector_hit = pc - base;
            else
                vector_hit = 0;
            return stop(f, cpu, (struct debug_stop){.step = true, .number = (uint8_t)(n + 1),
                                               .vector = vector_hit});
        }
        if (n >= 0)
            return stop(f, cpu, (struct debug_stop){.number = (uint8_t)(n + 1)});
        if (find_soft(f->pc) >= 0) /* (the step's register fired before the BKPT ran) */
            return stop(f, cpu, (struct debug_stop){.soft = true});
        return DEBUG_RESUME; /* the step over a breakpoint is done: run on */
    }
    if (n >= 0)
        return stop(f, cpu, (struct debug_stop){.number = (uint8_t)(n + 1)});
    if (find_soft(f->pc) >= 0)
        return stop(f, cpu, (struct debug_stop){.soft = true});
    if (is_bkpt(f))
        return DEBUG_REFLECT; /* the kernel's own BKPT: as if fiqmon were not there */
    return DEBUG_RESUME; /* a breakpoint just cleared (another CPU's stale hit) */
}
