/* SPDX-License-Identifier: MIT */
/* halt, continue, release, boot, go: what the interrupted kernel does next. */
#include "commands.h"

#include <string.h>

#include "handoff.h"
#include "console.h"
#include "monitor.h"
#include "platform.h"

int cmd_halt(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return monitor_halt();
}

int cmd_continue(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return monitor_continue();
}

int cmd_release(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    if (!platform->debug_uart_releasable)
        return monitor_release(); /* explains why not */
    con_printf("fiqmon: %s released to the kernel; it re-arms fiqmon with service call %u\n",
               platform->debug_uart, 2u);
    return monitor_release();
}

int cmd_go(int argc, char **argv)
{
    target_addr_t addr;

    (void)argc;
    if (cmd_parse_address(argv[1], &addr))
        return -1;
    con_printf("fiqmon: jumping to 0x" TARGET_ADDR_FMT "\n", (unsigned long)addr);
    boot_enter(monitor_frame(), port_boot_target()->entry_cpsr, addr, 0, 0, 0);
    monitor_leave();
    return 0;
}

int cmd_boot(int argc, char **argv)
{
    const struct boot_target *t = port_boot_target();
    char cmdline[BOOT_CMDLINE_MAX];
    size_t len = 0;
    uint32_t addr;

    if (argc == 1) {
        if (boot_payload(monitor_frame()))
            return -1;
        monitor_leave();
        return 0;
    }
    if (cmd_parse_number("address", argv[1], &addr))
        return -1;
    cmdline[0] = '\0';
    for (int i = 2; i < argc; i++) {
        size_t n = strlen(argv[i]);
        if (len + n + 2 > sizeof(cmdline))
            return con_error("command line too long");
        if (len)
            cmdline[len++] = ' ';
        memcpy(cmdline + len, argv[i], n + 1);
        len += n;
    }
    if (!boot_write_atags(t, cmdline))
        return con_error("cannot write the ATAG list at 0x%08x", (unsigned)t->atags_addr);
    con_printf("fiqmon: booting linux image at 0x%08x (r0=0 r1=%08x r2=%08x)\n", (unsigned)addr,
               (unsigned)t->machine_id, (unsigned)t->atags_addr);
    boot_enter(monitor_frame(), t->entry_cpsr, addr, 0, t->machine_id, t->atags_addr);
    monitor_leave();
    return 0;
}

int cmd_gdb(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    con_printf("fiqmon: %s speaks the GDB remote protocol until detach; the kernel is "
               "stopped\n", platform->debug_uart);
    monitor_start_gdb();
    return 0;
}
