/* SPDX-License-Identifier: MIT */
/* The boot countdown at reset: a payload is about to boot, and only the knock (or GDB's
 * opening packet) keeps fiqmon in charge; everything else on the line is noise. */
#ifndef FIQMON_COUNTDOWN_H
#define FIQMON_COUNTDOWN_H

#include <stdbool.h>
#include <stdint.h>

/* Counts ms down on the debug port, feeding what arrives to the knock detector (FIQs
 * masked: it polls). Ends on time however much noise comes, and leaves the next service
 * FIQ to boot the payload, or to enter the shell / a GDB session. True if it was stopped. */
bool boot_countdown(uint32_t ms);

#endif
