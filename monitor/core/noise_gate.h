/* SPDX-License-Identifier: MIT */
/* The noise gate: what the FIQ's noise path (each platform's fiq_noise.S, in assembly)
 * reads and updates without calling C. While it is open, a byte that is not '$', CR or LF
 * (knock_quiet_byte) and carries no UART error flag is plain noise: the noise path counts
 * it here and drops it. The monitor opens the gate at the end of each FIQ it handles, when
 * it waits for a knock on a quiet line (knock.h) with nothing queued, and closes it on
 * every change of state. Included by assembly for the offsets. */
#ifndef FIQMON_NOISE_GATE_H
#define FIQMON_NOISE_GATE_H

#define NOISE_GATE_OPEN  0  /* nonzero: the next plain byte is noise */
#define NOISE_GATE_NOISE 4  /* bytes the noise path dropped */
#define NOISE_GATE_FIQS  8  /* FIQs the noise path took whole (the debug port's line's) */

#ifndef __ASSEMBLER__
#include <stddef.h>
#include <stdint.h>

struct noise_gate {
    uint32_t open;
    uint32_t noise;
    uint32_t fiqs;
};

_Static_assert(offsetof(struct noise_gate, open) == NOISE_GATE_OPEN, "noise_gate.open");
_Static_assert(offsetof(struct noise_gate, noise) == NOISE_GATE_NOISE, "noise_gate.noise");
_Static_assert(offsetof(struct noise_gate, fiqs) == NOISE_GATE_FIQS, "noise_gate.fiqs");

extern struct noise_gate noise_gate;
#endif

#endif
