/* SPDX-License-Identifier: MIT */
/* Memory on a user's behalf, from the Secure side. Addresses are the interrupted
 * context's virtual addresses, translated through the Normal world's own tables with
 * ATS12NSOPR (md -p: physical). Secure memory is never shown: not fiqmon's RAM, not the
 * flash it booted from. Every access goes through a fault-safe probe. */
#include "armv7_cp15.h"
#include "monitor.h"
#include "platform.h"
#include "platform_def.h"
#include "port_mem_translated.h"
#include "virt.h"

struct ns_sysregs ns_sysregs;
/* The Normal world's banked CP15 registers: read with SCR.NS set (Monitor mode stays
 * Secure; only which bank CP15 accesses reach changes). */
void virt_read_ns_sysregs(struct ns_sysregs *r)
{
    uint32_t scr = cp15_scr_read();

    cp15_scr_write(scr | SCR_NS);
    r->sctlr = cp15_sctlr_read();
    r->ttbr0 = cp15_ttbr0_read();
    r->ttbr1 = cp15_ttbr1_read();
    r->ttbcr = cp15_ttbcr_read();
    r->dacr = cp15_dacr_read();
    r->contextidr = cp15_contextidr_read();
    r->dfsr = cp15_dfsr_read();
    r->dfar = cp15_dfar_read();
    r->ifsr = cp15_ifsr_read();
    r->ifar = cp15_ifar_read();
    r->vbar = cp15_vbar_read();
    cp15_scr_write(scr);
}

void platform_monitor_enter(void)
{
    virt_read_ns_sysregs(&ns_sysregs);
    port_mem_space(PORT_MEM_VIRTUAL);
#if FIQMON_CONSOLE_SHARED
    virt_console_monitor(true);
#endif
}

#if FIQMON_SMP <= 1
const struct ns_sysregs *virt_cpu_sysregs(unsigned n)
{
    (void)n;
    return &ns_sysregs;
}
#endif

/* This CPU's Normal-world translation registers (TTBR0/1, TTBCR, DACR, CONTEXTIDR: the
 * ASID) set to r's, for an ATS12NSOPR through another CPU's tables; ns_sysregs puts this
 * CPU's own back. Their TLB entries match: Linux's ASIDs name one address space on every
 * CPU, and the kernel's global mappings are the same everywhere. */
static void lend_translation_regs(const struct ns_sysregs *r)
{
    uint32_t scr = cp15_scr_read();

    cp15_scr_write(scr | SCR_NS);
    cp15_ttbcr_write(r->ttbcr);
    cp15_dacr_write(r->dacr);
    cp15_contextidr_write(r->contextidr);
    cp15_ttbr0_write(r->ttbr0);
    cp15_ttbr1_write(r->ttbr1);
    cp15_scr_write(scr);
}

void platform_monitor_exit(void)
{
#if FIQMON_CONSOLE_SHARED
    virt_console_monitor(false);
#endif
}

const char *port_mem_unavailable(void)
{
    return 0;
}

static bool in_range(uint32_t a, unsigned len, uint32_t base, uint32_t size)
{
    return a - base < size || (a + len - 1) - base < size;
}

bool port_mem_secret(target_addr_t pa, unsigned len)
{
    return in_range(pa, len, SECURE_RAM_BASE, SECURE_RAM_SIZE) ||
           in_range(pa, len, SECURE_FLASH_BASE, SECURE_FLASH_SIZE) ||
           /* one wire: UART0 is fiqmon's (reading its DR would take a byte off the wire) */
           (FIQMON_CONSOLE_SHARED && in_range(pa, len, DEBUG_UART_BASE, 0x1000));
}

#if FIQMON_HYP
/* Stage 2 off or on again for the Normal world (HCR.VM; Hyp registers need SCR.NS = 1,
 * which Monitor mode may set). QEMU 7.2 aborts on an ATS12NSO* whose stage-1 fault has no
 * long-descriptor code (a domain fault) while stage 2 is on: translate with it off, then
 * refuse what stage 2 leaves out. */
static void stage2(bool on)
{
    uint32_t scr = cp15_scr_read();

    cp15_scr_write(scr | SCR_NS);
    __asm__ volatile("mcr p15, 4, %0, c1, c1, 0\n\tisb" : : "r"(on ? 1u : 0u) : "memory");
    cp15_scr_write(scr);
}
#endif

/* Virtual to physical as the interrupted Normal world's kernel sees it (stage 1, PL1
 * read). Also when the FIQ found the CPU in the Hyp shim (serving one of the kernel's
 * trapped accesses): the addresses users and the kernel commands give are the kernel's,
 * and the shim's own memory is physical (md -p) and fiqmon's. */
bool platform_mem_translate(target_addr_t va, target_addr_t *pa)
{
    struct cpu_frame *f = monitor_frame();

    if (port_mem_space_now() != PORT_MEM_VIRTUAL || !f || f->world != FRAME_WORLD_NORMAL) {
        *pa = va;
        return true;
    }
    /* the selected CPU's tables (`cpu N`, GDB's Hg: its task's user addresses are its
     * own); with long descriptors the TTBRs are 64-bit, not saved: CPU 0's
     * (docs/every-core.md) */
    const struct ns_sysregs *sel = virt_cpu_sysregs(monitor_cpu());
    bool lent = sel != &ns_sysregs && !((sel->ttbcr | ns_sysregs.ttbcr) & TTBCR_EAE);
#if FIQMON_HYP
    if (virt_hyp_installed) {
        uint64_t par;
        stage2(false);
        if (lent)
            lend_translation_regs(sel);
        cp15_ats12nsopr(va);
        if (lent)
            lend_translation_regs(&ns_sysregs);
        stage2(true);
        par = ns_sysregs.ttbcr & TTBCR_EAE ? cp15_par64_read() : cp15_par_read();
        if (par & PAR_F || par >> 32 & 0xff)
            return false;
        *pa = ((uint32_t)par & 0xfffff000u) | (va & 0xfffu);
        /* what stage 2 leaves out: the shim's region, the emulated page */
        return *pa - HYP_BASE >= 0x00200000u && (*pa & ~0xfffu) != HYP_EMULATED_BASE;
    }
#endif
    if (lent)
        lend_translation_regs(sel);
    cp15_ats12nsopr(va);
    if (lent)
        lend_translation_regs(&ns_sysregs);
    if (ns_sysregs.ttbcr & TTBCR_EAE) {
        uint64_t par = cp15_par64_read();
        if (par & PAR_F || par >> 32 & 0xff) /* fault, or above 4 GiB */
            return false;
        *pa = ((uint32_t)par & 0xfffff000u) | (va & 0xfffu);
    } else {
        uint32_t par = cp15_par_read();
        if (par & PAR_F)
            return false;
        *pa = (par & 0xfffff000u) | (va & 0xfffu);
    }
    return true;
}

#if FIQMON_HYP
void port_debug_code_sync(uint32_t addr)
{
    uint32_t pa;

    port_mem_space(PORT_MEM_VIRTUAL);
    if (!platform_mem_translate(addr, &pa))
        return;
    /* fiqmon's accesses bypass the caches (its MMU is off): clean and invalidate the line
     * by its physical address (the MVA with the MMU off), then the instruction caches and
     * branch predictors of every CPU in the Inner Shareable domain */
    __asm__ volatile("dsb\n\t"
                     "mcr p15, 0, %0, c7, c14, 1\n\t" /* DCCIMVAC */
                     "dsb\n\t"
                     "mcr p15, 0, %1, c7, c1, 0\n\t" /* ICIALLUIS */
                     "mcr p15, 0, %1, c7, c1, 6\n\t" /* BPIALLIS */
                     "dsb\n\t"
                     "isb"
                     :
                     : "r"(pa & ~0x1fu), "r"(0)
                     : "memory");
}
#endif
