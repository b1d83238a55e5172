/* SPDX-License-Identifier: MIT */
/* What the session core reaches only through this table: the commands, the GDB stub,
 * lockdown's permission policy, the watchdog's report and the kernel hand-off. The core
 * names none of them; monitor/features/features.c fills the table for the build's
 * options (GDB=, LINUX=, LOCKDOWN=, WATCHDOG=) and boot code passes it to monitor_init().
 * A NULL hook is a feature this build does not have. */
#ifndef FIQMON_MONITOR_FEATURES_H
#define FIQMON_MONITOR_FEATURES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "command.h"
#include "cpu_frame.h"

/* What a remote debugger session tells the core after each byte (gdb_stub.h). */
enum remote_action {
    REMOTE_STAY,      /* keep polling the port; the CPU stays halted */
    REMOTE_RESUME,    /* let the kernel run; the session goes on */
    REMOTE_INTERRUPT, /* stop the running kernel: call stopped() with this FIQ's frame */
    REMOTE_DETACH,    /* the session is over: resume the kernel */
    REMOTE_SHELL,     /* the session is over: to the shell, the kernel stays stopped */
};

struct remote_ops {
    /* a session on a stopped CPU; the debugger speaks first */
    void (*start)(struct cpu_frame *f);
    /* the knock detector saw the debugger's opening packet (body only): answer it */
    enum remote_action (*start_packet)(struct cpu_frame *f, const char *body, size_t len);
    enum remote_action (*feed)(uint8_t c);
    /* the debug unit stopped CPU cpu (own: CPU 0's context, the session's) */
    void (*stopped)(struct cpu_frame *own, unsigned cpu);
    bool (*active)(void);
    bool (*running)(void);
    /* a FIQ arrived while the session lets the kernel run: its context is current */
    void (*set_frame)(struct cpu_frame *f);
};

struct monitor_features {
    const struct command *const *commands; /* NULL-terminated list of tables */
    const struct remote_ops *remote;       /* NULL: no GDB stub */
    void (*reset)(void);                   /* at monitor_init (lockdown, last report) */
    uint32_t (*permissions)(void);         /* CMD_* flags allowed now; NULL: all */
    void (*entered)(void);                 /* every full-path FIQ (nonce stirring) */
    void (*left)(void);                    /* the debugger was left (relock, ...) */
    void (*lockup_report)(struct cpu_frame *f); /* the watchdog fired */
    int (*boot_payload)(struct cpu_frame *f);   /* 0: f now enters the payload */
    void (*stop_line)(struct cpu_frame *f);     /* what the debug unit stopped on */
    void (*resuming)(struct cpu_frame *f);      /* CPU 0's context (f) and the held ones run again */
};

#endif
