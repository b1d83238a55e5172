/* SPDX-License-Identifier: MIT */
/* pc, regs, allregs on AArch64: x0-x30, sp, pc and PSTATE from the saved frame, the
 * exception registers of each EL below fiqmon's, and the system registers the platform
 * reads (cmd_regs.c is AArch32's). */
#include "commands.h"

#if FIQMON_AARCH64
#include "cmd_kernel_info.h"
#include "console.h"
#include "cpu_frame.h"
#include "monitor.h"
#include "platform.h"
#include "unwind_a64.h"

static void print_pstate(const char *name, uint32_t psr)
{
    char flags[16];

    arm_psr_describe(psr, flags);
    con_printf("%s=%08x (%s %s)", name, (unsigned)psr, arm_mode_name(psr), flags);
}

int cmd_pc(int argc, char **argv)
{
    struct cpu_frame *f = monitor_frame();

    (void)argc;
    (void)argv;
    con_printf("pc=%016lx ", (unsigned long)f->pc);
    print_pstate("pstate", f->pstate);
    con_puts("\n");
    kernel_annotate(f->pc, NULL);
    if (platform->cpus > 1) /* and every CPU, sampled: none stops */
        cpu_list();
    return 0;
}

static void print_regs(struct cpu_frame *f)
{
    for (unsigned i = 0; i < 31; i++)
        con_printf("x%u%s=%016lx%s", i, i < 10 ? " " : "", (unsigned long)f->x[i],
                   i % 4 == 3 ? "\n" : " ");
    con_printf("sp =%016lx\npc =%016lx ", (unsigned long)*frame_sp(f), (unsigned long)f->pc);
    print_pstate("pstate", f->pstate);
    con_puts("\n");
#if FIQMON_LINUX
    target_addr_t lr = unwind_a64_kernel_pac_strip(f->x[30]);
    kernel_annotate(f->pc, &lr);
#endif
}

int cmd_regs(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    print_regs(monitor_frame());
    return 0;
}

int cmd_allregs(int argc, char **argv)
{
    struct cpu_frame *f = monitor_frame();
    struct port_sysreg regs[16];
    unsigned n = port_sysregs(regs, sizeof(regs) / sizeof(regs[0]));

    (void)argc;
    (void)argv;
    print_regs(f);
    con_printf("sp_el0=%016lx\n", (unsigned long)f->sp_el0);
    con_printf("sp_el1=%016lx elr_el1=%016lx spsr_el1=%08lx\n", (unsigned long)f->sp_el1,
               (unsigned long)f->elr_el1, (unsigned long)f->spsr_el1);
    con_printf("sp_el2=%016lx elr_el2=%016lx spsr_el2=%08lx\n", (unsigned long)f->sp_el2,
               (unsigned long)f->elr_el2, (unsigned long)f->spsr_el2);
    for (unsigned i = 0; i < n; i++)
        con_printf("%s=%016lx%s", regs[i].name, (unsigned long)regs[i].value,
                   i % 3 == 2 || i + 1 == n ? "\n" : " ");
    return 0;
}
#endif
