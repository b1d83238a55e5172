/* SPDX-License-Identifier: MIT */
/* The versatilepb FIQ path (fiq.c), shared with the port's polled I/O. */
#ifndef FIQMON_VERSATILEPB_FIQ_H
#define FIQMON_VERSATILEPB_FIQ_H

#include <stdint.h>

#include "pl190_vic.h"

#include "service.h"

extern struct fiqmon_mailbox fiqmon_mailbox;

/* FIQs fiqmon took on a VIC line. */
uint32_t vic_fiq_count(unsigned line);

#endif
