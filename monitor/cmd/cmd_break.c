/* SPDX-License-Identifier: MIT */
/* bp, bc, bl, ss (kdb's names) and the line a debug stop prints: the shell's face of
 * monitor/debug/breakpoints.h. */
#include "cmd_break.h"

#include <string.h>

#include "breakpoints.h"
#include "build_options.h"
#include "commands.h"
#include "console.h"
#include "monitor.h"
#include "parse.h"
#if FIQMON_LINUX
#include "cmd_kernel_info.h"
#include "kallsyms.h"
#include "platform.h"
#include "vmcoreinfo.h"
#endif

static const char *const watch_names[] = {"", "write", "read", "access"};

#if FIQMON_LINUX
/* A kernel's symbols, without an error line when there are none. */
static bool symbols(void)
{
    const struct vmci *v;

    return !port_mem_unavailable() && (v = kernel_vmcoreinfo(true)) && ksyms_ready(v);
}

static struct ksym found_sym;

static void found(const struct ksym *s)
{
    found_sym = *s;
}
#endif

/* "ADDR (sym+0xoff/0xsize)", the symbol when a kernel's kallsyms has one. */
static void where(uint32_t addr)
{
    con_printf("%08x", (unsigned)addr);
#if FIQMON_LINUX
    struct ksym s;
    if (symbols() && ksym_lookup(addr, &s))
        con_printf(" (%s+0x%x/0x%x)", s.name, (unsigned)(addr - s.addr), (unsigned)s.size);
#endif
}

void debug_stop_line(struct cpu_frame *f)
{
    const struct debug_stop *s = &debug_last_stop;
    uint32_t pc = f->pc & ~1u;

    if (!s->valid)
        return;
    if (s->watch) {
        con_printf("fiqmon: watchpoint %u (%s) of %08x hit, cpu %u at ", s->number,
                   watch_names[s->kind & 3u], (unsigned)s->addr, monitor_cpu());
    } else if (s->step && s->vector) {
        con_printf("fiqmon: the step entered the %s vector, cpu %u at ",
                   s->vector == 0x18 ? "IRQ" : s->vector == 0x08 ? "SVC" : "undefined",
                   monitor_cpu());
    } else if (s->step) {
        con_printf("fiqmon: stepped, cpu %u at ", monitor_cpu());
    } else if (s->soft) {
        con_printf("fiqmon: software breakpoint, cpu %u at ", monitor_cpu());
    } else {
        con_printf("fiqmon: breakpoint %u, cpu %u at ", s->number, monitor_cpu());
    }
    where(pc);
    con_puts("\n");
}

/* bp ADDR|SYM: a number is an address; anything else a kernel symbol. */
static int resolve(const char *arg, uint32_t *addr)
{
    if (parse_u32(arg, addr) == PARSE_OK)
        return 0;
#if FIQMON_LINUX
    if (arg[0] > '9') {
        int n;
        if (!need_kernel(true))
            return -1;
        n = ksym_find(arg, 1, found);
        if (n < 0)
            return con_error("the kernel's kallsyms tables do not read");
        if (n == 0)
            return con_error("no symbol '%s'", arg);
        *addr = found_sym.addr;
        return 0;
    }
#endif
    return cmd_parse_number("address", arg, addr);
}

int cmd_bl(int argc, char **argv)
{
    uint32_t addr, len;
    enum watch_kind kind;
    unsigned shown = 0;

    (void)argc;
    (void)argv;
    if (!debug_breakpoint_slots())
        return con_error("no debug unit here (virt with HYP=1 has one)");
    for (unsigned n = 1; n <= debug_breakpoint_slots(); n++) {
        if (!debug_break_get(n, &addr))
            continue;
        con_printf("breakpoint %u at ", n);
        where(addr & ~1u);
        con_puts("\n");
        shown++;
    }
    for (unsigned n = 1; n <= debug_watchpoint_slots(); n++) {
        if (!debug_watch_get(n, &addr, &len, &kind))
            continue;
        con_printf("watchpoint %u (%s) of %u bytes at %08x (GDB's)\n", n,
                   watch_names[kind & 3u], (unsigned)len, (unsigned)addr);
        shown++;
    }
    for (unsigned n = 1; n <= DEBUG_SOFT_MAX; n++) {
        if (!debug_soft_get(n, &addr))
            continue;
        con_puts("software breakpoint (GDB's) at ");
        where(addr & ~1u);
        con_puts("\n");
    }
    con_printf("%u of %u breakpoints, %u watchpoints\n", shown, debug_breakpoint_slots(),
               debug_watchpoint_slots());
    return 0;
}

int cmd_bp(int argc, char **argv)
{
    uint32_t addr;
    int n;

    if (argc == 1)
        return cmd_bl(argc, argv);
    if (resolve(argv[1], &addr))
        return -1;
    n = debug_break_set(addr, DEBUG_BY_SHELL);
    switch (n) {
    case -1:
        return con_error("every breakpoint register is in use (%u): bc one first",
                         debug_breakpoint_slots());
    case -2:
        return con_error("no debug unit here (virt with HYP=1 has one)");
    case -3:
        return con_error("a breakpoint is already set at %08x", (unsigned)addr);
    case -5:
        return con_error("%08x is not mapped in the kernel: no breakpoint set", (unsigned)addr);
    case -6:
        return con_error("%08x is not executable (the kernel maps it XN): no breakpoint set",
                         (unsigned)addr);
    default:
        break;
    }
    con_printf("breakpoint %d at ", n);
    where(addr & ~1u);
    con_puts("\n");
    return 0;
}

int cmd_bc(int argc, char **argv)
{
    (void)argc;
    if (strcmp(argv[1], "*") == 0) {
        debug_clear_all();
        return 0;
    }
    long number;
    /* decimal, as bl numbers them (kdb's bc too) */
    if (parse_int(argv[1], &number) != PARSE_OK || number < 1 || number > 0xffff)
        return con_error("bad breakpoint number '%s' (bl lists them)", argv[1]);
    if (!debug_break_clear_number((unsigned)number))
        return con_error("no breakpoint %s (bl lists them)", argv[1]);
    return 0;
}

int cmd_ss(int argc, char **argv)
{
    const char *error;

    (void)argc;
    (void)argv;
    if (!monitor_halted())
        return con_error("the kernel is not halted (halt first)");
    if (!debug_step_request(monitor_frame(), monitor_cpu(), &error))
        return con_error("%s", error);
    return monitor_step_resume();
}
