/* SPDX-License-Identifier: MIT */
#include "pl190_vic.h"
#include "mmio.h"

void vic_route(uintptr_t base, unsigned line, bool to_fiq)
{
    uint32_t bit = 1u << line;

    mmio_clrsetbits_32(base + VIC_INTSELECT, bit, to_fiq ? bit : 0);
}

void vic_enable(uintptr_t base, unsigned line, bool enable)
{
    mmio_write_32(base + (enable ? VIC_INTENABLE : VIC_INTENCLEAR), 1u << line);
}

void vic_soft_raise(uintptr_t base, unsigned line, bool raise)
{
    mmio_write_32(base + (raise ? VIC_SOFTINT : VIC_SOFTINTCLEAR), 1u << line);
}

void vic_read_state(uintptr_t base, struct vic_state *st)
{
    st->raw = mmio_read_32(base + VIC_RAWINTR);
    st->enabled = mmio_read_32(base + VIC_INTENABLE);
    st->fiq_select = mmio_read_32(base + VIC_INTSELECT);
    st->irq_status = mmio_read_32(base + VIC_IRQSTATUS);
    st->fiq_status = mmio_read_32(base + VIC_FIQSTATUS);
    st->soft = mmio_read_32(base + VIC_SOFTINT);
}
