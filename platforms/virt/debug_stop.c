/* SPDX-License-Identifier: MIT */
/* A debug event in the Normal world (HYP=1): the Hyp shim stopped the kernel on a
 * breakpoint, watchpoint or BKPT and hands its context over by SMC (hyp_abi.h). fiqmon
 * turns it into the cpu_frame a FIQ would have saved at that instruction, lets the monitor
 * have it (monitor/debug/ decides; the session runs here, in the SMC), and gives the
 * context back, edits included: to the shim's saved registers, ELR_hyp, SPSR_hyp and the
 * banked registers, which the shim's return then reloads. */
#include <string.h>

#include "armv7_cp15.h"
#include "breakpoints.h"
#include "cpu_frame.h"
#include "hyp_abi.h"
#include "monitor.h"
#include "platform.h"
#include "virt.h"

/* The shim's frame (hyp_entry.S): r0-r12, the trapped mode's sp and lr, then lr_usr. */
struct shim_frame {
    uint32_t r[13];
    uint32_t sp, lr;
    uint32_t lr_usr;
};

extern struct cpu_frame cpu_frame[];

#define MRS_BANKED(reg)                                                                        \
    ({                                                                                         \
        uint32_t v_;                                                                           \
        __asm__ volatile(".arch_extension virt\n\tmrs %0, " #reg : "=r"(v_));                \
        v_;                                                                                    \
    })
#define MSR_BANKED(reg, v) __asm__ volatile(".arch_extension virt\n\tmsr " #reg ", %0" ::"r"(v))

/* Read and written with SCR.NS = 1, as the SMC came in: Hyp's registers are reachable
 * from Monitor mode only then. */
static void frame_from_shim(struct cpu_frame *f, const struct shim_frame *s)
{
    memcpy(f->r, s->r, sizeof(f->r));
    f->sp_usr = MRS_BANKED(sp_usr);
    f->lr_usr = s->lr_usr;
    f->svc = (struct cpu_bank){MRS_BANKED(sp_svc), MRS_BANKED(lr_svc), MRS_BANKED(spsr_svc)};
    f->abt = (struct cpu_bank){MRS_BANKED(sp_abt), MRS_BANKED(lr_abt), MRS_BANKED(spsr_abt)};
    f->und = (struct cpu_bank){MRS_BANKED(sp_und), MRS_BANKED(lr_und), MRS_BANKED(spsr_und)};
    f->irq = (struct cpu_bank){MRS_BANKED(sp_irq), MRS_BANKED(lr_irq), MRS_BANKED(spsr_irq)};
    f->fiq = (struct cpu_bank){MRS_BANKED(sp_fiq), MRS_BANKED(lr_fiq), MRS_BANKED(spsr_fiq)};
    f->fiq_r8_r12[0] = MRS_BANKED(r8_fiq);
    f->fiq_r8_r12[1] = MRS_BANKED(r9_fiq);
    f->fiq_r8_r12[2] = MRS_BANKED(r10_fiq);
    f->fiq_r8_r12[3] = MRS_BANKED(r11_fiq);
    f->fiq_r8_r12[4] = MRS_BANKED(r12_fiq);
    f->mon = (struct cpu_bank){0, 0, 0};
    f->pc = MRS_BANKED(elr_hyp);
    f->cpsr = MRS_BANKED(spsr_hyp);
    f->world = FRAME_WORLD_NORMAL;
    /* the trapped mode's sp and lr: the shim's copies are the ones it reloads */
    *frame_reg(f, 13) = s->sp;
    *frame_reg(f, 14) = s->lr;
}

static void frame_to_shim(struct cpu_frame *f, struct shim_frame *s)
{
    memcpy(s->r, f->r, sizeof(s->r));
    MSR_BANKED(sp_usr, f->sp_usr);
    MSR_BANKED(sp_svc, f->svc.sp);
    MSR_BANKED(lr_svc, f->svc.lr);
    MSR_BANKED(spsr_svc, f->svc.spsr);
    MSR_BANKED(sp_abt, f->abt.sp);
    MSR_BANKED(lr_abt, f->abt.lr);
    MSR_BANKED(spsr_abt, f->abt.spsr);
    MSR_BANKED(sp_und, f->und.sp);
    MSR_BANKED(lr_und, f->und.lr);
    MSR_BANKED(spsr_und, f->und.spsr);
    MSR_BANKED(sp_irq, f->irq.sp);
    MSR_BANKED(lr_irq, f->irq.lr);
    MSR_BANKED(spsr_irq, f->irq.spsr);
    MSR_BANKED(sp_fiq, f->fiq.sp);
    MSR_BANKED(lr_fiq, f->fiq.lr);
    MSR_BANKED(spsr_fiq, f->fiq.spsr);
    MSR_BANKED(r8_fiq, f->fiq_r8_r12[0]);
    MSR_BANKED(r9_fiq, f->fiq_r8_r12[1]);
    MSR_BANKED(r10_fiq, f->fiq_r8_r12[2]);
    MSR_BANKED(r11_fiq, f->fiq_r8_r12[3]);
    MSR_BANKED(r12_fiq, f->fiq_r8_r12[4]);
    MSR_BANKED(elr_hyp, f->pc);
    MSR_BANKED(spsr_hyp, f->cpsr);
    s->sp = *frame_reg(f, 13); /* the shim writes these to the (new) mode's bank */
    s->lr = *frame_reg(f, 14);
    s->lr_usr = f->lr_usr;
    if ((f->cpsr & ARM_MODE_MASK) == ARM_MODE_USR || (f->cpsr & ARM_MODE_MASK) == ARM_MODE_SYS)
        s->lr_usr = s->lr; /* (usr and sys: the shim's lr slot is lr_usr) */
}

/* The kernel's own BKPT: the Prefetch Abort (a debug event, IFSR 0x2) it would have taken
 * without the shim, at its vector, in Abort mode. */
static void reflect_prefetch_abort(struct cpu_frame *f, const struct ns_sysregs *r)
{
    uint32_t vbar = r->sctlr & (1u << 13) ? 0xffff0000u : r->vbar;
    uint32_t scr = cp15_scr_read();

    f->abt.spsr = f->cpsr;
    f->abt.lr = (f->pc & ~1u) + 4u;
    f->cpsr = (f->cpsr & ~(ARM_MODE_MASK | ARM_PSR_T | 0x0600fc00u | (1u << 24) | (1u << 9))) |
              ARM_MODE_ABT | ARM_PSR_I | ARM_PSR_A |
              (r->sctlr & (1u << 30) ? ARM_PSR_T : 0) |  /* SCTLR.TE */
              (r->sctlr & (1u << 25) ? (1u << 9) : 0);   /* SCTLR.EE */
    f->pc = vbar + 0x0cu;
    cp15_scr_write(scr | SCR_NS); /* the Normal world's IFSR */
    __asm__ volatile("mcr p15, 0, %0, c5, c0, 1" ::"r"(r->ttbcr & TTBCR_EAE ? 0x22u : 0x2u));
    cp15_scr_write(scr);
}

uint32_t virt_debug_event(uint32_t kind, uint32_t addr, uint32_t shim_regs)
{
#if FIQMON_SMP > 1
    unsigned cpu = virt_cpu_index();
#else
    unsigned cpu = 0;
#endif
    struct cpu_frame *f = &cpu_frame[cpu];
    struct shim_frame *s = (struct shim_frame *)shim_regs;
    uint32_t scr = cp15_scr_read();
    enum debug_verdict v;
    enum debug_event_kind event = kind == HYP_DEBUG_WATCHPOINT ? DEBUG_EVENT_WATCHPOINT
                                                               : DEBUG_EVENT_BREAKPOINT;

    frame_from_shim(f, s);
    /* the monitor runs Secure, as on a FIQ: an abort it takes stays fiqmon's */
    cp15_scr_write(scr & ~SCR_NS);
    __asm__ volatile("isb");
#if FIQMON_SMP > 1
    if (cpu != 0) { /* the monitor is CPU 0's: it decides, this CPU waits (smp.c) */
        v = (enum debug_verdict)virt_smp_debug_event(cpu, f, event, addr);
        if (v == DEBUG_REFLECT && event == DEBUG_EVENT_BREAKPOINT)
            reflect_prefetch_abort(f, virt_cpu_sysregs(cpu));
        cp15_scr_write(scr);
        __asm__ volatile("isb");
        frame_to_shim(f, s);
        return 0;
    }
#endif
    virt_read_ns_sysregs(&ns_sysregs);
    monitor_view_cpu(0, f); /* (the text it reads is the kernel's, by this context) */
    v = debug_event(f, 0, event, addr);
    if (v == DEBUG_STOP) {
        platform_monitor_enter();
        monitor_debug_stop(f, 0, f);
        platform_monitor_exit();
    } else {
        monitor_view_cpu(0, 0);
        if (v == DEBUG_REFLECT && event == DEBUG_EVENT_BREAKPOINT)
            reflect_prefetch_abort(f, &ns_sysregs);
    }
    cp15_scr_write(scr);
    __asm__ volatile("isb");
    frame_to_shim(f, s);
    return 0;
}
