/* SPDX-License-Identifier: MIT */
/* fiqmon link map, preprocessed with the platform's platform_def.h.
 * .boot runs where the image was loaded; everything else is linked at the resident home
 * and copied there by the boot stub. */
#include "platform_def.h"

#ifdef __aarch64__
OUTPUT_FORMAT("elf64-littleaarch64")
OUTPUT_ARCH(aarch64)
/* The boot stub copies .text to .data as one block: every section must end where the next
 * begins in both the load and the resident copy, so none may pad in one and not the other
 * (AArch64 literals and tables want 8). */
#define SECTION_END ALIGN(16)
#else
#define SECTION_END ALIGN(4)
OUTPUT_FORMAT("elf32-littlearm")
OUTPUT_ARCH(arm)
#endif
ENTRY(_start)

MEMORY
{
    LOAD (rwx)     : ORIGIN = LOAD_ADDR, LENGTH = RESIDENT_BASE - LOAD_ADDR
    RESIDENT (rwx) : ORIGIN = RESIDENT_BASE, LENGTH = RESIDENT_SIZE
}

SECTIONS
{
    .boot : {
        KEEP(*(.boot .boot.*))
        *(.boot.ltorg)
        . = ALIGN(16);
    } > LOAD

    /* The kernel's service mailbox sits at RESIDENT_BASE, a documented fixed address. */
    .mailbox (NOLOAD) : {
        __resident_start = .;
        KEEP(*(.mailbox))
        . = ALIGN(16);
    } > RESIDENT

    .text : {
        __resident_copy_start = .;
        *(.text.fiq_noise)          /* the hot path first: it never straddles far calls */
        *(.text.fiq_entry)
        *(.text .text.*)
        *(.glue_7 .glue_7t .vfp11_veneer .v4_bx)
        . = SECTION_END;
    } > RESIDENT AT > LOAD

    .rodata : ALIGN(4) {
        *(.rodata .rodata.*)
        . = ALIGN(4);
        __build_id_note = .;
        KEEP(*(.note.gnu.build-id))
        __build_id_note_end = .;
        __rodata_end = .;
        . = SECTION_END;
    } > RESIDENT AT > LOAD

    .data : ALIGN(4) {
        *(.data .data.*)
        . = ALIGN(16);
        __resident_copy_end = .;
    } > RESIDENT AT > LOAD

    .buffers (NOLOAD) : ALIGN(8) {
        __bss_start = .;
        *(.bss.buffers.*)
        . = ALIGN(4);
    } > RESIDENT

    .bss (NOLOAD) : ALIGN(4) {
        *(.bss .bss.*)
        *(COMMON)
        . = ALIGN(4);
        __bss_end = .;
    } > RESIDENT

    /* The monitor's stack, which the boot (SVC, FIQs masked until the idle loop) uses
     * first; then one small stack for the idle loop and the fatal-exception reports of
     * abt, und and irq, which never return and never nest with each other. */
    .stacks (NOLOAD) : ALIGN(16) {
        __stack_fiq_bottom = .;
        . += STACK_FIQ_SIZE;
        __stack_fiq_top = .;
        __stack_boot_top = .;
        . += STACK_EXC_SIZE;
        __stack_svc_top = .;
        __stack_abt_top = .;
        __stack_und_top = .;
        __stack_irq_top = .;
#if defined(FIQMON_SMP) && FIQMON_SMP > 1
        __stack_cpus_bottom = . - (1 << STACK_CPU_SHIFT);   /* CPU n's top: + n * size */
        . += (FIQMON_SMP - 1) << STACK_CPU_SHIFT;
#endif
    } > RESIDENT

    /* kept across a warm reset: outside .bss, so the boot stub leaves it alone */
    .noinit (NOLOAD) : ALIGN(4) {
        *(.noinit .noinit.*)
    } > RESIDENT

    __resident_end = .;
    __resident_image_offset = LOADADDR(.text) - LOADADDR(.boot);
    __image_size = LOADADDR(.data) + SIZEOF(.data) - LOADADDR(.boot);   /* the .bin */

    /DISCARD/ : {
        *(.ARM.exidx* .ARM.extab* .gnu.linkonce.armexidx.*)
        *(.comment .ARM.attributes .eh_frame*)
    }
}

ASSERT(__resident_end - __resident_start <= RESIDENT_LIMIT,
       "fiqmon: resident footprint exceeds RESIDENT_LIMIT")
ASSERT(__resident_start == RESIDENT_BASE, "fiqmon: the mailbox must open the resident region")
ASSERT(LOADADDR(.boot) + SIZEOF(.boot) <= __resident_start,
       "fiqmon: the boot stub copies upwards: the resident home must lie above the load address")
