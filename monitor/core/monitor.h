/* SPDX-License-Identifier: MIT */
/* The monitor session: what happens to each received byte, in FIQ context.
 *
 *            knock, service call, watchdog (halt)
 *   WAITING -----------------------------------> ENTERING --announce--> ACTIVE (shell)
 *    ^  ^ ^   GDB's opening packet                                      |  |  |
 *    |  | |   --------------------------------> GDB <----- gdb ---------+  |  |
 *    |  | +------- detach, kill -------------------+---- $3#33 (halted) --->+  |
 *    |  +--------- exit, boot, go ------------------------------------------+  |
 *    |                                                                release  v
 *    +--------------------------- re-arm service call -------------------- RELEASED
 *
 * ACTIVE: the kernel runs between keystrokes unless halted (halt, a watchdog report with
 * `watchdog halt`, $3#33 from GDB). GDB: stopped, or running after `c` until 0x03.
 * RELEASED: the debug UART belongs to the kernel (versatilepb only).
 *
 * Plain noise while waiting is dropped by the platform's noise path, in assembly, without
 * calling C (noise_gate.h). Any other FIQ: the entry code calls monitor_fiq_fast() with
 * only caller-saved registers stacked; when it returns nonzero the entry code saves the
 * full context and calls monitor_fiq_full(). Both leave the noise gate as it should be. */
#ifndef FIQMON_MONITOR_H
#define FIQMON_MONITOR_H

#include <stdbool.h>
#include <stdint.h>

#include "command.h"
#include "cpu_frame.h"
#include "monitor_features.h"
#include "knock.h"
#include "ring.h"

/* Received bytes; the platform's UART drain is the only producer. */
extern struct ring mon_rx;

/* The knock detector. Plain noise while it waits never reaches C: the platform's noise
 * path drops it while the noise gate is open (noise_gate.h); every other FIQ queues what
 * the debug port holds in mon_rx and calls monitor_fiq_fast(). */
extern struct knock mon_knock;

struct monitor_stats {
    uint32_t commands;  /* command lines run */
    uint32_t rx_errors; /* bytes the UART flagged (framing, parity, break, overrun) */
    uint32_t roundups;  /* times the other CPUs were stopped (hold_cpus) */
};
extern struct monitor_stats mon_stats;

enum monitor_state {
    MON_WAITING,  /* for a knock */
    MON_ENTERING, /* knock seen: the full path announces the session */
    MON_ACTIVE,   /* shell running (the kernel runs between keystrokes unless halted) */
    MON_RELEASED, /* the debug UART belongs to the kernel until a re-arm service call */
    MON_GDB,      /* a GDB session owns the port (the CPU is stopped unless GDB said c) */
};

/* Why the monitor was entered: the stop reason reported to the user (and to GDB). */
enum monitor_reason {
    REASON_KNOCK,    /* knock on the debug port */
    REASON_FIQ,      /* any FIQ (knock mode -1, an NMI button) */
    REASON_BOOT,     /* the knock during the boot countdown */
    REASON_SERVICE,  /* the kernel asked (FIQMON_SVC_ENTER) */
    REASON_GDB,      /* GDB's first packet arrived while waiting for a knock */
    REASON_WATCHDOG, /* the hard-lockup watchdog fired */
    REASON_DEBUG,    /* a breakpoint, watchpoint or step (the debug unit, monitor/debug/) */
};

/* features: what this build has (monitor_features.h); kept, not copied. */
void monitor_init(int knock_mode, const struct monitor_features *features);
/* doorbell: the FIQ came from the debug port's line (in knock mode -1 any such FIQ enters,
 * even without a byte); service FIQs and other sources pass false. */
int monitor_fiq_fast(bool doorbell);
void monitor_fiq_full(struct cpu_frame *frame);

/* A kernel service request (service.h), from the FIQ fast path. Returns the response;
 * *need_full is set when the full path must run (e.g. to announce an entry). */
uint32_t monitor_service(uint32_t request, int *need_full);
/* Make the next full path announce a session, as if knocked (used by the boot delay). */
void monitor_request_entry(enum monitor_reason reason);
/* Make the next full path boot the payload (the end of the boot delay). */
void monitor_request_boot(void);
/* The boot countdown (countdown.c): feed what the port received to the knock detector,
 * without prompts. 1 once a knock (entry requested, the payload held back) or GDB's
 * opener (the payload boots, stopped at its first instruction) ended the countdown. */
int monitor_countdown_input(void);
/* fiqmon handed the CPU to a kernel: boot_enter() says so, for every path. */
void monitor_booted(void);
/* A knock stopped the countdown and nothing has booted since: exit boots the payload. */
bool monitor_boot_held(void);
/* Whether any kernel was started (otherwise fiqmon's idle loop has the CPU). */
bool monitor_kernel_started(void);
/* Make the next full path print a hard-lockup report (the watchdog fired). */
void monitor_request_lockup_report(void);
/* From a full path that found no session (the watchdog's report): keep the kernel
 * stopped in the shell with this stop reason. false if a session is already on. */
bool monitor_stop_for(enum monitor_reason reason);

/* One wire (platform->console_shared): the quiet time after a held knock candidate is
 * over: its bytes go to the kernel after all (a lone '$'). From the FIQ fast path; 0. */
int monitor_console_quiet(void);
/* One wire: the wire brought a BREAK (after every byte before it was consumed): while
 * fiqmon waits it is the kernel's (its magic SysRq), in order with the bytes. */
void monitor_console_break(void);
/* Bytes for the kernel that its receiver had no room for. */
uint32_t monitor_console_lost(void);

/* The FIQ's C path takes one byte per FIQ (the rest wait in the UART for the next FIQ). */
bool monitor_rx_byte_at_a_time(void);

/* For commands. */
enum monitor_state monitor_state(void);
struct cpu_frame *monitor_frame(void);
/* Every core: the CPU whose context monitor_frame() is (0: the one the monitor runs on).
 * Selecting another halts the kernel on every CPU first (its context is saved only while
 * it is stopped); continue and exit go back to CPU 0. */
int monitor_select_cpu(unsigned n);
unsigned monitor_cpu(void);
/* Show CPU n's context f without a roundup (a CPU stopped on its own for a lockup report);
 * the caller puts the one before back. */
void monitor_view_cpu(unsigned n, struct cpu_frame *f);
void monitor_leave(void);
/* The shell's `gdb`: the port speaks the GDB remote protocol until detach. */
void monitor_start_gdb(void);
const char *monitor_reason_name(void);
/* halt: keep the CPU inside the FIQ handler until continue. */
int monitor_halt(void);
int monitor_continue(void);
/* continue without its line: `ss` resumes the kernel for one instruction. */
int monitor_step_resume(void);
/* The debug unit stopped CPU cpu (a breakpoint, watchpoint or step) in the context frame;
 * the monitor runs on CPU 0, whose context is own (== frame when cpu is 0). A running GDB
 * session gets its stop reply naming that CPU's thread, otherwise the shell opens, halted,
 * on that CPU, with the stop line (monitor_features.stop_line). Returns when the kernel
 * may run. */
void monitor_debug_stop(struct cpu_frame *own, unsigned cpu, struct cpu_frame *frame);
bool monitor_halted(void);
/* Give the debug UART to the kernel (the seed's disable_nmi); -1 (error printed) if the
 * platform cannot. */
int monitor_release(void);
/* What a knock does: open the shell beside the running kernel (false, the default, Android's
 * FIQ debugger) or halt every CPU at once (true, kdb's way). */
bool monitor_entry_halts(void);
void monitor_set_entry_halts(bool halts);
int monitor_knock_mode(void);
void monitor_set_knock_mode(int mode);
uint32_t monitor_noise_bytes(void);
uint32_t monitor_rx_bytes(void);
/* Mask of CMD_* flags that commands may have right now (the features' policy). */
uint32_t monitor_permissions(void);
/* Runs one command line with the build's tables and today's permissions less forbidden. */
enum command_result monitor_execute(char *line, uint32_t forbidden);

#endif
