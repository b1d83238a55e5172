/* SPDX-License-Identifier: MIT */
/* What fiqmon and its Hyp shim agree on: the shim's region in the Normal world's RAM (the
 * platform's HYP_BASE, absent from stage 2 so the kernel cannot reach it) and the SMC
 * function ids by which the shim hands an emulated access to the Monitor. Plain numbers:
 * the shim's linker script includes this. */
#ifndef FIQMON_HYP_ABI_H
#define FIQMON_HYP_ABI_H

#define HYP_REGION_SIZE     0x00200000 /* one 2 MiB stage-2 block */
#define HYP_CODE_MAX        0x00003000 /* vectors, code, data */
#define HYP_STACK_TOP       0x00004000 /* offsets from HYP_BASE; CPU n's stack ends at */
#define HYP_STACK_SIZE      0x00000200 /* HYP_STACK_TOP - n * HYP_STACK_SIZE (a trap: ~120 B) */
#define HYP_CPUS            8          /* stacks and counters: MPIDR.Aff0 0-7 */
#define HYP_TABLES          0x00004000 /* stage-2 tables, 4 KiB each */
#define HYP_TABLES_COUNT    6
#define HYP_STATS_PTR       0x20       /* word after the vectors: &hyp_stats[0] */

/* SiP SMC ids (FIQMON_SMC_BASE + n) accepted only from Hyp mode: r1 = offset in the
 * emulated page, r2 = width in bytes, r3 = value (write); r0 = value read. */
#define HYP_SMC_MMIO_READ   0x82000010
#define HYP_SMC_MMIO_WRITE  0x82000011
/* A debug event in the Normal world: r1 = HYP_DEBUG_*, r2 = the address (the pc for a
 * breakpoint, the data address for a watchpoint), r3 = the trapped context (struct
 * hyp_regs, then lr_usr; ELR_hyp and SPSR_hyp hold its pc and cpsr), which fiqmon may
 * rewrite, together with those two and the banked registers, before it returns. */
#define HYP_SMC_DEBUG_EVENT 0x82000012
#define HYP_DEBUG_BREAKPOINT 0u /* a breakpoint, or a BKPT instruction */
#define HYP_DEBUG_WATCHPOINT 1u

#endif
