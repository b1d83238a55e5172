/* SPDX-License-Identifier: MIT */
/* The AArch64 system register values the virt64 guests set up (Arm ARM D13, ARMv8.0 with
 * HCR_EL2.E2H = 0), written out here rather than taken from fiqmon's headers: the guests
 * check fiqmon, they do not share its assumptions. Usable from C and assembly. */
#ifndef GUEST_VIRT64_ARCH_H
#define GUEST_VIRT64_ARCH_H

/* EL2 as the guests run it: MMU, caches, alignment and stack alignment checks off. */
#define SCTLR_EL2_RES1   0x30c50830
/* EL1 the same (hostile's second half). */
#define SCTLR_EL1_RES1   0x30d00800
/* Nothing trapped to EL2, FP/SIMD included (TFP, bit 10, clear). */
#define CPTR_EL2_RES1    0x000033ff
#define HCR_EL2_RW       0x80000000     /* EL1 is AArch64 */

#define PSTATE_EL1H      0x5
#define PSTATE_EL2H      0x9
#define PSTATE_DAIF      0x3c0          /* D, A, I, F: all masked */
#define PSTATE_F         0x40

#define ESR_EC_SHIFT     26
#define ESR_EC_UNKNOWN   0x00           /* an undefined instruction */
#define ESR_EC_DABT_CUR  0x25           /* data abort taken without a change of EL */

#endif
