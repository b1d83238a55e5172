/* SPDX-License-Identifier: MIT */
/* pc, regs, allregs: the context the FIQ interrupted, from the saved frame (AArch32;
 * cmd_regs_a64.c is AArch64's). */
#include "commands.h"

#if !FIQMON_AARCH64

#include "cmd_kernel_info.h"
#include "console.h"
#include "cpu_frame.h"
#include "monitor.h"
#include "platform.h"

static void print_psr(const char *name, uint32_t psr)
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
    con_printf("pc=%08x ", (unsigned)f->pc);
    print_psr("cpsr", f->cpsr);
    con_puts("\n");
    kernel_annotate(f->pc, NULL);
    if (platform->cpus > 1) /* and every CPU, sampled: none stops */
        cpu_list();
    return 0;
}

static void print_regs(struct cpu_frame *f)
{
    static const char *const names[16] = {"r0", "r1", "r2",  "r3",  "r4",  "r5", "r6", "r7",
                                          "r8", "r9", "r10", "r11", "r12", "sp", "lr", "pc"};
    uint32_t *spsr = frame_spsr(f);

    for (unsigned i = 0; i < 16; i++)
        con_printf("%s=%08x%s", names[i], (unsigned)*frame_reg(f, i), i % 4 == 3 ? "\n" : " ");
    print_psr("cpsr", f->cpsr);
    if (spsr) {
        con_puts(" ");
        print_psr("spsr", *spsr);
    }
    con_puts("\n");
    kernel_annotate(f->pc, frame_reg(f, 14));
}

int cmd_regs(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    print_regs(monitor_frame());
    return 0;
}

static void print_bank(const char *mode, const struct cpu_bank *b)
{
    con_printf("sp_%s=%08x lr_%s=%08x spsr_%s=%08x\n", mode, (unsigned)b->sp, mode,
               (unsigned)b->lr, mode, (unsigned)b->spsr);
}

int cmd_allregs(int argc, char **argv)
{
    struct cpu_frame *f = monitor_frame();

    (void)argc;
    (void)argv;
    print_regs(f);
    con_printf("sp_usr=%08x lr_usr=%08x\n", (unsigned)f->sp_usr, (unsigned)f->lr_usr);
    print_bank("svc", &f->svc);
    print_bank("abt", &f->abt);
    print_bank("und", &f->und);
    print_bank("irq", &f->irq);
    for (unsigned i = 0; i < 5; i++)
        con_printf("r%u_fiq=%08x ", i + 8, (unsigned)f->fiq_r8_r12[i]);
    con_puts("\n");
    print_bank("fiq", &f->fiq);
    if (platform->has_monitor_mode)
        print_bank("mon", &f->mon);
    return 0;
}
#endif
