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

/* Narrow accesses, for devices that decode the width (an emulated device's pass-through) */
static inline uint16_t mmio_read_16(uintptr_t addr)
{
    return *(volatile uint16_t *)addr;
}

static inline void mmio_write_16(uintptr_t addr, uint16_t value)
{
    *(volatile uint16_t *)addr = value;
}

static inline uint8_t mmio_read_8(uintptr_t addr)
{
    return *(volatile uint8_t *)addr;
}

static inline void mmio_write_8(uintptr_t addr, uint8_t value)
{
    *(volatile uint8_t *)addr = value;
}

static inline void mmio_clrsetbits_32(uintptr_t addr, uint32_t clear, uint32_t set)
{
    mmio_write_32(addr, (mmio_read_32(addr) & ~clear) | set);
}

#endif
