/* SPDX-License-Identifier: MIT */
#include "monitor.h"

#include "command.h"
#include "console.h"
#include "knock.h"
#include "line_editor.h"
#include "sections.h"

#define PROMPT "fiqmon> "

FIQMON_BUFFER("mon_rx") struct ring mon_rx;
struct monitor_stats mon_stats;

static FIQMON_BUFFER("mon") struct {
    enum monitor_state state;
    struct knock knock;
    struct line_editor line;
    struct cpu_frame *frame; /* valid only inside monitor_fiq_full */
    uint32_t permissions;
} mon;

void monitor_init(int knock_mode)
{
    ring_init(&mon_rx);
    knock_init(&mon.knock, knock_mode);
    line_init(&mon.line, con_write);
    mon.state = MON_WAITING;
    mon.frame = 0;
    mon.permissions = CMD_ALL_PERMISSIONS;
}

/* Feed waiting-state bytes to the knock detector. Returns 1 once a knock completes (the
 * bytes after it stay in the ring for the shell). on_fiq: called for a FIQ, which in
 * mode -1 enters even without a byte (a dedicated NMI button raises no byte). */
static int consume_waiting(bool on_fiq)
{
    int c;

    if (on_fiq && mon.knock.mode == KNOCK_MODE_ANY_FIQ && ring_count(&mon_rx) == 0) {
        mon.state = MON_ENTERING;
        return 1;
    }
    while ((c = ring_get(&mon_rx)) >= 0) {
        switch (knock_feed(&mon.knock, (uint8_t)c)) {
        case KNOCK_NOISE_PROMPT:
            con_puts("\n");
            con_puts(knock_prompt(mon.knock.mode));
            break;
        case KNOCK_ENTER:
            mon.state = MON_ENTERING;
            if (mon.knock.mode == KNOCK_MODE_ANY_FIQ)
                ring_discard(&mon_rx); /* the doorbell, not input for the shell */
            line_reset(&mon.line, c == '\r');
            return 1;
        default:
            break;
        }
    }
    return 0;
}

int monitor_fiq_fast(void)
{
    mon_stats.fiqs++;
    if (mon.state != MON_WAITING)
        return 1;
    return consume_waiting(true);
}

static void prompt(void)
{
    con_puts(PROMPT);
}

static void run_line(void)
{
    con_puts("\n");
    if (command_execute(command_tables, mon.line.buf, mon.permissions) != CMD_RESULT_EMPTY)
        mon_stats.commands++;
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

void monitor_fiq_full(struct cpu_frame *frame)
{
    mon.frame = frame;
    for (;;) {
        if (mon.state == MON_ENTERING) {
            con_printf("\nfiqmon: entered by %s at pc=%08x (%s)\n",
                       mon.knock.mode == KNOCK_MODE_ANY_FIQ ? "FIQ" : "knock", (unsigned)frame->pc,
                       arm_mode_name(frame->cpsr));
            mon.state = MON_ACTIVE;
            prompt();
        }
        consume_active();
        /* after exit, typed-ahead bytes go to the knock detector */
        if (mon.state != MON_WAITING || !consume_waiting(false))
            break;
    }
    mon.frame = 0;
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
    mon.state = MON_WAITING;
    knock_restart_after(&mon.knock, mon.line.last_cr);
}

int monitor_knock_mode(void)
{
    return mon.knock.mode;
}

void monitor_set_knock_mode(int mode)
{
    mon.knock.mode = (int8_t)mode;
    knock_restart(&mon.knock);
}

uint32_t monitor_noise_bytes(void)
{
    return mon.knock.noise;
}

uint32_t monitor_permissions(void)
{
    return mon.permissions;
}
