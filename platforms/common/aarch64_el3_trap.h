/* SPDX-License-Identifier: MIT */
/* The kernel's traps to EL3 that are not SMCs, decoded (portable C: host-tested in
 * tests/unit/test_el3_trap.c). With SCR_EL3.FIQ set, the Normal world's accesses to the
 * GIC CPU interface's Group 0 registers trap here; Group 0 is fiqmon's, so they read as 0
 * (ICC_IAR0_EL1 and ICC_HPPIR0_EL1 as 1023, spurious: a confused kernel never acknowledges
 * a phantom INTID) and writes are ignored. Any other trap is skipped alike. */
#ifndef FIQMON_AARCH64_EL3_TRAP_H
#define FIQMON_AARCH64_EL3_TRAP_H

#include <stdbool.h>
#include <stdint.h>

#define ESR_EC_SYSREG 0x18u /* MSR, MRS or system instruction */

struct el3_trap_answer {
    bool write_rt;  /* a read: put value in register rt of the trapped context */
    unsigned rt;
    uint64_t value;
};

/* What the trapped instruction (syndrome esr) gets; the caller also steps past it. */
struct el3_trap_answer el3_trap_answer(uint64_t esr);

#endif
