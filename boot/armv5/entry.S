/* SPDX-License-Identifier: MIT */
/* Reset entry for ARMv5 platforms. Runs wherever the image was loaded (QEMU's loader,
 * a boot ROM, U-Boot), so everything before the jump to the resident copy is
 * position-independent: only pc-relative addresses and link-time constants. */
#include "asm_macros.S"
#include "cpu_frame.h"

    .syntax unified
    .arm

/* In: r0-r3 from whoever started us (kept for the boot protocol).
 * Out: never returns; continues at resident_start in the resident copy with r7 = the
 * address this image was loaded at and r8-r11 = r0-r3. */
func _start, .boot
    msr     cpsr_c, #(ARM_MODE_SVC | ARM_PSR_I | ARM_PSR_F)
    mov     r8, r0
    mov     r9, r1
    mov     r10, r2
    mov     r11, r3

    adr     r7, _start                  @ where we run now (kept: payloads follow the image)
    ldr     r1, =__resident_image_offset @ resident image, relative to _start in the file
    add     r0, r7, r1                  @ source
    install_resident
endfunc _start
