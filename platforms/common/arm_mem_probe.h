/* SPDX-License-Identifier: MIT */
/* Fault-safe single accesses (boot/mem_probe.S, boot/aarch64/mem_probe.S) at a physical
 * address (fiqmon runs with its MMU off). Return false if the access faulted. */
#ifndef FIQMON_ARM_MEM_PROBE_H
#define FIQMON_ARM_MEM_PROBE_H

#include <stdbool.h>
#include <stdint.h>

bool probe_read8(uintptr_t addr, uint32_t *out);
bool probe_read16(uintptr_t addr, uint32_t *out);
bool probe_read32(uintptr_t addr, uint32_t *out);
bool probe_write8(uintptr_t addr, uint32_t value);
bool probe_write16(uintptr_t addr, uint32_t value);
bool probe_write32(uintptr_t addr, uint32_t value);

/* The data-abort handler that recognises probe faults (install it at the abort vector
 * while probes may run). */
void dabort_entry(void);

#endif
