/* SPDX-License-Identifier: MIT */
/* cpu [N]: every CPU (online, stopped or off; where it is), or select the one pc, regs,
 * allregs and bt show. A listing samples the running CPUs without stopping them. */
#include "commands.h"

#include "cmd_kernel_info.h"
#include "console.h"
#include "cpu_frame.h"
#include "monitor.h"
#include "parse.h"
#include "platform.h"

void cpu_list(void)
{
    unsigned n = platform->cpus ? platform->cpus : 1u;
    uint32_t late = port_cpus_sample();
    bool no_kernel = false;

    for (unsigned i = 0; i < n; i++) {
        struct port_cpu c;
        port_cpu(i, &c);
        con_printf("%c cpu%u %s", i == monitor_cpu() ? '*' : ' ', i,
                   !c.online ? "off" : c.stopped ? "stopped" : "running");
        if (!c.online) {
            con_puts("\n");
            continue;
        }
        con_printf(" pc=" TARGET_ADDR_FMT " (%s)%s\n", (unsigned long)c.pc, arm_mode_name(c.cpsr),
                   late & (1u << i) ? " (no answer: last seen)" : "");
        kernel_annotate_next(c.pc, &no_kernel);
    }
}

int cmd_cpu(int argc, char **argv)
{
    uint32_t n;

    if (argc == 1) {
        cpu_list();
        return 0;
    }
    if (parse_u32(argv[1], &n) != PARSE_OK)
        return con_error("cpu: a number, not '%s'", argv[1]);
    if (monitor_select_cpu(n))
        return -1;
    con_printf("cpu%u selected: pc=" TARGET_ADDR_FMT " (%s)\n", (unsigned)n,
               (unsigned long)monitor_frame()->pc, arm_mode_name(frame_psr(monitor_frame())));
    return 0;
}
