/* SPDX-License-Identifier: MIT */
/* 32-bit device register access for the virt64 guests (MMU off: every data access is to
 * Device memory, so these must be single aligned word accesses, as they are). */
#ifndef GUEST_VIRT64_MMIO_H
#define GUEST_VIRT64_MMIO_H

#include <stdint.h>

static inline uint32_t mmio_read32(uintptr_t addr)
{
    return *(volatile uint32_t *)addr;
}

static inline void mmio_write32(uintptr_t addr, uint32_t value)
{
    *(volatile uint32_t *)addr = value;
}

#endif
