/* SPDX-License-Identifier: MIT */
/* Memory on a user's behalf, from EL3. Addresses are the interrupted context's virtual
 * addresses, translated through the Normal world's own tables with AT S1E1R (AT S1E2R
 * for a VHE kernel, which runs in the EL2&0 regime), SCR_EL3.NS as the kernel had it;
 * md -p: physical. Secure memory is never shown: not fiqmon's RAM, not the flash it booted
 * from. Every access goes through a fault-safe probe (boot/aarch64/mem_probe.S). */
#include "aarch64_sysreg.h"
#include "arm_mem_probe.h"
#include "monitor.h"
#include "platform.h"
#include "platform_def.h"

static enum port_mem_space space;

void platform_monitor_enter(void)
{
    space = PORT_MEM_VIRTUAL;
}

void platform_monitor_exit(void)
{
}

void port_mem_space(enum port_mem_space s)
{
    space = s;
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
static bool translate(target_addr_t va, uint64_t *pa)
{
    struct cpu_frame *f = monitor_frame();
    uint64_t kernel_par, par;

    if (space != PORT_MEM_VIRTUAL || !f || f->world != FRAME_WORLD_NORMAL) {
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

bool port_mem_is_memory(target_addr_t addr)
{
    uint64_t pa;

    return translate(addr, &pa) && (pa - RAM_BASE < RAM_SIZE || pa - FLASH_BASE < FLASH_SIZE);
}

bool port_mem_read(target_addr_t addr, unsigned width, uint32_t *value)
{
    uint64_t pa;

    if (!translate(addr, &pa) || (space != PORT_MEM_FIQMON && port_mem_secret(pa, width)))
        return false;
    return width == 1 ? probe_read8(pa, value)
           : width == 2 ? probe_read16(pa, value)
                        : probe_read32(pa, value);
}

bool port_mem_write(target_addr_t addr, unsigned width, uint32_t value)
{
    uint64_t pa;

    if (!translate(addr, &pa) || (space != PORT_MEM_FIQMON && port_mem_secret(pa, width)))
        return false;
    return width == 1 ? probe_write8(pa, value)
           : width == 2 ? probe_write16(pa, value)
                        : probe_write32(pa, value);
}
