/* SPDX-License-Identifier: MIT */
/* The Hyp shim's trap decode: a Normal-world access that stage 2 stopped (HSR EC 0x24)
 * becomes one call to an emulated device, or is ignored; the trapped context's registers
 * are updated as the access would have. Portable C: the shim runs it in Hyp mode, the host
 * unit tests run it against a fake device. */
#ifndef FIQMON_HYP_TRAP_H
#define FIQMON_HYP_TRAP_H

#include <stdint.h>

/* HSR (Hyp Syndrome Register) fields */
#define HSR_EC_SHIFT       26
#define HSR_EC_CP14_MR     0x05u  /* MCR/MRC to cp14 (the debug unit: HDCR.TDA) */
#define HSR_EC_CP14_LS     0x06u  /* LDC/STC to cp14 */
#define HSR_EC_CP14_RR     0x0cu  /* MRRC to cp14 */
#define HSR_EC_HVC         0x12u  /* HVC from the Normal world */
#define HSR_EC_PABT_LOWER  0x20u  /* prefetch abort from a lower mode: a breakpoint (TDE) */
#define HSR_EC_DABT_LOWER  0x24u  /* data abort from a lower mode: stage 2, or a watchpoint */
#define HSR_FSC_MASK       0x3fu
#define HSR_FSC_DEBUG      0x22u  /* the abort is a debug event (HDCR.TDE routes them here) */
#define HSR_CP_READ        1u     /* MRC, MRRC: the debug register is read */
#define HSR_CP_RT_SHIFT    5
#define HSR_CP_RT2_SHIFT   10
#define HSR_IL             (1u << 25) /* 32-bit instruction (else 16-bit Thumb) */
#define HSR_ISV            (1u << 24) /* the fields below are valid */
#define HSR_SAS_SHIFT      22         /* access size: 0 byte, 1 halfword, 2 word */
#define HSR_SSE            (1u << 21) /* sign-extend a load */
#define HSR_SRT_SHIFT      16         /* the transfer register */
#define HSR_WNR            (1u << 6)  /* a write */

/* The trapped context: r0-r12, then sp and lr of the mode that trapped (the entry code
 * reads and writes the banked copies). */
struct hyp_regs {
    uint32_t r[15];
};

/* The emulated window of intermediate physical addresses and its device. */
struct hyp_mmio {
    uint32_t base, size;
    uint32_t (*read)(uint32_t offset, unsigned width);
    void (*write)(uint32_t offset, unsigned width, uint32_t value);
};

/* The kernel's debug events (HDCR.TDE): each goes to fiqmon (hyp_abi.h's
 * HYP_SMC_DEBUG_EVENT), which may rewrite the whole context; kind: HYP_DEBUG_*. */
struct hyp_debug {
    void (*event)(struct hyp_regs *regs, uint32_t kind, uint32_t addr);
};

struct hyp_stats {
    uint32_t emulated; /* accesses given to the device */
    uint32_t ignored;  /* outside the window, or not decodable (ISV = 0, pc): RAZ/WI */
    uint32_t other;    /* traps that are not stage-2 data aborts (HVC, ...) */
    uint32_t debug;    /* debug events handed to fiqmon */
    uint32_t cp14;     /* the kernel's debug-register accesses, answered RAZ/WI */
};

/* The IPA of a stage-2 data abort: HPFAR holds bits 39:12 in its bits 31:4. */
static inline uint32_t hyp_fault_ipa(uint32_t hdfar, uint32_t hpfar)
{
    return (hpfar & ~0xfu) << 8 | (hdfar & 0xfffu);
}

/* Handles one trap; returns how far to move ELR_hyp (0, 2 or 4). */
uint32_t hyp_trap(struct hyp_regs *regs, uint32_t hsr, uint32_t hdfar, uint32_t hpfar,
                  const struct hyp_mmio *mmio, const struct hyp_debug *debug,
                  struct hyp_stats *stats);

#endif
