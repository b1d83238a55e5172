/* SPDX-License-Identifier: MIT */
/* From EL2 down to EL1 (AArch64, EL1h), for the guests that try things from the kernel's
 * usual level too. */
#include "arch.h"
#include "guest_asm.h"

/* void guest_drop_to_el1(void (*entry)(void))
 * In: EL2. Out: never returns; entry runs at EL1h with DAIF masked, MMU off, on the EL1
 * stack (__el1_stack_top), with start.S's EL1 vectors. HCR_EL2 (EL1 in AArch64, nothing
 * trapped to EL2: an SMC goes straight to EL3) is start.S's. */
func guest_drop_to_el1
    ldr     x1, =SCTLR_EL1_RES1
    msr     sctlr_el1, x1
    ldr     x1, =guest_el1_vectors
    msr     vbar_el1, x1
    ldr     x1, =__el1_stack_top
    msr     sp_el1, x1
    mov     x1, #(PSTATE_DAIF | PSTATE_EL1H)
    msr     spsr_el2, x1
    msr     elr_el2, x0
    isb
    eret
    .ltorg
endfunc guest_drop_to_el1
