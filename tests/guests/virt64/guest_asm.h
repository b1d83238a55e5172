/* SPDX-License-Identifier: MIT */
/* Assembly helpers for the virt64 guests: every routine in its own section, with type and
 * size, so the disassembly and the symbol table (the tests' pc checks) see functions. */
#ifndef GUEST_VIRT64_ASM_H
#define GUEST_VIRT64_ASM_H

    .macro func name
    .section .text.\name, "ax", %progbits
    .global \name
    .type \name, %function
    .balign 4
\name:
    .endm

    .macro endfunc name
    .size \name, . - \name
    .endm

#endif
