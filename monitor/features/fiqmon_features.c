/* SPDX-License-Identifier: MIT */
/* The one place that knows every feature: it fills the session core's table (monitor_features.h)
 * with what this build has (build_options.h). Everything else meets only the core. */
#include "fiqmon_features.h"

#include "build_options.h"
#include "commands.h"
#include "handoff.h"
#if FIQMON_BREAKPOINTS
#include "breakpoints.h"
#include "cmd_break.h"
#endif
#if FIQMON_GDB
#include "gdb_stub.h"
#endif
#if FIQMON_LOCKDOWN
#include "lockdown.h"
#endif
#if FIQMON_WATCHDOG
#include "last_report.h"
#include "lockup_report.h"
#include "watchdog.h"
#endif

static void reset(void)
{
#if FIQMON_BREAKPOINTS
    debug_reset();
#endif
#if FIQMON_LOCKDOWN
    lockdown_init(); /* locked in production */
#endif
#if FIQMON_WATCHDOG
    last_report_boot(&mon_last_report);
#endif
}

static void left(void)
{
#if FIQMON_BREAKPOINTS
    debug_clear_gdb(); /* GDB is gone: nobody would answer its breakpoints */
#endif
#if FIQMON_LOCKDOWN
    lockdown_leave(); /* production: the next session starts locked */
#endif
#if FIQMON_WATCHDOG
    watchdog_restart(&mon_watchdog); /* we held the kernel, it did not lock up */
#endif
}

const struct monitor_features fiqmon_features = {
    .commands = command_tables,
#if FIQMON_GDB
    .remote = &gdb_remote_ops,
#endif
    .reset = reset,
#if FIQMON_LOCKDOWN
    .permissions = lockdown_permissions,
    .entered = lockdown_stir,
#endif
    .left = left,
#if FIQMON_WATCHDOG
    .lockup_report = lockup_report,
#endif
    .boot_payload = boot_payload,
#if FIQMON_BREAKPOINTS
    .stop_line = debug_stop_line,
    .resuming = debug_resuming,
#endif
};
