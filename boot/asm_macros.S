/* SPDX-License-Identifier: MIT */
/* Assembly helpers: every routine in its own section with type and size, so the map,
 * the disassembly and gc-sections see functions. */
#ifndef FIQMON_ASM_MACROS_S
#define FIQMON_ASM_MACROS_S

    .macro func name, section=.text
    .section \section\().\name, "ax", %progbits
    .global \name
    .type \name, %function
    .balign 4
\name:
    .endm

/* The end of every boot stub: copy the resident image from r0 (where the loader put it)
 * to its link address (upwards: the linker script asserts the home lies above the load
 * address), clear .bss, and jump into the resident copy. Clobbers r0-r6. */
    .macro install_resident
    ldr     r1, =__resident_copy_start
    ldr     r2, =__resident_copy_end
    cmp     r0, r1
    beq     2f
1:  ldmia   r0!, {r3-r6}
    stmia   r1!, {r3-r6}
    cmp     r1, r2
    blo     1b
2:  ldr     r1, =__bss_start
    ldr     r2, =__bss_end
    mov     r3, #0
3:  cmp     r1, r2
    strlo   r3, [r1], #4
    blo     3b
    ldr     pc, =resident_start
    .endm

    .macro endfunc name
    .size \name, . - \name
    .endm

#endif
