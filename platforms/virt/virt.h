/* SPDX-License-Identifier: MIT */
/* Shared between the virt platform's files. */
#ifndef FIQMON_VIRT_H
#define FIQMON_VIRT_H

#include <stdbool.h>
#include <stdint.h>

#define FIQ_COUNTED_LINES 64u /* per-INTID FIQ counts for SGIs, PPIs and the first SPIs */
/* FIQs fiqmon took with this INTID (< FIQ_COUNTED_LINES). */
uint32_t gic_fiq_count(unsigned id);

/* The watchdog's timer FIQ, on the CPU that took it: re-arm it and take a sample of this
 * CPU. True when a report naming this CPU is due. */
int virt_watchdog_tick(void);
/* Another CPU: its Secure timer on or off as the watchdog's setting says (off when the
 * CPU is not online). */
void virt_watchdog_follow(bool online);

/* The Normal world's CP15 state, read when the monitor is entered. */
struct ns_sysregs {
    uint32_t sctlr, ttbr0, ttbr1, ttbcr, dacr, contextidr, dfsr, dfar, ifsr, ifar, vbar;
};
extern struct ns_sysregs ns_sysregs;
/* Reads this CPU's Normal-world bank into r (from Monitor mode). */
void virt_read_ns_sysregs(struct ns_sysregs *r);
/* CPU n's, as of its last roundup or sample (CPU 0's: ns_sysregs; SMP > 1, smp.c). */
const struct ns_sysregs *virt_cpu_sysregs(unsigned n);

/* The Hyp shim (HYP=1, hyp_install.c): installed before any hand-off, if the CPU has the
 * Virtualization Extensions. */
struct hyp_stats;
struct pl011_access_counts;
struct spinlock;
struct cpu_frame;
bool virt_hyp_install(void);
/* This CPU's Hyp registers armed with the installed shim (a no-op without one). */
void virt_hyp_arm_cpu(unsigned cpu);
extern bool virt_hyp_installed;
void virt_hyp_stats(struct hyp_stats *out);
/* One CPU's own (each CPU's shim counts what it trapped). */
void virt_hyp_cpu_stats(unsigned cpu, struct hyp_stats *out);
void virt_hyp_stats_reset(void);
/* The shim's accesses to the emulated page, by register, as fiqmon took them (fiq.c). */
extern struct pl011_access_counts virt_console_counts;
/* Held for each access to the kernel's console and by the one wire's CPU 0 side. */
extern struct spinlock virt_console_lock;
/* One wire: the model's reset state (console_shared.c); bytes the kernel wrote that wait. */
void virt_console_init(void);
/* CPU 0 entering (true) and leaving its full FIQ path: who owns the wire. */
void virt_console_monitor(bool entered);
uint32_t virt_console_backlog(void);
/* Bytes the kernel wrote to the model's full transmitter (lost, as on a real PL011). */
uint32_t virt_console_tx_lost(void);
/* The wire waits for the kernel to read (its receive interrupt masked); the hold timer's
 * FIQ ends the wait or a held knock candidate's quiet time. */
extern bool virt_console_throttled;
void virt_console_deadline(void);
/* The most mon_rx may hold after the wire's drain (one wire). */
uint32_t virt_console_rx_cap(void);
/* An access to the emulated page, from the shim's SMC (console_*.c). */
uint32_t virt_emulated_access(bool write, uint32_t offset, unsigned width, uint32_t value);

/* Every core (SMP > 1, smp.c): this CPU's index (MPIDR affinity 0); PSCI and the others'
 * start, on CPU 0 in platform_init; a FIQ on another CPU; a PSCI call (psci_is_call). */
unsigned virt_cpu_index(void);
/* A debug event the Hyp shim handed over (HYP=1, debug_stop.c): hyp_abi.h's
 * HYP_SMC_DEBUG_EVENT arguments. */
uint32_t virt_debug_event(uint32_t kind, uint32_t addr, uint32_t shim_regs);
/* This CPU's debug unit as the table says (debug_unit.c), before it runs the kernel again:
 * a CPU other than the monitor's applies the breakpoints set while it was stopped or ran. */
void virt_debug_sync(void);
/* Another CPU's debug event (HYP=1, SMP > 1; kind: enum debug_event_kind): CPU 0 decides
 * for it (and may open the session on it) while it waits with its context in f; returns
 * the verdict (enum debug_verdict). */
int virt_smp_debug_event(unsigned cpu, struct cpu_frame *f, unsigned kind, uint32_t addr);
/* Another CPU's debug event waits for CPU 0 (the full FIQ path serves it). */
bool virt_smp_debug_due(void);
/* The other online CPUs take a FIQ now unless held (debug_unit.c: a new table). */
void virt_smp_kick(void);
void virt_smp_init(void);
int virt_smp_fiq(uint32_t iar);
uint32_t virt_smp_smc(uint32_t fid, uint32_t a1, uint32_t a2, uint32_t a3);

#endif
