/* SPDX-License-Identifier: MIT */
/* The Hyp shim's C side (target only): read the syndrome, decode, and hand an access to
 * the emulated page to fiqmon in Monitor mode by SMC. */
#include <stdint.h>

#include "hyp_abi.h"
#include "hyp_trap.h"
#include "platform_def.h"

/* A CPU's own counters: no two CPUs write one word (Hyp's MMU is off: no exclusives). */
struct hyp_stats hyp_stats[HYP_CPUS];

uint32_t hyp_c_entry(struct hyp_regs *regs);

static uint32_t smc(uint32_t fid, uint32_t a1, uint32_t a2, uint32_t a3)
{
    register uint32_t r0 __asm__("r0") = fid;
    register uint32_t r1 __asm__("r1") = a1;
    register uint32_t r2 __asm__("r2") = a2;
    register uint32_t r3 __asm__("r3") = a3;

    __asm__ volatile(".arch_extension sec\n\tsmc #0"
                     : "+r"(r0), "+r"(r1), "+r"(r2), "+r"(r3)
                     :
                     : "memory");
    return r0;
}

static uint32_t emulated_read(uint32_t offset, unsigned width)
{
    return smc(HYP_SMC_MMIO_READ, offset, width, 0);
}

static void emulated_write(uint32_t offset, unsigned width, uint32_t value)
{
    smc(HYP_SMC_MMIO_WRITE, offset, width, value);
}

static const struct hyp_mmio emulated = {
    HYP_EMULATED_BASE, 0x1000, emulated_read, emulated_write,
};

/* The whole context goes to fiqmon: r0-r12, the trapped mode's sp and lr, and lr_usr
 * (the word after them on this stack, hyp_entry.S). For a breakpoint the address is the
 * pc (ELR_hyp); fiqmon reads that itself. */
static void debug_event(struct hyp_regs *regs, uint32_t kind, uint32_t addr)
{
    smc(HYP_SMC_DEBUG_EVENT, kind, addr, (uint32_t)(uintptr_t)regs);
}

static const struct hyp_debug debug = {debug_event};

uint32_t hyp_c_entry(struct hyp_regs *regs)
{
    uint32_t hsr, hdfar, hpfar, mpidr;

    __asm__ volatile("mrc p15, 4, %0, c5, c2, 0" : "=r"(hsr));   /* HSR */
    __asm__ volatile("mrc p15, 4, %0, c6, c0, 0" : "=r"(hdfar)); /* HDFAR */
    __asm__ volatile("mrc p15, 4, %0, c6, c0, 4" : "=r"(hpfar)); /* HPFAR */
    __asm__ volatile("mrc p15, 0, %0, c0, c0, 5" : "=r"(mpidr)); /* MPIDR */
    return hyp_trap(regs, hsr, hdfar, hpfar, &emulated, &debug,
                    &hyp_stats[mpidr & (HYP_CPUS - 1)]);
}
