/* SPDX-License-Identifier: MIT */
/* The kernel log, from the lockless printk ring buffer of Linux 5.10+ (as in 6.1), read
 * with nothing but what VMCOREINFO publishes: SYMBOL(prb) (a pointer to the ring), the
 * offsets in printk_ringbuffer, prb_desc_ring, prb_desc, prb_data_blk_lpos, printk_info
 * and prb_data_ring, and the sizes of prb_desc and printk_info.
 *
 *   desc ring: 2^count_bits descriptors {state_var = state << 30 | id, text lpos
 *              begin/next} and as many printk_info {seq, ts_nsec, text_len, ...};
 *              record seq lives at index seq & (count - 1); head_id/tail_id: newest and
 *              oldest descriptor
 *   data ring: 2^size_bits bytes; a block is {unsigned long id; text}, at begin's index,
 *              or at offset 0 when it would wrap (next is then one wrap ahead of begin);
 *              lpos with bit 0 set means no data
 *
 * A record whose info no longer carries its sequence number, whose descriptor is being
 * written, whose block does not carry its descriptor's id or does not fit, is printed as
 * "<record N: reason>" instead of its text; nothing is trusted to bound a loop. */
#ifndef FIQMON_PRINTK_RB_H
#define FIQMON_PRINTK_RB_H

#include <stdint.h>

#include "vmcoreinfo.h"

/* Prints the last n records (all if n is 0) as dmesg does: "[    1.234567] text", every
 * line of a multi-line record with the prefix. Returns 0, or -1 after one error line. */
int printk_rb_show(const struct vmci *v, uint32_t n);

#endif
