/* SPDX-License-Identifier: MIT */
/* The Normal world's console for the virt64 guests: PL011 UART0, polled (write DR, wait
 * while FR.TXFF). Lines end in CR LF ('\n' is sent as both); hex is lowercase. */
#ifndef GUEST_VIRT64_CONSOLE_H
#define GUEST_VIRT64_CONSOLE_H

#include <stdint.h>

#define UART0           0x09000000u
#define UART_DR         0x00u
#define UART_FR         0x18u
#define UART_FR_RXFE    (1u << 4)
#define UART_FR_TXFF    (1u << 5)

void con_putc(char c);
void con_puts(const char *s);
void con_dec(uint64_t v);
void con_hex32(uint32_t v);      /* 8 digits */
void con_hex64(uint64_t v);      /* 16 digits */
int con_getc_nowait(void);       /* a byte from the console, or -1 if none is waiting */

/* Called by start.S's vectors for an exception a guest did not expect; prints
 * `guest: unexpected exception ...` and returns to a halt. */
void guest_unexpected(uint64_t vector, uint64_t el, uint64_t esr, uint64_t elr, uint64_t far);

#endif
