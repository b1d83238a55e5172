/* SPDX-License-Identifier: MIT */
#include "cmd_kernel_info.h"

#include <string.h>

#include "cmd_tasks.h"
#include "command.h"
#include "commands.h"
#include "console.h"
#include "kallsyms.h"
#include "monitor.h"
#include "parse.h"
#include "platform.h"
#include "printk_rb.h"
#include "unwind.h"
#include "unwind_a64.h"
#include "vmcoreinfo.h"

#define KMSG_DEFAULT 20u
#define SYM_MAX_MATCHES 8

const struct vmci *need_kernel(bool symbols)
{
    const char *why = port_mem_unavailable();
    const struct vmci *v;

    if (why) {
        con_error("%s", why);
        return NULL;
    }
    v = kernel_vmcoreinfo(true);
    if (!v) {
        con_error("no Linux kernel found");
    } else if (symbols && !ksyms_ready(v)) {
        con_error("the kernel's kallsyms tables are missing or corrupted");
        v = NULL;
    }
    return v;
}

int cmd_kmsg(int argc, char **argv)
{
    uint32_t n = KMSG_DEFAULT;
    const struct vmci *v;

    if (argc == 2 && cmd_parse_number("count", argv[1], &n))
        return -1;
    v = need_kernel(false);
    return v ? printk_rb_show(v, n) : -1;
}

/* The data symbols a kernel's VMCOREINFO gives (sym NAME finds them too). */
static const struct {
    const char *name;
    unsigned key;
} vmci_data[] = {
    {"init_uts_ns", VMCI_SYM_INIT_UTS_NS},
    {"prb", VMCI_SYM_PRB},
};

bool kernel_data_symbol(const struct vmci *v, const char *name, target_addr_t *addr)
{
    for (unsigned i = 0; i < sizeof(vmci_data) / sizeof(vmci_data[0]); i++) {
        if (strcmp(name, vmci_data[i].name) == 0 && vmci_has(v, VMCI_BIT(vmci_data[i].key))) {
            *addr = v->value[vmci_data[i].key];
            return true;
        }
    }
    return false;
}

static void print_match(const struct ksym *s)
{
    con_printf(TARGET_ADDR_FMT " %s+0x0/0x%x\n", (unsigned long)s->addr, s->name,
               (unsigned)s->size);
}

int cmd_sym(int argc, char **argv)
{
    struct ksym s;
    target_addr_t addr;
    int n;

    (void)argc;
    const struct vmci *v = need_kernel(true);
    if (!v)
        return -1;
    /* a number is an address; a name that happens to be hex ("add") is still a name */
    if (parse_addr(argv[1], &addr) == PARSE_OK) {
        if (ksym_lookup(addr, &s)) {
            con_printf(TARGET_ADDR_FMT " %s+0x%x/0x%x\n", (unsigned long)addr, s.name,
                       (unsigned)(addr - s.addr), (unsigned)s.size);
            return 0;
        }
        if (argv[1][0] <= '9')
            return con_error(TARGET_ADDR_FMT " is not in the kernel's code", (unsigned long)addr);
    }
    n = ksym_find(argv[1], SYM_MAX_MATCHES, print_match);
    if (n < 0)
        return con_error("the kernel's kallsyms tables do not read");
    if (n == 0 && kernel_data_symbol(v, argv[1], &addr)) {
        con_printf(TARGET_ADDR_FMT " %s (VMCOREINFO)\n", (unsigned long)addr, argv[1]);
        return 0;
    }
    return n ? 0 : con_error("no symbol '%s'", argv[1]);
}

static void backtrace_interrupted(bool scan)
{
#if FIQMON_AARCH64
    (void)scan; /* (refused by cmd_bt: the frame records are the whole story) */
    unwind_a64_backtrace(monitor_frame());
#else
    uint32_t regs[16];

    for (unsigned i = 0; i < 16; i++)
        regs[i] = *frame_reg(monitor_frame(), i);
    unwind_backtrace(regs, scan);
#endif
}

int cmd_bt(int argc, char **argv)
{
    bool scan = argc == 2 && strcmp(argv[1], "-s") == 0;

    if (!need_kernel(true))
        return -1;
    if (argc == 2 && strcmp(argv[1], "-a") == 0) { /* every CPU's (stopping them) */
        unsigned was = monitor_cpu(), n = platform->cpus ? platform->cpus : 1u;
        for (unsigned i = 0; i < n; i++) {
            con_printf("cpu%u:\n", i);
            if (monitor_select_cpu(i) == 0)
                backtrace_interrupted(false);
        }
        monitor_select_cpu(was);
        return 0;
    }
    if (scan && FIQMON_AARCH64)
        return con_error("bt -s: an AArch64 kernel keeps frame records; plain bt follows them");
    if (argc == 2 && !scan) {
#if FIQMON_TASKS
        return tasks_backtrace(argv[1]); /* bt -t, bt PID */
#else
        return con_error("bt %s: tasks are not read on this architecture yet", argv[1]);
#endif
    }
    backtrace_interrupted(scan);
    return 0;
}

/* Reading the kernel's memory is what kmsg, sym and bt need permission for. */
static bool may_read(void)
{
    return monitor_permissions() & CMD_READS_MEM && !port_mem_unavailable();
}

void kernel_version_line(void)
{
    const struct vmci *v;

    if (!may_read())
        return;
    v = kernel_vmcoreinfo(true);
    if (v)
        con_printf("linux %s %s\n", v->release, v->version);
    else
        con_puts("linux: none found\n");
}

void kernel_lockup_details(uint32_t kmsg_lines)
{
    const struct cpu_frame *f = monitor_frame();
    const struct vmci *v;

    if (!may_read() || !(v = kernel_vmcoreinfo(f && f->world == FRAME_WORLD_NORMAL)))
        return;
    if (ksyms_ready(v)) {
        con_puts("fiqmon: watchdog: backtrace\n");
        backtrace_interrupted(false);
    }
    if (kmsg_lines && (monitor_permissions() & CMD_READS_KLOG)) {
        con_puts("fiqmon: watchdog: kernel log (last lines)\n");
        printk_rb_show(v, kmsg_lines);
    }
}

static bool annotate(target_addr_t pc, const target_addr_t *lr, bool may_search)
{
    const struct cpu_frame *f = monitor_frame();
    const struct vmci *v;
    struct ksym s;

    /* search only when a Normal world was interrupted (virt with a kernel): never on the
     * plain path of a board without one */
    if (!may_read() ||
        !(v = kernel_vmcoreinfo(may_search && f && f->world == FRAME_WORLD_NORMAL)))
        return false;
    if (!ksyms_ready(v))
        return true;
    for (unsigned i = 0; i < 2; i++) {
        target_addr_t a = i ? (lr ? *lr : 0) : pc;
        if ((!i || lr) && ksym_lookup(a, &s))
            con_printf("%s: %s+0x%x/0x%x\n", i ? "lr" : "pc", s.name, (unsigned)(a - s.addr),
                       (unsigned)s.size);
    }
    return true;
}

void kernel_annotate(target_addr_t pc, const target_addr_t *lr)
{
    annotate(pc, lr, true);
}

void kernel_annotate_next(target_addr_t pc, bool *no_kernel)
{
    if (!annotate(pc, NULL, !*no_kernel))
        *no_kernel = true;
}
