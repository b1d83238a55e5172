/* SPDX-License-Identifier: MIT */
/* Volatile MMIO accessors: the only way drivers/ and platforms/ touch device registers. */
#ifndef FIQMON_MMIO_H
#define FIQMON_MMIO_H

#include <stdint.h>

static inline uint32_t mmio_read_32(uintptr_t addr)
{
    return *(volatile uint32_t *)addr;
}

static inline void mmio_write_32(uintptr_t addr, uint32_t value)
{
    *(volatile uint32_t *)addr = value;
}

static inline void mmio_clrsetbits_32(uintptr_t addr, uint32_t clear, uint32_t set)
{
    mmio_write_32(addr, (mmio_read_32(addr) & ~clear) | set);
}

#endif
