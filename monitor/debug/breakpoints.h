/* SPDX-License-Identifier: MIT */
/* Hardware breakpoints, watchpoints and single steps on the kernel (docs/breakpoints.md).
 * The CPU's debug unit does the matching (the port programs it); its debug exceptions
 * reach fiqmon through the Hyp shim, never the kernel. This file keeps the table, decides
 * what each debug event means, and arms a step over the instruction at a breakpoint when
 * the kernel resumes there (QEMU has no address-mismatch breakpoint: a step is a
 * breakpoint on every instruction that can come next, next_pc.h). */
#ifndef FIQMON_BREAKPOINTS_H
#define FIQMON_BREAKPOINTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpu_frame.h"

#define DEBUG_SLOTS_MAX 16
#define DEBUG_SOFT_MAX 32 /* software breakpoints */
/* fiqmon's BKPT (#0xf1): told apart from the kernel's own (BUG() and kgdb use UDF) */
#define DEBUG_BKPT_ARM 0xe1200f71u
#define DEBUG_BKPT_THUMB 0xbef1u

enum watch_kind {
    WATCH_WRITE = 1,
    WATCH_READ = 2,
    WATCH_ACCESS = 3,
};

/* What the CPU stopped for (the Hyp shim's report). */
enum debug_event_kind {
    DEBUG_EVENT_BREAKPOINT, /* a breakpoint or BKPT instruction at the pc */
    DEBUG_EVENT_WATCHPOINT, /* data_addr: the access (if the CPU says) */
};

enum debug_verdict {
    DEBUG_RESUME,  /* fiqmon's, and nothing to show (a step over ended): run on */
    DEBUG_STOP,    /* stop: the monitor is entered with the stop line / GDB's stop reply */
    DEBUG_REFLECT, /* not fiqmon's (the kernel's own BKPT): the kernel takes it */
};

/* The last stop, for GDB's stop reply and the shell's line. */
struct debug_stop {
    bool valid;
    bool step;         /* a single step ended */
    bool watch;        /* a watchpoint: kind and addr below */
    bool soft;         /* a software breakpoint (GDB's Z0) */
    uint8_t kind;      /* enum watch_kind */
    uint8_t number;    /* breakpoint or watchpoint number (1-based) */
    uint32_t addr;     /* the watched address */
    uint32_t vector;   /* the step entered this exception vector (0: none) */
};

extern struct debug_stop debug_last_stop;

/* Forget everything (monitor_init; the registers are assumed off, as after a reset). */
void debug_reset(void);

/* The debug unit's size: 0 breakpoints when this build or CPU has no debug traps. */
unsigned debug_breakpoint_slots(void);
unsigned debug_watchpoint_slots(void);

/* Who set a breakpoint: GDB's go when its session is over (detach, kill, or the shell's
 * exit after GDB left it); the shell's stay until bc. */
enum debug_owner {
    DEBUG_BY_SHELL,
    DEBUG_BY_GDB,
};

/* addr: bit 0 set for a Thumb instruction. Returns the number (1-based) or a negative
 * errno-like code: -1 no free slot, -2 no debug unit, -3 already set there, -5 the address
 * does not read (not mapped), -6 the kernel's tables map it not executable (data). */
int debug_break_set(uint32_t addr, enum debug_owner owner);
bool debug_break_clear(uint32_t addr);         /* by address */
bool debug_break_clear_number(unsigned number); /* by number */
/* A watchpoint on len (1, 2, 4) bytes at addr within one word: its number (1-based), or
 * -1 none free, -2 no debug unit, -3 already set, -4 a shape the unit cannot watch. */
int debug_watch_set(uint32_t addr, uint32_t len, enum watch_kind kind, enum debug_owner owner);
bool debug_watch_clear_number(unsigned number);
bool debug_watch_clear(uint32_t addr, uint32_t len, enum watch_kind kind);
/* Every breakpoint and watchpoint off (bc *). */
void debug_clear_all(void);
/* What GDB set off: its breakpoints of both kinds and the watchpoints (its detach and kill;
 * the shell's exit once GDB is gone, so none is left armed with nobody to answer it). */
void debug_clear_gdb(void);

/* Software breakpoints (GDB's Z0): fiqmon's BKPT written into the kernel's text through
 * its own mapping (port_mem_write, read back), the caches made to agree; the original
 * instruction goes back on removal, on debug_clear_all, and while the kernel runs it in a
 * step over it. addr: bit 0 for Thumb (a 16-bit BKPT; in a 32-bit Thumb instruction its
 * first halfword). Returns the slot (1-based) or -1 full, -2 no debug unit (the step over
 * needs it), -3 already set, -4 misaligned or already fiqmon's BKPT, -5 not writable
 * memory, -6 not executable (data: the BKPT would corrupt it). Reads through read_text-style decoding see the original instruction. */
int debug_soft_set(uint32_t addr);
bool debug_soft_clear(uint32_t addr);
unsigned debug_soft_count(void);

/* Breakpoint n (1-based): false if unused. */
bool debug_break_get(unsigned n, uint32_t *addr);
/* Software breakpoint n (1-based, up to DEBUG_SOFT_MAX): false if unused. */
bool debug_soft_get(unsigned n, uint32_t *addr);
bool debug_watch_get(unsigned n, uint32_t *addr, uint32_t *len, enum watch_kind *kind);
/* Who set breakpoint or watchpoint n (1-based, in use). */
enum debug_owner debug_break_owner(unsigned n);
enum debug_owner debug_watch_owner(unsigned n);

/* CPU cpu, whose context is f (NULL: not stopped), runs one instruction when it next
 * resumes, then stops ("step"). False (nothing armed) if f is NULL, the instruction at the
 * pc cannot be decoded, no slot is free, or another CPU's step has not run yet; why in
 * *error. */
bool debug_step_request(struct cpu_frame *f, unsigned cpu, const char **error);

/* A debug event on CPU cpu, whose context is f (the monitor's CPU decides for every CPU;
 * a step's registers are programmed on the stepping CPU's unit: port_debug_step_*). */
enum debug_verdict debug_event(struct cpu_frame *f, unsigned cpu, enum debug_event_kind kind,
                               uint32_t data_addr);

/* The kernel resumes (own: CPU 0's context; the others' come from port_cpu): arm the
 * requested step, or a step over the breakpoint that stopped a CPU, on that CPU. Called
 * before the other CPUs are released. */
void debug_resuming(struct cpu_frame *own);

#endif
