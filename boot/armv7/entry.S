/* SPDX-License-Identifier: MIT */
/* Reset entry for ARMv7 platforms with the Security Extensions. fiqmon starts in Secure
 * SVC from flash (QEMU -bios), from a loader address, or from U-Boot - which leaves the
 * MMU and D-cache on. Position-independent until the jump to the resident copy. */
#include "asm_macros.S"
#include "cpu_frame.h"

    .syntax unified
    .arm

#define SCTLR_M (1 << 0)
#define SCTLR_C (1 << 2)
#define SCTLR_Z (1 << 11)
#define SCTLR_I (1 << 12)

/* In: r0-r3 from whoever started us.
 * Out: never returns; resident_start runs with r7 = load address, r8-r11 = r0-r3. */
func _start, .boot
    msr     cpsr_c, #(ARM_MODE_SVC | ARM_PSR_I | ARM_PSR_F)
#if defined(FIQMON_SMP) && FIQMON_SMP > 1
    @ every CPU starts here at once: CPU 0 boots, the others wait for it (the platform's)
    mrc     p15, 0, r12, c0, c0, 5      @ MPIDR
    ands    r12, r12, #0xff             @ affinity 0: the CPU's index
    bne     smp_hold
#endif
    mov     r8, r0
    mov     r9, r1
    mov     r10, r2
    mov     r11, r3

    @ A chainloader may have left the MMU and caches on: write our image (and whatever
    @ the loader put beside it) back to memory, then run with everything off.
    mrc     p15, 0, r0, c1, c0, 0
    tst     r0, #(SCTLR_M | SCTLR_C)
    beq     1f
    bl      v7_dcache_clean_inv_all
    mrc     p15, 0, r0, c1, c0, 0
    bic     r0, r0, #(SCTLR_M | SCTLR_C)
    bic     r0, r0, #(SCTLR_I | SCTLR_Z)
    mcr     p15, 0, r0, c1, c0, 0
    isb
1:  mov     r0, #0
    mcr     p15, 0, r0, c7, c5, 0       @ ICIALLU
    mcr     p15, 0, r0, c8, c7, 0       @ TLBIALL
    mcr     p15, 0, r0, c7, c5, 6       @ BPIALL
    dsb
    isb

    adr     r7, _start
    ldr     r1, =__resident_image_offset
    add     r0, r7, r1
    install_resident
endfunc _start

/* Clean and invalidate every data/unified cache level up to the Level of Coherence, by
 * set/way (ARMv7 cache maintenance by CLIDR/CCSIDR). Uses r0-r7, r12 only, so r8-r11
 * survive. */
func v7_dcache_clean_inv_all, .boot
    mrc     p15, 1, r0, c0, c0, 1       @ CLIDR
    ands    r3, r0, #0x07000000         @ LoC
    lsr     r3, r3, #23                 @ LoC * 2
    beq     5f
    mov     r12, #0                     @ level * 2
1:  add     r2, r12, r12, lsr #1        @ level * 3
    lsr     r1, r0, r2
    and     r1, r1, #7                  @ this level's cache type
    cmp     r1, #2
    blt     4f                          @ no data cache here
    mcr     p15, 2, r12, c0, c0, 0      @ CSSELR: this level's data cache
    isb
    mrc     p15, 1, r1, c0, c0, 0       @ CCSIDR
    and     r2, r1, #7
    add     r2, r2, #4                  @ log2(line length in bytes)
    movw    r4, #0x3ff
    ands    r4, r4, r1, lsr #3          @ ways - 1
    clz     r5, r4                      @ bit position of the way field
    movw    r7, #0x7fff
    ands    r7, r7, r1, lsr #13         @ sets - 1
2:  mov     r6, r4                      @ way counter
3:  orr     r1, r12, r6, lsl r5
    orr     r1, r1, r7, lsl r2
    mcr     p15, 0, r1, c7, c14, 2      @ DCCISW
    subs    r6, r6, #1
    bge     3b
    subs    r7, r7, #1
    bge     2b
4:  add     r12, r12, #2
    cmp     r3, r12
    bgt     1b
5:  mov     r12, #0
    mcr     p15, 2, r12, c0, c0, 0
    dsb
    isb
    bx      lr
endfunc v7_dcache_clean_inv_all
