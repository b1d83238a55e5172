/* SPDX-License-Identifier: MIT */
/* Fault-safe single accesses (boot/<arch>/mem_probe.S). Return false if the access faulted. */
#ifndef FIQMON_ARM_MEM_PROBE_H
#define FIQMON_ARM_MEM_PROBE_H

#include <stdbool.h>
#include <stdint.h>

bool probe_read8(uint32_t addr, uint32_t *out);
bool probe_read16(uint32_t addr, uint32_t *out);
bool probe_read32(uint32_t addr, uint32_t *out);
bool probe_write8(uint32_t addr, uint32_t value);
bool probe_write16(uint32_t addr, uint32_t value);
bool probe_write32(uint32_t addr, uint32_t value);

/* The data-abort handler that recognises probe faults (install it at the abort vector
 * while probes may run). */
void dabort_entry(void);

#endif
