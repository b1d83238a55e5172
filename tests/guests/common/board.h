/* SPDX-License-Identifier: MIT */
/* What the test guests know about QEMU versatilepb. Addresses and register layouts come
 * from fiqmon's own headers (platform_def.h draws the memory map); this adds what fiqmon
 * does not use. The guests keep the kernel contract (docs/kernel-contract.md):
 *
 *   0x00000000  vectors: guests write 0x00-0x18 and 0x24-0x3c, never 0x1c/0x20
 *   GUEST_BASE  the guest (0x00200000; see tests/guests/README.md)
 *   0x07ff0000  fiqmon's resident region: never touched
 *   0x101e2000  SP804 timer0/1, VIC line 4 (input clock 1 MHz)
 *   0x101e3000  SP804 timer2/3, VIC line 5: fiqmon's watchdog (WATCHDOG_TIMER_*): not used
 *   0x101f1000  UART0: fiqmon's debug port, never touched
 *   0x101f2000  UART1: the guests' console (CONSOLE_UART_BASE)
 */
#ifndef GUEST_BOARD_H
#define GUEST_BOARD_H

#include "platform_def.h"

#define TIMER01_BASE        0x101e2000
#define TIMER01_VIC_LINE    4
#define TIMER_CLOCK_HZ      1000000     /* QEMU's versatilepb SP804 input clock */
#define SYS_24MHZ_HZ        24000000    /* the system controller's SYS_24MHZ counter */

#ifndef CONSOLE_UART_BASE
#define CONSOLE_UART_BASE   (UART0_BASE + UART_STRIDE)  /* UART1: QEMU's second -serial */
#endif
#if CONSOLE_UART_BASE == DEBUG_UART_BASE
#error "CONSOLE_UART_BASE is fiqmon's debug UART"
#endif

#endif
