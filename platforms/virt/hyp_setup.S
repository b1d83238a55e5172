/* SPDX-License-Identifier: MIT */
/* Arm the Hyp shim: Hyp's registers are written from Monitor mode with SCR.NS = 1 (the
 * only way in from the Secure side). Stage 2 is on from here for the Normal world. */
#include "asm_macros.S"
#include "cpu_frame.h"

    .syntax unified
    .arm
    .arch_extension virt
    .arch_extension sec

#define SCR_NS  (1 << 0)
#define SCR_HCE (1 << 8)
#define HCR_VM  (1 << 0)
#define HDCR_TDE (1 << 8)               @ armv7_debug.h: debug exceptions and cp14 to Hyp
#define DBGDSCR_MDBGEN (1 << 15)
#define HSCTLR_RES1 0x30c50818      @ MMU, caches and alignment checks off; ARM exceptions
#define VTCR_VALUE  0x80000040      @ stage2.h S2_VTCR

/* In: r0 = HVBAR, r1 = sp_hyp, r2/r3 = VTTBR low/high, from Secure SVC or Monitor mode
 * with FIQs masked (CPU 0 at boot; each other CPU when PSCI turns it on). Out: SCR.HCE
 * set, SCR.NS clear again. Clobbers r0-r3, r12. */
func virt_hyp_arm
    push    {r4, lr}                    @ on the caller's stack (Monitor's, or SVC's)
    mrs     r12, cpsr
    cps     #ARM_MODE_MON
    mrc     p15, 0, r4, c1, c1, 0       @ SCR
    orr     r4, r4, #SCR_NS
    orr     r4, r4, #SCR_HCE
    mcr     p15, 0, r4, c1, c1, 0
    isb
    mcr     p15, 4, r0, c12, c0, 0      @ HVBAR
    msr     sp_hyp, r1
    ldr     r0, =HSCTLR_RES1
    mcr     p15, 4, r0, c1, c0, 0       @ HSCTLR
    ldr     r0, =VTCR_VALUE
    mcr     p15, 4, r0, c2, c1, 2       @ VTCR
    mcrr    p15, 6, r2, r3, c2          @ VTTBR (VMID 0)
    mov     r0, #HCR_VM
    mcr     p15, 4, r0, c1, c1, 0       @ HCR: stage 2 for the Normal world's PL0/PL1
    @ The debug unit is fiqmon's (docs/breakpoints.md): its exceptions and the kernel's
    @ cp14 accesses go to the shim; this CPU's OS lock open, monitor debug-mode on.
    mrc     p15, 4, r0, c1, c1, 1       @ HDCR (HPMN: the counters stay the kernel's)
    orr     r0, r0, #HDCR_TDE
    mcr     p15, 4, r0, c1, c1, 1
    mov     r0, #0
    mcr     p14, 0, r0, c1, c0, 4       @ DBGOSLAR: unlock
    isb
    mrc     p14, 0, r0, c0, c2, 2       @ DBGDSCRext
    orr     r0, r0, #DBGDSCR_MDBGEN
    mcr     p14, 0, r0, c0, c2, 2
    mcr     p15, 4, r0, c8, c7, 4       @ TLBIALLNSNH (this CPU's)
    dsb
    bic     r4, r4, #SCR_NS
    mcr     p15, 0, r4, c1, c1, 0
    isb
    msr     cpsr_c, r12
    pop     {r4, pc}
endfunc virt_hyp_arm
