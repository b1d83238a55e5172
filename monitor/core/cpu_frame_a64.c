/* SPDX-License-Identifier: MIT */
/* AArch64 frames (cpu_frame_a64.h); the AArch32 build has cpu_frame.c instead. */
#include "cpu_frame.h"

#if FIQMON_AARCH64
#include <string.h>

uint64_t *frame_sp(struct cpu_frame *f)
{
    switch (f->pstate & A64_PSTATE_M_MASK) {
    case A64_PSTATE_EL1H:
        return &f->sp_el1;
    case A64_PSTATE_EL2H:
        return &f->sp_el2;
    default:
        return &f->sp_el0; /* EL0t, EL1t, EL2t, EL3t (fiqmon's own idle loop) */
    }
}

const char *arm_mode_name(uint32_t psr)
{
    static const char *const names[16] = {"el0t", "???", "???", "???", "el1t", "el1h",
                                          "???",  "???", "el2t", "el2h", "???", "???",
                                          "el3t", "el3h", "???", "???"};

    if (psr & A64_PSTATE_NRW)
        return "aarch32";
    return names[psr & A64_PSTATE_M_MASK];
}

void arm_psr_describe(uint32_t psr, char *out)
{
    static const char flags[] = "NZCV";
    static const struct {
        uint32_t bit;
        char name;
    } masks[] = {{A64_PSTATE_D, 'D'}, {A64_PSTATE_A, 'A'}, {A64_PSTATE_I, 'I'}, {A64_PSTATE_F, 'F'}};
    char *p = out;

    for (int i = 0; i < 4; i++) {
        char c = flags[i];
        *p++ = (psr & (1u << (31 - i))) ? c : (char)(c - 'A' + 'a');
    }
    if (psr & (A64_PSTATE_D | A64_PSTATE_A | A64_PSTATE_I | A64_PSTATE_F))
        *p++ = ' ';
    for (unsigned i = 0; i < sizeof(masks) / sizeof(masks[0]); i++)
        if (psr & masks[i].bit)
            *p++ = masks[i].name;
    *p = '\0';
}

void frame_set_entry(struct cpu_frame *f, uint32_t psr, uint32_t world, target_addr_t entry,
                     uint64_t x0, uint64_t x1, uint64_t x2)
{
    memset(f, 0, sizeof(*f));
    f->x[0] = x0;
    f->x[1] = x1;
    f->x[2] = x2;
    f->pc = entry;
    f->pstate = psr;
    f->world = world;
}
#endif
