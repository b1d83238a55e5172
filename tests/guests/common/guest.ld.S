/* SPDX-License-Identifier: MIT */
/* Test guests: the image at GUEST_BASE, then .bss and one stack per mode, all below
 * fiqmon's resident region. Preprocessed with cpp from platform_def.h. */
#include "platform_def.h"

#ifndef GUEST_BASE
#define GUEST_BASE 0x00200000
#endif

#define STACK_SVC_SIZE   0x2000
#define STACK_IRQ_SIZE   0x800
#define STACK_EXC_SIZE   0x400   /* abt, und, sys */
#define STACK_FAULT_SIZE 0x400   /* unexpected exceptions, whatever the mode */

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
        . += STACK_SVC_SIZE;   __stack_svc_top = .;
        . += STACK_IRQ_SIZE;   __stack_irq_top = .;
        . += STACK_EXC_SIZE;   __stack_abt_top = .;
        . += STACK_EXC_SIZE;   __stack_und_top = .;
        . += STACK_EXC_SIZE;   __stack_sys_top = .;
        . += STACK_FAULT_SIZE; __stack_fault_top = .;
    }
    __guest_end = .;

    /DISCARD/ : { *(.ARM.exidx*) *(.ARM.extab*) }
}

ASSERT(GUEST_BASE >= 0x1000, "a guest must leave the vector page and the ATAG list alone")
ASSERT(__guest_end <= RESIDENT_BASE, "the guest runs into fiqmon's resident region")
