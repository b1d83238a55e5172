/* SPDX-License-Identifier: MIT */
/* An SMC from the virt64 guests (SMC calling convention: function id in w0, arguments in
 * x1-x7, result in x0). All eight registers are returned as the call left them, so a
 * caller can see what changed; x8-x17 are declared clobbered, as SMCCC 1.0 allows. */
#ifndef GUEST_VIRT64_SMC_H
#define GUEST_VIRT64_SMC_H

#include <stdint.h>

static inline void smc_call(uint64_t regs[8])
{
    register uint64_t x0 __asm__("x0") = regs[0];
    register uint64_t x1 __asm__("x1") = regs[1];
    register uint64_t x2 __asm__("x2") = regs[2];
    register uint64_t x3 __asm__("x3") = regs[3];
    register uint64_t x4 __asm__("x4") = regs[4];
    register uint64_t x5 __asm__("x5") = regs[5];
    register uint64_t x6 __asm__("x6") = regs[6];
    register uint64_t x7 __asm__("x7") = regs[7];

    __asm__ volatile("smc #0"
                     : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3), "+r"(x4), "+r"(x5), "+r"(x6),
                       "+r"(x7)
                     :
                     : "x8", "x9", "x10", "x11", "x12", "x13", "x14", "x15", "x16", "x17",
                       "memory");
    regs[0] = x0;
    regs[1] = x1;
    regs[2] = x2;
    regs[3] = x3;
    regs[4] = x4;
    regs[5] = x5;
    regs[6] = x6;
    regs[7] = x7;
}

#endif
