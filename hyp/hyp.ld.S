/* SPDX-License-Identifier: MIT */
/* The Hyp shim: its own small image, linked where fiqmon copies it (HYP_BASE, Normal-world
 * RAM that stage 2 hides from the kernel). Everything, .bss included, is in the binary. */
#include "platform_def.h"
#include "hyp_abi.h"

OUTPUT_FORMAT("elf32-littlearm")
OUTPUT_ARCH(arm)
ENTRY(hyp_vectors)

SECTIONS
{
    . = HYP_BASE;
    .text : {
        KEEP(*(.text.hyp_vectors))
        *(.text .text.*)
        *(.rodata .rodata.*)
    }
    .data : ALIGN(4) {
        *(.data .data.*)
        *(.bss .bss.*)
        *(COMMON)
        . = ALIGN(4);
    }
    __hyp_end = .;
    ASSERT(__hyp_end <= HYP_BASE + HYP_CODE_MAX, "the Hyp shim outgrew HYP_CODE_MAX")
    /DISCARD/ : { *(.ARM.exidx*) *(.ARM.attributes) *(.comment) *(.note*) }
}
