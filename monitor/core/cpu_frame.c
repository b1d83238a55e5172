/* SPDX-License-Identifier: MIT */
/* AArch32 frames (cpu_frame_a32.h); the AArch64 build has cpu_frame_a64.c instead. */
#include "cpu_frame.h"

#if !FIQMON_AARCH64
#include <string.h>

static struct cpu_bank *mode_bank(struct cpu_frame *f, uint32_t mode)
{
    switch (mode) {
    case ARM_MODE_SVC:
        return &f->svc;
    case ARM_MODE_ABT:
        return &f->abt;
    case ARM_MODE_UND:
        return &f->und;
    case ARM_MODE_IRQ:
        return &f->irq;
    case ARM_MODE_FIQ:
        return &f->fiq;
    case ARM_MODE_MON:
        return &f->mon;
    default:
        return NULL; /* usr and sys share the usr bank */
    }
}

uint32_t *frame_reg(struct cpu_frame *f, unsigned n)
{
    uint32_t mode = f->cpsr & ARM_MODE_MASK;
    struct cpu_bank *bank = mode_bank(f, mode);

    if (n < 8)
        return &f->r[n];
    if (n < 13)
        return mode == ARM_MODE_FIQ ? &f->fiq_r8_r12[n - 8] : &f->r[n];
    if (n == 13)
        return bank ? &bank->sp : &f->sp_usr;
    if (n == 14)
        return bank ? &bank->lr : &f->lr_usr;
    return &f->pc;
}

uint32_t *frame_spsr(struct cpu_frame *f)
{
    struct cpu_bank *bank = mode_bank(f, f->cpsr & ARM_MODE_MASK);

    return bank ? &bank->spsr : NULL;
}

const char *arm_mode_name(uint32_t psr)
{
    switch (psr & ARM_MODE_MASK) {
    case ARM_MODE_USR:
        return "usr";
    case ARM_MODE_FIQ:
        return "fiq";
    case ARM_MODE_IRQ:
        return "irq";
    case ARM_MODE_SVC:
        return "svc";
    case ARM_MODE_MON:
        return "mon";
    case ARM_MODE_ABT:
        return "abt";
    case ARM_MODE_HYP:
        return "hyp";
    case ARM_MODE_UND:
        return "und";
    case ARM_MODE_SYS:
        return "sys";
    default:
        return "???";
    }
}

void arm_psr_describe(uint32_t psr, char *out)
{
    static const char flags[] = "NZCV";
    char *p = out;

    for (int i = 0; i < 4; i++) {
        char c = flags[i];
        *p++ = (psr & (1u << (31 - i))) ? c : (char)(c - 'A' + 'a');
    }
    if (psr & (ARM_PSR_A | ARM_PSR_I | ARM_PSR_F | ARM_PSR_T))
        *p++ = ' ';
    if (psr & ARM_PSR_A)
        *p++ = 'A';
    if (psr & ARM_PSR_I)
        *p++ = 'I';
    if (psr & ARM_PSR_F)
        *p++ = 'F';
    if (psr & ARM_PSR_T)
        *p++ = 'T';
    *p = '\0';
}

void frame_set_entry(struct cpu_frame *f, uint32_t psr, uint32_t world, target_addr_t entry,
                     uint32_t r0, uint32_t r1, uint32_t r2)
{
    f->world = world;
    memset(f->r, 0, sizeof(f->r));
    f->r[0] = r0;
    f->r[1] = r1;
    f->r[2] = r2;
    f->pc = entry;
    f->cpsr = psr;
    *frame_reg(f, 13) = 0;
    *frame_reg(f, 14) = 0;
}
#endif
