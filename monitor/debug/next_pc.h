/* SPDX-License-Identifier: MIT */
/* Where an ARMv7 CPU can go after one instruction: the addresses a single step arms
 * breakpoints on (QEMU has no address-mismatch breakpoint, the usual way to step). Every
 * address the instruction may reach is listed, so a condition or an IT block needs no
 * evaluation: one of them is hit. Portable: the caller gives the registers and a reader. */
#ifndef FIQMON_NEXT_PC_H
#define FIQMON_NEXT_PC_H

#include <stdbool.h>
#include <stdint.h>

#include "cpu_frame.h"

#define NEXT_PC_THUMB 1u /* bit 0 of an address below: the instruction there is Thumb */

enum next_pc_vector {
    NEXT_PC_NO_VECTOR = 0,
    NEXT_PC_UNDEF = 0x04, /* offsets from the vector base */
    NEXT_PC_SVC = 0x08,
};

struct next_pc {
    uint32_t addr[2]; /* with NEXT_PC_THUMB where the state there is Thumb */
    unsigned n;
    enum next_pc_vector vector; /* the instruction takes this exception */
    uint8_t length;             /* of the instruction at pc: 2 or 4 */
};

/* A fault-safe read of an aligned halfword or word (port_mem_read's shape). */
typedef bool (*next_pc_reader)(uint32_t addr, unsigned width, uint32_t *value);

/* The successors of the instruction at f's pc. False if it cannot be read, or it writes
 * the pc in a way not decoded here (then no step is armed: a step never runs away). */
bool next_pc(struct cpu_frame *f, next_pc_reader read, struct next_pc *out);

#endif
