/* SPDX-License-Identifier: MIT */
/* Shared by the boot-cost stamps (virt): where the fiqmon-entry stamp is kept, and the
 * console the kernel stamp prints on. */
#ifndef BENCH_STAMP_H
#define BENCH_STAMP_H

/* Normal-world RAM that neither U-Boot (after bootm), fiqmon nor the stub uses: just below
 * fiqmon's standalone load address (0x40200000). */
#define STAMP_ADDR      0x401fff00
#define UART0_BASE      0x09000000      /* virt's Non-secure PL011: U-Boot's console */
#define UART_DR         0x00
#define UART_FR         0x18
#define UART_FR_TXFF    (1 << 5)

#endif
