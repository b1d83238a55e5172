/* SPDX-License-Identifier: MIT */
/* The porting contract: everything the portable monitor core needs from a platform.
 * Implemented by platforms/<name>/ on the target and by tests/unit/fake_port.c on the host. */
#ifndef FIQMON_PORT_H
#define FIQMON_PORT_H

#include <stdbool.h>
#include <stdint.h>

/* Debug port output, polled. While it waits for FIFO space it keeps receiving into the
 * monitor's ring, so a long answer does not overrun the receiver. */
void port_putc(uint8_t c);

/* Move whatever the debug port has received into the monitor's ring (halted loops). */
void port_rx_poll(void);

/* Fault-safe access to the interrupted system's memory on a user's behalf.
 * width is 1, 2 or 4. Returns false, with nothing changed, if the access faulted. */
bool port_mem_read(uint32_t addr, unsigned width, uint32_t *value);
bool port_mem_write(uint32_t addr, unsigned width, uint32_t value);

/* NULL when port_mem_read/write are fault-safe now; otherwise why not (e.g. the kernel
 * moved the vectors where fiqmon cannot catch an abort). The monitor refuses memory
 * commands with that reason rather than risk a fault it cannot catch. */
const char *port_mem_unavailable(void);

/* What addresses port_mem_read/write take from now on. Every monitor entry starts with
 * PORT_MEM_VIRTUAL. */
enum port_mem_space {
    PORT_MEM_VIRTUAL,  /* the interrupted context's virtual addresses (md, mw, GDB) */
    PORT_MEM_PHYSICAL, /* physical addresses on a user's behalf (md -p) */
    PORT_MEM_FIQMON,   /* physical, for fiqmon itself (reading its payload from flash) */
};
void port_mem_space(enum port_mem_space space);
/* Memory no command may show or change: fiqmon's own (and, on TrustZone parts, everything
 * Secure). pa is physical. */
bool port_mem_secret(uint32_t pa, unsigned len);

/* Route the debug UART's receive interrupt to fiqmon (FIQ) or give it back to the kernel;
 * false from port_debug_uart_releasable() when the kernel can never own it (Secure UART). */
void port_debug_uart_claim(bool claim);
bool port_debug_uart_releasable(void);

/* Interrupt controller, one line at a time. */
struct port_irq_line {
    const char *name;   /* who owns the line, or NULL */
    bool raw;           /* asserted */
    bool enabled;
    bool to_fiq;        /* routed to FIQ (PL190 INTSELECT, GIC group 0) */
    uint32_t fiqs;      /* FIQs fiqmon took from this line */
};
unsigned port_irq_lines(void);
void port_irq_line(unsigned line, struct port_irq_line *out);
const char *port_irq_controller(void);

/* FIQs fiqmon has taken since reset, all sources. */
uint32_t port_fiqs_taken(void);

/* A free-running timer's current count (any rate, wrapping): the entropy fiqmon mixes into
 * its unlock nonces (lockdown.h). */
uint32_t port_entropy(void);
/* Busy-wait ms milliseconds (the unlock back-off), in FIQ context. */
void port_delay_ms(uint32_t ms);
/* Milliseconds from a free-running clock (wrapping): the boot countdown's time base, read
 * at least once a minute while it is in use. */
uint32_t port_clock_ms(void);

/* The hard-lockup watchdog's sampling FIQ: start or stop it. port_watchdog_signal() says
 * which kernel timer interrupt it watches; NULL if the platform has no watchdog. */
void port_watchdog_arm(bool on);
const char *port_watchdog_signal(void);

/* Whole-system reset. */
void port_reboot(void) __attribute__((noreturn));

/* Identity of the build and the board. */
const char *port_platform_name(void);
const char *port_cpu_name(void);
const char *port_debug_uart_name(void);
/* The GNU build-id note's descriptor (a hash of the image), or len 0. */
const uint8_t *port_build_id(unsigned *len);
/* The monitor's stack: paint it at boot, then how many bytes the deepest use took. */
void port_monitor_stack_paint(void);
uint32_t port_monitor_stack_used(void);
/* CRC-32 of fiqmon's resident code and constants, read now (tamper check). */
uint32_t port_self_crc(void);
/* Does the saved frame carry a Monitor-mode bank (Security Extensions)? */
bool port_has_monitor_mode(void);

#endif
