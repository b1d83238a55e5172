/* SPDX-License-Identifier: MIT */
/* The monitor session: what happens to each received byte, in FIQ context.
 *
 *   WAITING --knock--> ACTIVE (async shell: the kernel runs between keystrokes)
 *      ^                 |  exit
 *      +-----------------+
 *
 * The FIQ entry code calls monitor_fiq_fast() with only caller-saved registers stacked;
 * when it returns nonzero the entry code saves the full context and calls
 * monitor_fiq_full(). Noise therefore never pays for a full context save. */
#ifndef FIQMON_MONITOR_H
#define FIQMON_MONITOR_H

#include <stdbool.h>
#include <stdint.h>

#include "cpu_frame.h"
#include "ring.h"

/* Received bytes; the platform's UART drain is the only producer. */
extern struct ring mon_rx;

struct monitor_stats {
    uint32_t fiqs;      /* FIQs taken */
    uint32_t commands;  /* command lines run */
    uint32_t rx_errors; /* bytes the UART flagged (framing, parity, break, overrun) */
};
extern struct monitor_stats mon_stats;

enum monitor_state { MON_WAITING, MON_ENTERING, MON_ACTIVE };

void monitor_init(int knock_mode);
int monitor_fiq_fast(void);
void monitor_fiq_full(struct cpu_frame *frame);

/* For commands. */
enum monitor_state monitor_state(void);
struct cpu_frame *monitor_frame(void);
void monitor_leave(void);
int monitor_knock_mode(void);
void monitor_set_knock_mode(int mode);
uint32_t monitor_noise_bytes(void);
/* Mask of CMD_* flags that commands may have right now. */
uint32_t monitor_permissions(void);

#endif
