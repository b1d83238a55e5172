/* SPDX-License-Identifier: MIT */
#include "pl061.h"
#include "mmio.h"

void pl061_drive(uintptr_t base, unsigned pin, int level)
{
    uint32_t b = 1u << pin;

    mmio_clrsetbits_32(base + PL061_DIR, 0, b);
    mmio_write_32(base + PL061_DATA + (b << 2), level ? b : 0);
}
