/* SPDX-License-Identifier: MIT */
/* The versatilepb FIQ path (fiq.c), shared with the port's polled I/O. */
#ifndef FIQMON_VERSATILEPB_FIQ_H
#define FIQMON_VERSATILEPB_FIQ_H

#include <stdint.h>

#include "pl190_vic.h"

#include "service.h"

extern struct fiqmon_mailbox fiqmon_mailbox;

/* CONSOLE=ring (console_ring.c): the ring's setup, the service call (the ring's address),
 * and the wire bytes the kernel's ring had no room for. */
void vpb_console_init(void);
uint32_t vpb_console_call(void);
uint32_t vpb_console_lost(void);

/* FIQs fiqmon took on a VIC line. */
uint32_t vic_fiq_count(unsigned line);

#endif
