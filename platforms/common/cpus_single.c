/* SPDX-License-Identifier: MIT */
/* Every core, on a board (or build) with one: nothing to stop, CPU 0 is the monitor's. */
#include "cpu_frame.h"
#include "monitor.h"
#include "platform.h"

uint32_t port_cpus_hold(bool hold)
{
    (void)hold;
    return 0;
}

uint32_t port_cpus_sample(void)
{
    return 0;
}

void port_cpu(unsigned n, struct port_cpu *out)
{
    struct cpu_frame *f = monitor_frame();

    *out = (struct port_cpu){.online = n == 0, .stopped = n == 0 && f, .frame = n ? 0 : f};
    if (out->frame) {
        out->pc = f->pc;
        out->cpsr = frame_psr(f);
    }
}
