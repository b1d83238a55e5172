/* SPDX-License-Identifier: MIT */
/* The SMP guests' second entry point: where PSCI CPU_ON starts the other CPUs. */
    .syntax unified
    .arm

    .text
/* Where PSCI CPU_ON starts the other CPUs: NS SVC, MMU off, r0 = the context (the CPU's
 * index). A stack of its own, the guest's vectors, then secondary_main(index). */
    .global secondary_entry
    .type secondary_entry, %function
secondary_entry:
    ldr     sp, =secondary_stacks
    add     sp, sp, r0, lsl #11         @ 2 KiB each, the top of index's (index >= 1)
    ldr     r1, =guest_vectors
    mcr     p15, 0, r1, c12, c0, 0      @ VBAR
    isb
    bl      secondary_main
1:  wfi
    b       1b
    .size secondary_entry, . - secondary_entry

    .bss
    .balign 8
    .global secondary_stacks
secondary_stacks:
    .space  2048 * 7
