/* SPDX-License-Identifier: MIT */
/* The test guests' runtime: start-up (start.S), console, exception vectors, VIC and timer
 * helpers. Every guest provides guest_name and guest_main. */
#ifndef GUEST_H
#define GUEST_H

#include <stdbool.h>
#include <stdint.h>

#include "arm_cpu.h"
#include "board.h"

/* Provided by each guest. start.S calls guest_main in SVC mode, IRQs masked, FIQs enabled,
 * with r0-r2 as the guest received them; if it returns, the guest idles forever. */
extern const char guest_name[];
void guest_main(uint32_t r0, uint32_t r1, uint32_t r2);

/* Console: polled PL011 at CONSOLE_UART_BASE; '\n' goes out as CR LF.
 * con_printf knows %s %c %d %u %x %%, an 'l' length (ignored: int and long are both 32-bit
 * here), and a width with optional '0' flag (%08lx). */
void con_putc(char c);
void con_puts(const char *s);
/* Up to max bytes of untrusted text, stopping at NUL; unprintable bytes print as '?'. */
void con_put_text(const char *s, uint32_t max);
void con_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Exception vectors (vectors.S). vectors_install writes the words 0x00-0x18 and the literal
 * words 0x24-0x3c (entry k: `ldr pc, [pc, #0x1c]`, literal at 0x24 + 4k), never the FIQ
 * words 0x1c/0x20, and selects low vectors. Every entry but IRQ reports an unexpected
 * exception and stops. irq_vector is an assembly entry: irq_entry, or a guest's own. */
void vectors_install(void (*irq_vector)(void));
/* Generic IRQ entry: saves the AAPCS caller-saved registers, calls irq_handler, returns. */
void irq_entry(void);
extern void (*volatile irq_handler)(void);

/* Called by the fault entries on the fault stack; prints what happened and stops. */
void guest_fault(uint32_t kind, uint32_t pc, uint32_t spsr) __attribute__((noreturn));
/* Stops for good: wait for interrupts in a loop (FIQs still reach fiqmon). */
void guest_idle(void) __attribute__((noreturn));

/* Routes nothing: guests never write VIC INTSELECT (a read-modify-write could race
 * fiqmon's and clear a line it owns). Every line is IRQ-routed at reset, so this only
 * checks that `line` still is, enables it in the VIC and starts the first SP804 timer of the
 * pair at `base`, interrupting every `period` timer clocks (TIMER_CLOCK_HZ / hz). Prints
 * why and returns false if the line is FIQ-routed. */
bool guest_timer_irq_start(uintptr_t base, unsigned line, uint32_t period);

/* The free-running 24 MHz counter of the system controller (wraps every ~179 s). */
uint32_t sys_24mhz(void);

#endif
