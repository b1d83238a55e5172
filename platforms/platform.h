/* SPDX-License-Identifier: MIT */
/* The porting contract: everything a platform gives fiqmon, in the order a porter meets
 * it. Implemented by platforms/<name>/ (with helpers from platforms/common/) on the target
 * and by tests/unit/fake_port.c on the host. docs/porting.md walks through a new port.
 *
 *   1. Facts         one const description (struct platform_desc): names, memory map
 *   2. Boot          platform_init, polled output, the service FIQ, the boot-time timer
 *   3. FIQ hot path  platform_fiq_fast and the monitor window around the full path
 *   4. Debug port    output, polling, claim/release
 *   5. Memory        fault-safe access on a user's behalf, address spaces, secrets
 *   6. Interrupts    the controller's lines, for `irqs`
 *   7. Optional      watchdog timer, platform commands, reset; see each for its default
 *   8. Every core    the other CPUs: roundup, release, samples (one CPU: cpus_single.c)
 *
 * Everything here is portable C: no register names, no addresses but the memory map. */
#ifndef FIQMON_PLATFORM_H
#define FIQMON_PLATFORM_H

#include <stdbool.h>
#include <stdint.h>

#include "target.h"

/* --- 1. Facts ------------------------------------------------------------------------ */

/* Where the kernel goes and what it is told (the hand-off, monitor/handoff/). */
struct boot_target {
    uint32_t ram_base, ram_size;           /* all RAM */
    uint32_t reserved_base, reserved_size; /* fiqmon's resident region */
    uint32_t machine_id;                   /* Linux machine type for r1 */
    uint32_t atags_addr;                   /* where the ATAG list goes */
    uint32_t dtb_addr, dtb_max;            /* where the device tree goes, and its room */
    uint32_t payload_addr;                 /* where a payload header may be; 0: none */
    uint32_t entry_cpsr;                   /* cpsr at kernel entry */
    uint32_t entry_world;                  /* FRAME_WORLD_*: the kernel's world */
    uint32_t kernel_addr;                  /* a zImage may already be here (0: none) */
    bool dtb_in_place;                     /* firmware left a DTB at dtb_addr (virt) */
    /* one wire: the node of the console UART the platform emulates, and the SPI its model
     * raises, written into the kernel's device tree (NULL: none) */
    const char *console_irq_node;
    uint32_t console_irq_spi;
};

struct platform_desc {
    const char *name;           /* "versatilepb": banner, version */
    const char *cpu;            /* "arm926ej-s" */
    const char *debug_uart;     /* "uart0": the debug port's name on the board */
    const char *irq_controller; /* "pl190 vic" */
    /* the kernel timer interrupt the hard-lockup watchdog watches; NULL: no watchdog */
    const char *watchdog_signal;
    uint32_t resident_base;     /* fiqmon's resident home */
    uint32_t boot_delay_ms;     /* the countdown before a payload boots (0: none) */
    bool has_monitor_mode;      /* Security Extensions: frames carry a Monitor bank */
    bool debug_uart_releasable; /* false when the kernel can never own it (Secure UART) */
    bool console_shared;        /* one wire: the debug port also carries the kernel's
                                 * console (port_console_*, docs/one-wire.md) */
    unsigned cpus;              /* CPUs the board starts (0 or 1: one; more: fiqmon is
                                 * their PSCI firmware and tells the kernel's device tree) */
    struct boot_target boot;    /* payload_addr is filled by port_boot_target() */
};

/* The one description (the host fake's can change between tests). */
extern const struct platform_desc *const platform;

/* The boot target with payload_addr worked out from where fiqmon was loaded
 * (platforms/common/boot_target.c). */
const struct boot_target *port_boot_target(void);

/* --- 2. Boot ------------------------------------------------------------------------- */

/* Bring up the debug UART and the interrupt controller with the debug UART's receive
 * interrupt routed to FIQ. Polled output works when it returns. */
void platform_init(void);

/* Polled output for reports made outside the monitor (banner, fatal exceptions). */
void platform_early_puts(const char *s);

/* Raise the service FIQ (the kernel's service call, also used by fiqmon itself to get
 * into FIQ context at the end of boot). */
void platform_raise_service_fiq(void);

/* A free-running counter (any rate, wrapping at 32 bits) and its rate. The shared delay
 * and key-wait loops and the nonce entropy are built on them (platforms/common/time.c). */
uint32_t platform_ticks(void);
uint32_t platform_ticks_per_ms(void);

/* Busy-wait ms milliseconds (the unlock back-off), in FIQ context. */
void port_delay_ms(uint32_t ms);
/* Milliseconds from a free-running clock (wrapping): the boot countdown's time base,
 * read at least once a minute while it is in use. */
uint32_t port_clock_ms(void);
/* The timer's current count: entropy fiqmon mixes into its unlock nonces. */
uint32_t port_entropy(void);

/* --- 3. FIQ hot path ----------------------------------------------------------------- */

/* The FIQ vector goes to the platform's noise path (fiq_noise.S, assembly), which
 * finishes alone a FIQ whose bytes are all plain noise while the noise gate is open
 * (noise_gate.h): every noise byte runs it, and docs/benchmarks.md counts its
 * instructions. Every other FIQ comes here through the FIQ entry code, with only
 * caller-saved registers stacked: source is what the noise path read from the interrupt
 * controller (platform-defined; acknowledged where the controller needs it), first the
 * value it read from the debug UART and did not drop (PL011_NO_BYTE: none). Handle the
 * source, drain the debug UART into mon_rx after first, and return what
 * monitor_fiq_fast() returns (nonzero: save the full context and run the monitor). */
int platform_fiq_fast(uint32_t source, uint32_t first);

/* Called by the FIQ entry code around monitor_fiq_full(): make memory access on a user's
 * behalf safe (catch aborts) and undo every change on the way out. */
void platform_monitor_enter(void);
void platform_monitor_exit(void);

/* FIQs fiqmon has taken since reset, all sources. */
uint32_t port_fiqs_taken(void);

/* --- 4. Debug port ------------------------------------------------------------------- */

/* Output, polled. While it waits for FIFO space it keeps receiving into the monitor's
 * ring, so a long answer does not overrun the receiver. */
void port_putc(uint8_t c);

/* Move whatever the debug port has received into the monitor's ring (halted loops). */
void port_rx_poll(void);

/* Route the debug UART's receive interrupt to fiqmon (FIQ) or give it back to the kernel
 * (only where platform->debug_uart_releasable). */
void port_debug_uart_claim(bool claim);

/* One wire (platform->console_shared): the debug port is also the kernel's console,
 * which the platform emulates. While fiqmon waits for a knock, every byte it receives is
 * the kernel's except a knock; while a session is open the kernel's output waits. */
/* A byte for the kernel's console (brk: a BREAK condition instead, c ignored). false if
 * the kernel's receiver has no room (nothing changed). */
bool port_console_rx(uint8_t c, bool brk);
/* A knock candidate is held back (on) or not: after a short quiet time with on, the
 * platform calls monitor_console_quiet() so a lone '$' still reaches the kernel. */
void port_console_hold(bool on);
/* The session is over: send what the kernel wrote meanwhile, in order. */
void port_console_replay(void);

/* --- 5. Memory ----------------------------------------------------------------------- */

/* Fault-safe access to the interrupted system's memory on a user's behalf (addresses as
 * wide as the target: target.h).
 * width is 1, 2 or 4. Returns false, with nothing changed, if the access faulted. */
bool port_mem_read(target_addr_t addr, unsigned width, uint32_t *value);
bool port_mem_write(target_addr_t addr, unsigned width, uint32_t value);

/* Is addr (in the current space) plain memory, where a read has no side effects: RAM,
 * ROM, flash, as opposed to a device register? mw reads only such memory back. */
bool port_mem_is_memory(target_addr_t addr);

/* NULL when port_mem_read/write are fault-safe now; otherwise why not (e.g. the kernel
 * moved the vectors where fiqmon cannot catch an abort). The monitor refuses memory
 * commands with that reason rather than risk a fault it cannot catch. */
const char *port_mem_unavailable(void);

/* What addresses port_mem_read/write take from now on. Every monitor entry starts with
 * PORT_MEM_VIRTUAL. */
enum port_mem_space {
    PORT_MEM_VIRTUAL,  /* the interrupted context's virtual addresses (md, mw, GDB) */
    PORT_MEM_PHYSICAL, /* physical addresses on a user's behalf (md -p) */
    PORT_MEM_FIQMON,   /* physical, for fiqmon itself (reading its payload from flash) */
};
void port_mem_space(enum port_mem_space space);

/* Memory no command may show or change: fiqmon's own (and, on TrustZone parts, everything
 * Secure). pa is physical. */
bool port_mem_secret(target_addr_t pa, unsigned len);

/* --- 6. Interrupts ------------------------------------------------------------------- */

struct port_irq_line {
    const char *name; /* who owns the line, or NULL */
    bool raw;         /* asserted */
    bool enabled;
    bool to_fiq;      /* routed to FIQ (PL190 INTSELECT, GIC group 0) */
    uint32_t fiqs;    /* FIQs fiqmon took from this line */
};
unsigned port_irq_lines(void);
void port_irq_line(unsigned line, struct port_irq_line *out);

/* --- 7. Optional, and services every platform gets from platforms/common/ --------------- */

/* The hard-lockup watchdog's sampling FIQ: start or stop it. Only called when
 * platform->watchdog_signal is set (and the build has the watchdog). */
void port_watchdog_arm(bool on);
/* The kernel is held (halted shell, GDB): acknowledge the sampling timer without taking a
 * sample, so its line is not left asserted while nothing is watched (a no-op without a
 * watchdog). */
void port_watchdog_held(void);

/* AArch64: the interrupted CPU's system registers that `allregs` shows (SCTLR_EL1, TCR_EL1,
 * TTBR0/1_EL1, ESR_EL1, FAR_EL1, VBAR_EL1, ...), read now: up to max into out; returns how
 * many. AArch32 platforms show theirs with a platform command (virt: cp15). */
struct port_sysreg {
    const char *name;
    uint64_t value;
};
unsigned port_sysregs(struct port_sysreg *out, unsigned max);

/* Whole-system reset, after the debug port's last bytes have left (the shared
 * port_reboot() drains the port, then calls this). */
void platform_reset(void) __attribute__((noreturn));
void port_reboot(void) __attribute__((noreturn));

/* The GNU build-id note's descriptor (a hash of the image), or len 0 (build_id.c). */
const uint8_t *port_build_id(unsigned *len);
/* The monitor's stack: paint it at boot, then how many bytes the deepest use took (all
 * of *size, the stack's size, if it ever overflowed: a fault-free overflow is silent). */
void port_monitor_stack_paint(void);
uint32_t port_monitor_stack_used(uint32_t *size);
/* CRC-32 of fiqmon's resident code and constants, read now (tamper check). */
uint32_t port_self_crc(void);

/* --- 8. Every core ------------------------------------------------------------------- */

/* CPU 0 runs the monitor; the others (platform->cpus > 1) are stopped by a FIQ fiqmon sends
 * them (the Normal world cannot mask it) while the monitor holds CPU 0, and sampled by one
 * that does not stop them. */
struct cpu_frame;
struct port_cpu {
    bool online;             /* the kernel's to run (PSCI: on) */
    bool stopped;            /* held by the roundup: frame is its context */
    target_addr_t pc;        /* at its last roundup or sample */
    uint32_t cpsr;           /* (AArch64: PSTATE, as SPSR_EL3 holds it) */
    struct cpu_frame *frame; /* while stopped (NULL otherwise) */
    uint32_t fiqs;           /* FIQs fiqmon took on it */
    /* its private (banked) lines, a bit each (GIC: SGIs and PPIs, INTIDs 0-31), as of its
     * last roundup or sample: routed to FIQ, enabled, pending */
    uint32_t private_fiq, private_enabled, private_pending;
};
/* Stop every other online CPU (hold), or let them all go. Returns the CPUs (a bit each)
 * that did not answer within a bound: they run on. Holding twice is holding once. */
uint32_t port_cpus_hold(bool hold);
/* Every other online CPU records where it is and runs on; returns those that did not
 * answer. */
uint32_t port_cpus_sample(void);
/* CPU n (< platform->cpus) as last seen; CPU 0 is the monitor's, interrupted. */
void port_cpu(unsigned n, struct port_cpu *out);

/* --- 9. The debug unit --------------------------------------------------------------- */

/* The CPU's breakpoint and watchpoint registers, usable only where the kernel's debug
 * exceptions come to fiqmon (virt with the Hyp shim, HYP=1); 0 and 0 elsewhere
 * (platforms/common/debug_none.c). The monitor keeps the table (monitor/debug/). */
void port_debug_slots(unsigned *breakpoints, unsigned *watchpoints);
/* Breakpoint n on the Normal world's PL0/PL1 instruction at addr (bit 0: Thumb), or off:
 * the table, on every CPU (the calling one at once, the others before they next run the
 * kernel). */
void port_debug_breakpoint(unsigned n, uint32_t addr, bool on);
/* Watchpoint n on len (1, 2, 4) bytes at addr, within one word; kind: 1 store, 2 load, 3
 * both; or off. Every CPU, like port_debug_breakpoint. */
void port_debug_watchpoint(unsigned n, uint32_t addr, uint32_t len, unsigned kind, bool on);
/* A step on CPU cpu only: its breakpoint n at addr or off, or all its watchpoints off,
 * over the table until port_debug_step_end(cpu) puts its registers back to the table. A
 * CPU other than the calling one is stopped: it takes the change before it resumes. */
void port_debug_step_breakpoint(unsigned cpu, unsigned n, uint32_t addr, bool on);
void port_debug_step_watchpoints_off(unsigned cpu);
void port_debug_step_end(unsigned cpu);
/* The kernel's exception vector base (its VBAR, or 0xffff0000 with high vectors). */
uint32_t port_debug_vectors(void);
/* Memory and the caches agree on the kernel's instruction at addr (a virtual address of
 * the interrupted context): called before its text is read and after port_mem_write
 * rewrote it (a software breakpoint), so every CPU fetches what memory now holds. */
void port_debug_code_sync(uint32_t addr);
/* The kernel is Thumb-2 code: it takes its exceptions in Thumb state (SCTLR.TE). */
bool port_debug_kernel_thumb(void);
/* The kernel's translation registers (the selected CPU's TTBR0, TTBR1, TTBCR), to tell its
 * text from its data; false when its MMU is off (every address is physical and runs). */
bool port_debug_translation(uint32_t *ttbr0, uint32_t *ttbr1, uint32_t *ttbcr);

/* Platform commands: `platform_commands` (command.h), a NULL-name terminated table that
 * may hold just the terminator. */

#endif
