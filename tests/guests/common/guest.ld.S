/* SPDX-License-Identifier: MIT */
/* Test guests: the image at GUEST_BASE, then .bss and one stack per mode, all below
 * fiqmon's resident region. Preprocessed with cpp from platform_def.h. */
#include "platform_def.h"

#ifndef GUEST_BASE
#define GUEST_BASE 0x00200000
#endif

#define GUEST_STACK_SVC   0x2000
#define GUEST_STACK_IRQ   0x800
#define GUEST_STACK_EXC   0x400   /* abt, und, sys */
#define GUEST_STACK_FAULT 0x400   /* unexpected exceptions, whatever the mode */

OUTPUT_FORMAT("elf32-littlearm")
OUTPUT_ARCH(arm)
ENTRY(_start)

SECTIONS
{
    . = GUEST_BASE;
    __guest_start = .;

    .text : {
        KEEP(*(.text.start.*))
        *(.text .text.*)
    }
    .rodata : { *(.rodata .rodata.*) }
    .data : { *(.data .data.*) }

    .bss (NOLOAD) : ALIGN(8) {
        __bss_start = .;
        *(.bss .bss.* COMMON)
        . = ALIGN(8);
        __bss_end = .;
    }

    .stacks (NOLOAD) : ALIGN(8) {
        . += GUEST_STACK_SVC;   __stack_svc_top = .;
        . += GUEST_STACK_IRQ;   __stack_irq_top = .;
        . += GUEST_STACK_EXC;   __stack_abt_top = .;
        . += GUEST_STACK_EXC;   __stack_und_top = .;
        . += GUEST_STACK_EXC;   __stack_sys_top = .;
        . += GUEST_STACK_FAULT; __stack_fault_top = .;
    }
    __guest_end = .;

    /DISCARD/ : { *(.ARM.exidx*) *(.ARM.extab*) }
}

ASSERT(GUEST_BASE >= 0x1000, "a guest must leave the vector page and the ATAG list alone")
ASSERT(__guest_end <= RESIDENT_BASE, "the guest runs into fiqmon's resident region")
