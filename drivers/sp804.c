/* SPDX-License-Identifier: MIT */
#include "sp804.h"
#include "mmio.h"

void sp804_periodic(uintptr_t base, uint32_t load)
{
    mmio_write_32(base + SP804_CONTROL, 0);
    mmio_write_32(base + SP804_INTCLR, 1);
    if (!load)
        return;
    mmio_write_32(base + SP804_LOAD, load);
    mmio_write_32(base + SP804_CONTROL, SP804_CTRL_ENABLE | SP804_CTRL_PERIODIC |
                                            SP804_CTRL_INTEN | SP804_CTRL_32BIT);
}

void sp804_ack(uintptr_t base)
{
    mmio_write_32(base + SP804_INTCLR, 1);
}
