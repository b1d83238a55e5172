/* SPDX-License-Identifier: MIT */
/* What every platform provides to boot/ (the monitor's needs are in monitor/port.h). */
#ifndef FIQMON_PLATFORM_H
#define FIQMON_PLATFORM_H

#include <stdbool.h>
#include <stdint.h>

/* Bring up the debug UART and the interrupt controller with the debug UART's receive
 * interrupt routed to FIQ. Polled output works when it returns. */
void platform_init(void);

/* Hot path, called by the FIQ entry code with only caller-saved registers stacked:
 * acknowledge the FIQ source, drain the debug UART into mon_rx, and return what
 * monitor_fiq_fast() returns (nonzero: save the full context and run the monitor). */
int platform_fiq_fast(void);

/* Polled output for reports made outside the monitor (banner, fatal exceptions). */
void platform_early_puts(const char *s);

/* Build-time settings shown in the banner. */
uint32_t platform_resident_base(void);

/* The boot countdown's length at reset (BOOT_DELAY_MS); monitor/countdown.c runs it. */
uint32_t platform_boot_delay_ms(void);

/* Raise the service FIQ (the kernel's service call, also used by fiqmon itself to get
 * into FIQ context at the end of boot). */
void platform_raise_service_fiq(void);

/* Called by the FIQ entry code around monitor_fiq_full(): make memory access on a user's
 * behalf safe (catch aborts) and undo every change on the way out. */
void platform_monitor_enter(void);
void platform_monitor_exit(void);

#endif
