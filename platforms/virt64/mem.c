/* SPDX-License-Identifier: MIT */
/* Memory on a user's behalf, from EL3. Addresses are the interrupted context's virtual
 * addresses, translated through the Normal world's own tables with AT S1E1R (AT S1E2R
 * for a VHE kernel, which runs in the EL2&0 regime), SCR_EL3.NS as the kernel had it;
 * md -p: physical. Secure memory is never shown: not fiqmon's RAM, not the flash it booted
 * from. Every access is a fault-safe probe (port_mem_translated.c, boot/aarch64/mem_probe.S). */
#include "aarch64_sysreg.h"
#include "monitor.h"
#include "platform.h"
#include "platform_def.h"
#include "port_mem_translated.h"

void platform_monitor_enter(void)
{
    port_mem_space(PORT_MEM_VIRTUAL);
}

void platform_monitor_exit(void)
{
}

const char *port_mem_unavailable(void)
{
    return 0;
}

static bool in_range(target_addr_t a, unsigned len, uint64_t base, uint64_t size)
{
    return a - base < size || (a + len - 1) - base < size;
}

bool port_mem_secret(target_addr_t pa, unsigned len)
{
    return in_range(pa, len, SECURE_RAM_BASE, SECURE_RAM_SIZE) ||
           in_range(pa, len, SECURE_FLASH_BASE, SECURE_FLASH_SIZE);
}

/* Virtual to physical as the interrupted Normal-world context sees it (stage 1, a read at
 * EL1, or EL2 under VHE). PAR_EL1 is the kernel's too: put back. */
bool platform_mem_translate(target_addr_t va, target_addr_t *pa)
{
    struct cpu_frame *f = monitor_frame();
    uint64_t kernel_par, par;

    if (port_mem_space_now() != PORT_MEM_VIRTUAL || !f || f->world != FRAME_WORLD_NORMAL) {
        *pa = va;
        return true;
    }
    kernel_par = sysreg_par_el1_read();
    if ((sysreg_hcr_el2_read() & (HCR_EL2_E2H | HCR_EL2_TGE)) == (HCR_EL2_E2H | HCR_EL2_TGE))
        at_s1e2r(va);
    else
        at_s1e1r(va);
    par = sysreg_par_el1_read();
    sysreg_par_el1_write(kernel_par);
    if (par & PAR_EL1_F)
        return false;
    *pa = (par & PAR_EL1_PA_MASK) | (va & 0xfffu);
    return true;
}
