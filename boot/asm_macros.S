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

    .macro endfunc name
    .size \name, . - \name
    .endm

#endif
