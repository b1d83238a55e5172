/* SPDX-License-Identifier: MIT */
/* The monitor's one stub, as the session core reaches it (monitor_features.h). */
#include "gdb_stub.h"

static void start(struct cpu_frame *f)
{
    gdb_stub_start(&gdb, f);
}

static enum remote_action start_packet(struct cpu_frame *f, const char *body, size_t len)
{
    return (enum remote_action)gdb_stub_start_packet(&gdb, f, body, len);
}

static enum remote_action feed(uint8_t c)
{
    return (enum remote_action)gdb_stub_feed(&gdb, c);
}

static void stopped(struct cpu_frame *own, unsigned cpu)
{
    gdb_stub_stopped(&gdb, own, cpu);
}

static bool active(void)
{
    return gdb_stub_active(&gdb);
}

static bool running(void)
{
    return gdb_stub_running(&gdb);
}

static void set_frame(struct cpu_frame *f)
{
    gdb.frame = f;
}

const struct remote_ops gdb_remote_ops = {
    .start = start,
    .start_packet = start_packet,
    .feed = feed,
    .stopped = stopped,
    .active = active,
    .running = running,
    .set_frame = set_frame,
};
