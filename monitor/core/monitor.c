/* SPDX-License-Identifier: MIT */
#include "monitor.h"

#include "build_options.h"
#include "command.h"
#include "console.h"
#include "monitor_features.h"
#include "knock.h"
#include "line_editor.h"
#include "noise_gate.h"
#include "platform.h"
#include "sections.h"
#include "service.h"

#include <string.h>

#define PROMPT "fiqmon> "

FIQMON_BUFFER("mon_rx") struct ring mon_rx;
struct monitor_stats mon_stats;
FIQMON_BUFFER("mon_knock") struct knock mon_knock;
struct noise_gate noise_gate;

static void set_state(enum monitor_state state);

static FIQMON_BUFFER("mon") struct {
    enum monitor_state state;
    enum monitor_reason reason;
    bool halted;
    bool boot_pending; /* boot the payload at the next full path (end of the boot delay) */
    bool boot_held;    /* a knock stopped the boot countdown: the payload waits for exit/boot */
    bool kernel_started; /* fiqmon handed the CPU to a kernel (else its idle loop runs) */
    bool lockup_pending; /* print a watchdog report at the next full path */
    bool replay_due;     /* one wire: the kernel's output waits for the session's end */
    struct line_editor line;
    struct cpu_frame *frame; /* valid only inside monitor_fiq_full: the selected CPU's */
    struct cpu_frame *own_frame; /* CPU 0's, the one the monitor interrupted */
    unsigned cpu;                /* the selected CPU (`cpu N`) */
    bool cpus_held;              /* the other CPUs are stopped (port_cpus_hold) */
    bool entry_halts;            /* a knock halts every CPU (`entry halt`, kdb's way) */
    const struct monitor_features *features;
    uint32_t history_permissions; /* what was allowed while the history was typed */
} mon;

/* One wire (docs/one-wire.md): only builds that can have it carry its code. */
static inline bool one_wire(void)
{
    return FIQMON_CONSOLE_SHARED && platform->console_shared;
}

static void set_state(enum monitor_state state)
{
    mon.state = state;
    noise_gate.open = 0; /* until the end of this FIQ says what is true then */
}

/* At the end of each FIQ the monitor handles: open the noise gate when the next plain byte
 * can only be noise (waiting for a knock, the line quiet, nothing queued before it). */
static void noise_gate_update(void)
{
    /* one wire: never, plain noise is the kernel's input */
    noise_gate.open = mon.state == MON_WAITING && mon_knock.quiet && !ring_count(&mon_rx) &&
                      !one_wire();
}

/* One wire: the bytes of a knock candidate, held back from the kernel until the candidate
 * is a knock (fiqmon's), or is not (the kernel's, in order), or the line went quiet. */
static FIQMON_BUFFER("mon_hold") struct {
    uint8_t buf[320]; /* GDB's qSupported packet is ~200 bytes */
    uint16_t n;
    uint32_t lost; /* bytes the kernel's receiver had no room for */
} hold;

static void hold_release(unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (!port_console_rx(hold.buf[i], false))
            hold.lost++;
    hold.n = (uint16_t)(hold.n - n);
    memmove(hold.buf, hold.buf + n, hold.n);
}

/* c was fed to the knock detector and did not complete a knock: the kernel gets every
 * byte the detector no longer counts as a possible knock. */
static void console_pass(uint8_t c)
{
    if (hold.n == sizeof(hold.buf)) { /* longer than any opener fiqmon takes */
        hold_release(hold.n);
        knock_restart(&mon_knock);
    }
    hold.buf[hold.n++] = c;
    hold_release(hold.n - (mon_knock.matched < hold.n ? mon_knock.matched : hold.n));
}

int monitor_console_quiet(void)
{
    if (!one_wire())
        return 0;
    if (mon.state == MON_WAITING && hold.n) {
        hold_release(hold.n);
        knock_restart(&mon_knock);
    }
    port_console_hold(false);
    return 0;
}

void monitor_console_break(void)
{
    if (!one_wire() || mon.state != MON_WAITING)
        return; /* in a session the wire is fiqmon's: a BREAK is nobody's */
    /* a BREAK ends any knock candidate; what it held goes first, in order */
    hold_release(hold.n);
    knock_restart(&mon_knock);
    port_console_hold(false);
    if (!port_console_rx(0, true))
        hold.lost++;
}

uint32_t monitor_console_lost(void)
{
    return hold.lost;
}

void monitor_init(int knock_mode, const struct monitor_features *features)
{
    mon.features = features;
    ring_init(&mon_rx);
    knock_init(&mon_knock, knock_mode);
    noise_gate.noise = 0;
    noise_gate.fiqs = 0;
    line_init(&mon.line, con_write);
    set_state(MON_WAITING);
    mon.reason = REASON_KNOCK;
    mon.halted = false;
    mon.cpus_held = false;
    mon.entry_halts = false;
    mon.boot_pending = false;
    mon.boot_held = false;
    mon.kernel_started = false;
    mon.frame = 0;
    if (features->reset)
        features->reset();
    mon.history_permissions = monitor_permissions();
}

/* Locking (lock, readonly, a relock on leaving): Up must not recall what was typed
 * while more was allowed. */
static void forget_history_if_locked(void)
{
    uint32_t now = monitor_permissions();

    if (mon.history_permissions & ~now)
        line_history_clear(&mon.line);
    mon.history_permissions = now;
}

/* Feed waiting-state bytes to the knock detector. Returns 1 once a knock completes (the
 * bytes after it stay in the ring for the shell). on_fiq: called for a FIQ, which in
 * mode -1 enters even without a byte (a dedicated NMI button raises no byte). countdown:
 * the boot countdown's input, whose line already says what to type (no prompts); a knock
 * holds the payload back, GDB's opener boots it and stops it at its first instruction. */
static int consume_waiting(bool on_fiq, bool countdown)
{
    int c;

    if (on_fiq && mon_knock.mode == KNOCK_MODE_ANY_FIQ && ring_count(&mon_rx) == 0) {
        monitor_request_entry(REASON_FIQ);
        return 1;
    }
    while ((c = ring_get(&mon_rx)) >= 0) {
        enum knock_event ev = knock_feed(&mon_knock, (uint8_t)c);
        if (one_wire()) {
            if (ev != KNOCK_ENTER && (ev != KNOCK_GDB || !mon.features->remote)) {
                console_pass((uint8_t)c); /* no prompts: the wire is the kernel's */
                continue;
            }
            hold.n = 0; /* the knock (or GDB's opener) is fiqmon's */
            port_console_hold(false);
        }
        switch (ev) {
        case KNOCK_NOISE_PROMPT:
            if (countdown)
                break;
            con_puts("\n");
            con_puts(knock_prompt(mon_knock.mode));
            break;
        case KNOCK_ENTER:
            monitor_request_entry(countdown                                ? REASON_BOOT
                                  : mon_knock.mode == KNOCK_MODE_ANY_FIQ ? REASON_FIQ
                                                                         : REASON_KNOCK);
            mon.boot_held |= countdown;
            if (mon_knock.mode == KNOCK_MODE_ANY_FIQ)
                ring_discard(&mon_rx); /* the doorbell, not input for the shell */
            line_reset(&mon.line, c == '\r');
            return 1;
        case KNOCK_GDB:
            if (!mon.features->remote)
                break; /* no stub in this build: an opener is noise */
            monitor_request_entry(REASON_GDB);
            mon.boot_pending |= countdown;
            return 1;
        default:
            break;
        }
    }
    if (one_wire())
        port_console_hold(hold.n != 0);
    return 0;
}

int monitor_fiq_fast(bool doorbell)
{
    int full = 1;

    if (mon.state == MON_WAITING) {
        full = mon.boot_pending || mon.lockup_pending || consume_waiting(doorbell, false);
    } else if (mon.state == MON_RELEASED) {
        ring_discard(&mon_rx); /* bytes caught on the way out belong to nobody */
        full = 0;
    }
    noise_gate_update();
    return full;
}

void monitor_request_boot(void)
{
    mon.boot_pending = true;
}

int monitor_countdown_input(void)
{
    return consume_waiting(false, true);
}

void monitor_booted(void)
{
    mon.kernel_started = true;
    mon.boot_held = false;
}

bool monitor_boot_held(void)
{
    return mon.boot_held;
}

bool monitor_kernel_started(void)
{
    return mon.kernel_started;
}

void monitor_request_lockup_report(void)
{
    mon.lockup_pending = true;
}

bool monitor_stop_for(enum monitor_reason reason)
{
    if (mon.state != MON_WAITING)
        return false;
    mon.reason = reason;
    mon.halted = true;
    set_state(MON_ACTIVE);
    return true;
}

void monitor_request_entry(enum monitor_reason reason)
{
    set_state(MON_ENTERING);
    mon.reason = reason;
}

uint32_t monitor_service(uint32_t request, int *need_full)
{
    *need_full = 0;
    switch (request) {
    case FIQMON_SVC_PING:
        return FIQMON_SVC_OK;
    case FIQMON_SVC_REARM:
        if (mon.state == MON_RELEASED) {
            port_debug_uart_claim(true);
            set_state(MON_WAITING);
            knock_restart(&mon_knock);
            con_puts("\nfiqmon: re-armed by the kernel\n");
        }
        return FIQMON_SVC_OK;
    case FIQMON_SVC_RELEASE:
        if (!platform->debug_uart_releasable)
            return FIQMON_SVC_UNKNOWN;
        monitor_release();
        return FIQMON_SVC_OK;
    case FIQMON_SVC_ENTER:
        if (mon.state == MON_WAITING || mon.state == MON_RELEASED) {
            if (mon.state == MON_RELEASED)
                port_debug_uart_claim(true);
            monitor_request_entry(REASON_SERVICE);
        }
        *need_full = 1;
        return FIQMON_SVC_OK;
    default:
        return FIQMON_SVC_UNKNOWN;
    }
}

static void prompt(void)
{
    con_puts(PROMPT);
}

static void run_line(void)
{
    con_puts("\n");
    if (monitor_execute(mon.line.buf, 0) != CMD_RESULT_EMPTY)
        mon_stats.commands++;
    forget_history_if_locked();
    line_reset(&mon.line, mon.line.last_cr);
    if (mon.state == MON_ACTIVE)
        prompt();
}

static void consume_active(void)
{
    int c;

    while (mon.state == MON_ACTIVE && (c = ring_get(&mon_rx)) >= 0) {
        switch (line_feed(&mon.line, (uint8_t)c)) {
        case LINE_READY:
            run_line();
            break;
        case LINE_CANCELLED:
            con_puts("^C\n");
            prompt();
            break;
        case LINE_TOO_LONG:
            con_printf("\nerror: line too long (at most %d characters)\n", LINE_MAX_CHARS);
            break;
        case LINE_DISCARDED:
            prompt();
            break;
        default:
            break;
        }
    }
}

/* Every core: while the monitor holds CPU 0 (halted, GDB), the others are stopped too;
 * whenever it lets CPU 0 go, they go. A CPU that does not answer is reported, not waited for. */
static void hold_cpus(bool stop)
{
    uint32_t late;

    if (platform->cpus < 2 || mon.cpus_held == stop)
        return;
    mon.cpus_held = stop;
    mon_stats.roundups += stop;
    late = port_cpus_hold(stop);
    for (unsigned i = 0; late; i++, late >>= 1)
        if (late & 1u)
            con_printf("fiqmon: cpu %u did not answer the roundup: it runs on\n", i);
}

/* The kernel is held: keep the other CPUs stopped, poll the port, feed the watchdog. */
static void held_poll(void)
{
    hold_cpus(true);
    port_rx_poll();
    port_watchdog_held();
}

/* The GDB session: feed it received bytes, and poll the port while the stub holds the CPU.
 * Returns when the kernel may run (the stub resumed it and nothing is pending) or the
 * session is over. */
static void gdb_act(enum remote_action act)
{
    switch (act) {
    case REMOTE_INTERRUPT:
        mon.features->remote->stopped(mon.own_frame, 0);
        break;
    case REMOTE_DETACH:
        monitor_leave();
        break;
    case REMOTE_SHELL: /* kgdb's $3#33: to the shell, the kernel stays stopped */
        set_state(MON_ACTIVE);
        mon.halted = true;
        con_puts("\nfiqmon: left GDB; the kernel is halted ('continue' resumes it)\n");
        prompt();
        break;
    default:
        break;
    }
}

static void run_gdb(void)
{
    while (mon.state == MON_GDB) {
        int c = ring_get(&mon_rx);
        if (c < 0) {
            /* the kernel runs until GDB sends more; a locked session (lockdown.h) never
             * holds it, or one packet from anyone with a cable would stop the device */
            if (mon.features->remote->running() || !(monitor_permissions() & CMD_GDB))
                return;
            held_poll();
            continue;
        }
        if (!mon.features->remote->running() && (monitor_permissions() & CMD_GDB))
            hold_cpus(true); /* the other CPUs are GDB's threads: stopped before it asks */
        gdb_act(mon.features->remote->feed((uint8_t)c));
    }
}

/* Enter GDB mode from the shell: the CPU stays stopped; GDB speaks first. */
void monitor_start_gdb(void)
{
    if (mon.own_frame)
        monitor_select_cpu(0); /* GDB's thread 1 is CPU 0; it selects the others itself */
    set_state(MON_GDB);
    mon.features->remote->start(mon.frame);
}

static const char *const reason_names[] = {
    [REASON_KNOCK] = "knock",
    [REASON_FIQ] = "FIQ",
    [REASON_BOOT] = "boot delay",
    [REASON_SERVICE] = "kernel request",
    [REASON_GDB] = "GDB",
    [REASON_WATCHDOG] = "watchdog",
    [REASON_DEBUG] = "breakpoint",
};

const char *monitor_reason_name(void)
{
    return reason_names[mon.reason];
}

static void discard_output(const char *s, size_t n)
{
    (void)s;
    (void)n;
}

/* The session on CPU 0 (own: its context), looking at CPU cpu's context view. */
static void session(struct cpu_frame *frame, unsigned cpu, struct cpu_frame *view)
{
    const struct monitor_features *ft = mon.features;

    mon.frame = view;
    mon.own_frame = frame;
    mon.cpu = cpu;
    if (ft->entered)
        ft->entered(); /* entry timing feeds the unlock nonces */
    if (mon.lockup_pending) {
        mon.lockup_pending = false;
        if (ft->lockup_report)
            ft->lockup_report(frame);
        if (mon.state == MON_ACTIVE)
            prompt();
    }
    if (mon.boot_pending) {
        /* the knock detector is not restarted: a knock begun in the countdown completes */
        bool for_gdb = mon.state == MON_ENTERING && mon.reason == REASON_GDB;
        mon.boot_pending = false;
        if (for_gdb) /* GDB reads the port: its '-' would be a NAK, its '$' a packet */
            con_set_sink(discard_output);
        if (ft->boot_payload && ft->boot_payload(frame) == 0 && ft->left)
            ft->left(); /* the watchdog counts afresh for the new kernel */
        con_set_sink(NULL);
    }
    if (ft->remote && ft->remote->active())
        ft->remote->set_frame(frame); /* a running session: this FIQ's context is current */
    for (;;) {
        if (mon.state == MON_ENTERING && mon.reason == REASON_GDB) {
            /* GDB's opening packet was the knock: answer it, and the session is on */
            static const char status[] = "?", qsupported[] = "qSupported";
            bool status_first = mon_knock.gdb_opener == '?';
            set_state(MON_GDB);
            gdb_act(ft->remote->start_packet(frame, status_first ? status : qsupported,
                                             status_first ? 1 : sizeof(qsupported) - 1));
        } else if (mon.state == MON_ENTERING) {
            if (monitor_permissions() & CMD_READS_REGS)
                con_printf("\nfiqmon: entered by %s at pc=" TARGET_ADDR_FMT " (%s)\n",
                           monitor_reason_name(), (unsigned long)frame->pc,
                           arm_mode_name(frame_psr(frame)));
            else /* locked: not even the pc (it would give away the kernel's layout) */
                con_printf("\nfiqmon: entered by %s (locked)\n", monitor_reason_name());
            if (mon.boot_held)
                con_puts("fiqmon: no kernel started: the payload waits ('boot' or 'exit' "
                         "starts it)\n");
            else if (mon.entry_halts && mon.kernel_started && mon.reason != REASON_WATCHDOG &&
                     (monitor_permissions() & CMD_CONTROLS_KERNEL)) {
                mon.halted = true; /* held_poll() below rounds up the other CPUs */
                con_puts("fiqmon: every cpu halted (entry halt); 'continue' resumes\n");
            }
            set_state(MON_ACTIVE);
            prompt();
        }
        if (mon.state == MON_GDB) {
            run_gdb();
            if (mon.state == MON_GDB)
                break; /* the stub let the kernel run */
        }
        consume_active();
        if (mon.state == MON_GDB)
            continue; /* the shell's gdb: the kernel stays stopped until GDB resumes it */
        if (mon.halted && mon.state == MON_ACTIVE) {
            held_poll(); /* halted: the kernel waits while we poll the port */
            continue;
        }
        /* after exit, typed-ahead bytes go to the knock detector */
        if (mon.state != MON_WAITING || !consume_waiting(false, false))
            break;
    }
    if (mon.replay_due && mon.state == MON_WAITING) {
        mon.replay_due = false;
        port_console_replay(); /* after the last word of the session */
    }
    /* (a step, or a step over a breakpoint, armed before the CPU it is for runs) */
    if (ft->resuming)
        ft->resuming(mon.own_frame);
    hold_cpus(false);
    mon.frame = 0;
    mon.own_frame = 0;
    mon.cpu = 0;
    noise_gate_update();
}

void monitor_fiq_full(struct cpu_frame *frame)
{
    session(frame, 0, frame);
}

void monitor_debug_stop(struct cpu_frame *own, unsigned cpu, struct cpu_frame *frame)
{
    const struct monitor_features *ft = mon.features;

    if (!(monitor_permissions() & CMD_CONTROLS_KERNEL)) {
        /* locked since it was set (production relocks on leaving): a stop nobody may
         * continue would hang the device, so the kernel runs on, over the breakpoint */
        con_puts("\nfiqmon: a breakpoint was hit while locked: the kernel runs on\n");
        if (ft->resuming)
            ft->resuming(own);
        return;
    }
    mon.own_frame = own; /* (for the resuming hook's view of the other CPUs) */
    mon.cpu = cpu;
    if (mon.state == MON_GDB && ft->remote && ft->remote->active()) {
        ft->remote->stopped(own, cpu); /* its stop reply says why */
    } else {
        if (mon.state == MON_RELEASED)
            port_debug_uart_claim(true);
        set_state(MON_ACTIVE);
        mon.reason = REASON_DEBUG;
        mon.halted = true;
        mon.frame = frame;
        con_puts("\n");
        if (ft->stop_line)
            ft->stop_line(frame);
        prompt();
    }
    session(own, cpu, frame);
}

int monitor_halt(void)
{
    if (mon.halted)
        return con_error("already halted");
    mon.halted = true;
    con_printf("fiqmon: kernel halted at pc=" TARGET_ADDR_FMT " (%s), stop reason: %s; "
               "'continue' resumes\n",
               (unsigned long)mon.frame->pc, arm_mode_name(frame_psr(mon.frame)),
               monitor_reason_name());
    return 0;
}

int monitor_select_cpu(unsigned n)
{
    struct port_cpu c;

    if (n >= (platform->cpus ? platform->cpus : 1u))
        return con_error("no cpu %u", n);
    if (n == 0) {
        mon.frame = mon.own_frame;
        mon.cpu = 0;
        return 0;
    }
    if (!mon.halted) { /* its registers are only there while it is stopped */
        if (!(monitor_permissions() & CMD_CONTROLS_KERNEL))
            return con_error("cpu %u: stopping the kernel is not permitted now", n);
        mon.halted = true;
        con_puts("fiqmon: every cpu halted; 'continue' resumes them\n");
    }
    hold_cpus(true);
    port_cpu(n, &c);
    if (!c.frame)
        return con_error("cpu %u is %s", n, c.online ? "not stopped" : "off");
    mon.frame = c.frame;
    mon.cpu = n;
    return 0;
}

void monitor_view_cpu(unsigned n, struct cpu_frame *f)
{
    mon.frame = f;
    mon.cpu = n;
}

unsigned monitor_cpu(void)
{
    return mon.cpu;
}

int monitor_continue(void)
{
    if (!mon.halted)
        return con_error("not halted");
    monitor_select_cpu(0);
    mon.halted = false;
    con_puts("fiqmon: kernel continues\n");
    return 0;
}

int monitor_step_resume(void)
{
    monitor_select_cpu(0);
    mon.halted = false;
    return 0;
}

bool monitor_halted(void)
{
    return mon.halted;
}

int monitor_release(void)
{
    if (!platform->debug_uart_releasable)
        return con_error("the debug port is Secure here: the kernel can never use it");
    mon.halted = false;
    set_state(MON_RELEASED);
    port_debug_uart_claim(false);
    if (mon.features->left)
        mon.features->left(); /* production relocks */
    forget_history_if_locked();
    return 0;
}

/* Waiting for a knock on a line that is fiqmon's alone: one byte per FIQ, so that the
 * noise gate the byte reopens lets the noise path drop the plain noise after it, however
 * fast the line refills the FIFO (otherwise a flood that keeps the FIFO full keeps this
 * path draining it in C, and the noise path's share depends on the sender's timing). */
bool monitor_rx_byte_at_a_time(void)
{
    return mon.state == MON_WAITING && !one_wire();
}

enum monitor_state monitor_state(void)
{
    return mon.state;
}

struct cpu_frame *monitor_frame(void)
{
    return mon.frame;
}

void monitor_leave(void)
{
    mon.replay_due = one_wire();
    if (mon.own_frame)
        monitor_select_cpu(0);
    mon.halted = false;
    set_state(MON_WAITING);
    knock_restart_after(&mon_knock, mon.line.last_cr);
    if (mon.features->left)
        mon.features->left(); /* production relocks; the watchdog counts afresh */
    forget_history_if_locked();
}

int monitor_knock_mode(void)
{
    return mon_knock.mode;
}

bool monitor_entry_halts(void)
{
    return mon.entry_halts;
}

void monitor_set_entry_halts(bool halts)
{
    mon.entry_halts = halts;
}

void monitor_set_knock_mode(int mode)
{
    mon_knock.mode = (int8_t)mode;
    knock_restart(&mon_knock);
}

uint32_t monitor_noise_bytes(void)
{
    return mon_knock.noise + noise_gate.noise;
}

uint32_t monitor_rx_bytes(void)
{
    return mon_rx.head + mon_rx.drops + noise_gate.noise;
}

uint32_t monitor_permissions(void)
{
    return mon.features->permissions ? mon.features->permissions() : CMD_ALL_PERMISSIONS;
}

enum command_result monitor_execute(char *line, uint32_t forbidden)
{
    return command_execute(mon.features->commands, line, monitor_permissions() & ~forbidden);
}

