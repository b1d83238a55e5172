/* SPDX-License-Identifier: MIT */
/* Reset entry at EL3 (QEMU -bios starts it at 0x0 with the MMU and caches off), and the
 * first code of the resident copy. Position-independent until the jump to it. */
#include "asm_macros.S"
#include "aarch64_bits.h"

/* In: x0-x3 from whoever started us. Out: never returns; resident_start runs with
 * x7 = load address, x19-x22 = x0-x3 at reset. */
func _start, .boot
    msr     daifset, #0xf
#if defined(FIQMON_SMP) && FIQMON_SMP > 1
    // every CPU starts here at once: CPU 0 boots, the others wait for it (the platform's)
    mrs     x12, mpidr_el1
    and     x12, x12, #0xff             // affinity 0: the CPU's index
    cbnz    x12, smp_hold
#endif
    mov     x19, x0
    mov     x20, x1
    mov     x21, x2
    mov     x22, x3
    mrs     x0, sctlr_el3               // a chainloader may have left them on: all off
    bic     x0, x0, #SCTLR_M
    bic     x0, x0, #SCTLR_C
    bic     x0, x0, #SCTLR_A
    msr     sctlr_el3, x0
    isb
    ic      iallu
    tlbi    alle3
    dsb     sy
    isb

    adr     x7, _start
    ldr     x1, =__resident_image_offset
    add     x0, x7, x1                  // where the loader put the resident image
    ldr     x1, =__resident_copy_start
    ldr     x2, =__resident_copy_end
    cmp     x0, x1
    b.eq    2f
1:  ldp     x3, x4, [x0], #16
    stp     x3, x4, [x1], #16
    cmp     x1, x2
    b.lo    1b
2:  ldr     x1, =__bss_start
    ldr     x2, =__bss_end
3:  cmp     x1, x2
    b.hs    4f
    str     wzr, [x1], #4
    b       3b
4:  ic      iallu
    dsb     sy
    isb
    ldr     x0, =resident_start
    br      x0
    .ltorg
endfunc _start

/* In: x7 = load address, x19-x22 = x0-x3 at reset. The monitor (FIQs, SMCs, the boot)
 * runs at EL3 on SP_EL3; the idle loop at EL3 on SP_EL0 (EL3t), so an exception it takes
 * lands on the monitor's stack. */
func resident_start
    ldr     x0, =boot_image_base
    str     w7, [x0]
    ldr     x0, =__stack_fiq_top
    mov     sp, x0
    ldr     x0, =__stack_svc_top
    msr     sp_el0, x0
    ldr     x0, =el3_vectors
    msr     vbar_el3, x0
    // Lower ELs in AArch64, FIQs to EL3, Hyp calls allowed (the kernel's EL2); Secure
    // until the hand-off (the frame's world sets NS on the way out).
    mov     x0, #(SCR_EL3_RW | SCR_EL3_HCE | SCR_EL3_FIQ | SCR_EL3_RES1)
    msr     scr_el3, x0
    msr     cptr_el3, xzr               // SIMD/FP and the rest not trapped to EL3
    msr     mdcr_el3, xzr
    isb
    mov     x0, x19
    mov     x1, x20
    mov     x2, x21
    mov     x3, x22
    bl      fiqmon_main
    msr     spsel, #0                   // the idle loop's stack (SP_EL0) from here
    bl      port_monitor_stack_paint    // the boot is done with the monitor's stack
    b       idle_loop
    .ltorg
endfunc resident_start
