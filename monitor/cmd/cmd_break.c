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

/* bp and wp ADDR|SYM: a number is an address; anything else a kernel symbol (kallsyms,
 * or a data symbol VMCOREINFO names). */
static int resolve(const char *arg, uint32_t *addr)
{
    if (parse_u32(arg, addr) == PARSE_OK)
        return 0;
#if FIQMON_LINUX
    if (arg[0] > '9') {
        const struct vmci *v = need_kernel(true);
        int n;
        if (!v)
            return -1;
        n = ksym_find(arg, 1, found);
        if (n < 0)
            return con_error("the kernel's kallsyms tables do not read");
        if (n == 0 && !kernel_data_symbol(v, arg, addr)) /* (wp init_uts_ns) */
            return con_error("no symbol '%s'", arg);
        if (n)
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
        con_puts(debug_break_owner(n) == DEBUG_BY_GDB ? " (GDB's)\n" : "\n");
        shown++;
    }
    for (unsigned n = 1; n <= debug_watchpoint_slots(); n++) {
        if (!debug_watch_get(n, &addr, &len, &kind))
            continue;
        con_printf("watchpoint %u (%s) of %u bytes at %08x%s\n", n, watch_names[kind & 3u],
                   (unsigned)len, (unsigned)addr,
                   debug_watch_owner(n) == DEBUG_BY_GDB ? " (GDB's)" : "");
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

/* bc N / wc N: N as bl numbers them (decimal, as kdb's bc); clear(N) false if unused. */
static int clear_numbered(const char *what, const char *arg, bool (*clear)(unsigned))
{
    long number;

    if (parse_int(arg, &number) != PARSE_OK || number < 1 || number > 0xffff)
        return con_error("bad %s number '%s' (bl lists them)", what, arg);
    if (!clear((unsigned)number))
        return con_error("no %s %s (bl lists them)", what, arg);
    return 0;
}

int cmd_bc(int argc, char **argv)
{
    (void)argc;
    if (strcmp(argv[1], "*") == 0) {
        debug_clear_all();
        return 0;
    }
    return clear_numbered("breakpoint", argv[1], debug_break_clear_number);
}

/* wp ADDR|SYM [w|r|rw] [1|2|4]: kdb's bph ADDR dataw/datar/dataa. */
int cmd_wp(int argc, char **argv)
{
    static const char *const kinds[] = {"", "w", "r", "rw"};
    enum watch_kind kind = WATCH_WRITE;
    uint32_t addr, len = 4;
    int n;

    if (resolve(argv[1], &addr))
        return -1;
    if (argc > 2) {
        unsigned k = 1;
        while (k < 4 && strcmp(argv[2], kinds[k]) != 0)
            k++;
        if (k == 4)
            return con_error("usage: wp ADDR|SYM [w|r|rw] [LEN: 1, 2 or 4]");
        kind = (enum watch_kind)k;
    }
    if (argc > 3 && (parse_u32(argv[3], &len) != PARSE_OK || (len != 1 && len != 2 && len != 4)))
        return con_error("usage: wp ADDR|SYM [w|r|rw] [LEN: 1, 2 or 4]");
    n = debug_watch_set(addr, len, kind, DEBUG_BY_SHELL);
    switch (n) {
    case -1:
        return con_error("every watchpoint register is in use (%u): wc one first",
                         debug_watchpoint_slots());
    case -2:
        return con_error("no debug unit here (virt with HYP=1 has one)");
    case -3:
        return con_error("that watchpoint is already set");
    case -4:
        return con_error("%u bytes at %08x cross a word: the unit watches within one",
                         (unsigned)len, (unsigned)addr);
    default:
        break;
    }
    con_printf("watchpoint %d (%s) of %u bytes at %08x\n", n, watch_names[kind],
               (unsigned)len, (unsigned)addr);
    return 0;
}

int cmd_wc(int argc, char **argv)
{
    (void)argc;
    if (strcmp(argv[1], "*") == 0) {
        for (unsigned n = 1; n <= debug_watchpoint_slots(); n++)
            debug_watch_clear_number(n);
        return 0;
    }
    return clear_numbered("watchpoint", argv[1], debug_watch_clear_number);
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
