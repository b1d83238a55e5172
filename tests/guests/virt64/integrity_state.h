/* SPDX-License-Identifier: MIT */
/* integrity64's state between rounds (integrity.S loads it, runs, stores it back;
 * integrity.c checks and prints it), and the working words the loop keeps beside it: the
 * loop reaches them through sp, which points here for the whole round. Offsets for the
 * assembly, the struct for C; integrity.c checks that they agree. */
#ifndef GUEST_VIRT64_INTEGRITY_STATE_H
#define GUEST_VIRT64_INTEGRITY_STATE_H

#define IS_X        0       /* x0-x30 */
#define IS_NZCV     248
#define IS_Q        256     /* q0-q31, 16 bytes each */
#define IS_FPSR     768
#define IS_FPCR     776
#define IS_COUNT    784     /* iterations left in this call */
#define IS_X30      792     /* x30 while the exit test borrows it */
#define IS_Q31      800     /* q31 while the floating-point steps borrow it */
#define IS_C_SP     816     /* the C caller's sp */
#define IS_ERRORS   824     /* calls ended by a corrupted count */
#define IS_SYS_SET  832     /* system registers: written at the start of a call */
#define IS_SYS_SEEN (IS_SYS_SET + 8 * SYS_COUNT) /* ... and read back at its end */
#define IS_SIZE     (IS_SYS_SEEN + 8 * SYS_COUNT)

/* The system registers of EL0-EL2 a debugger running at EL3 saves and puts back (or
 * borrows: PAR_EL1 for AT), in the order integrity.S writes and reads them. */
#define SYS_COUNT   10      /* sp_el0 sp_el1 elr_el1 spsr_el1 elr_el2 spsr_el2
                             * tpidr_el0 tpidr_el1 tpidr_el2 par_el1 */

#ifndef __ASSEMBLER__
#include <stdint.h>

struct integrity_state {
    uint64_t x[31];
    uint64_t nzcv;
    uint64_t q[32][2];      /* [n][0]: bits 63:0 of qn */
    uint64_t fpsr, fpcr;
    uint64_t count, x30_spill, q31_spill[2], c_sp, errors;
    uint64_t sys_set[SYS_COUNT];
    uint64_t sys_seen[SYS_COUNT];
} __attribute__((aligned(16)));

void integrity_round(struct integrity_state *s, uint64_t iterations);
#endif

#endif
