/* SPDX-License-Identifier: MIT */
/* QEMU versatilepb (ARM926EJ-S, ARMv5TEJ): memory map and fiqmon's place in it.
 *
 *   0x00000000  +-------------------------+  exception vectors (fiqmon's until hand-off;
 *               |  RAM                    |   then only 0x1c-0x27 stay fiqmon's)
 *   0x00010000  |  LOAD_ADDR: fiqmon image as loaded (ELF, or flat .bin)
 *               |  ...                    |
 *   0x07ff0000  +-------------------------+  RESIDENT_BASE: fiqmon's resident home
 *               |  code, data, bss,       |  RESIDENT_SIZE (64 KiB), top of RAM
 *               |  buffers, stacks        |
 *   0x08000000  +-------------------------+  RAM_END (128 MiB; run QEMU with -m 128M)
 *   0x10000000     system controller (SYS_LOCK 0x20, SYS_RESETCTL 0x40)
 *   0x10140000     PL190 VIC
 *   0x101f1000     PL011 UART0 (VIC line 12)
 *   0x101f2000     PL011 UART1 (VIC line 13)
 *   0x101f3000     PL011 UART2 (VIC line 14)
 */
#ifndef FIQMON_PLATFORM_DEF_H
#define FIQMON_PLATFORM_DEF_H

#define RAM_BASE            0x00000000
#define RAM_SIZE            0x08000000
#define LOAD_ADDR           0x00010000
#define RESIDENT_SIZE       0x00010000
#define RESIDENT_BASE       (RAM_BASE + RAM_SIZE - RESIDENT_SIZE)
#define RESIDENT_LIMIT      0x00010000  /* make size and the linker enforce it */

#define SYSCTL_BASE         0x10000000
#define VIC_BASE            0x10140000
#define UART0_BASE          0x101f1000
#define UART_STRIDE         0x1000
#define UART0_VIC_LINE      12
#define UART_CLOCK_HZ       24000000

/* Debug port: UART0 unless the build says DEBUG_UART=1 or 2. */
#ifndef DEBUG_UART
#define DEBUG_UART          0
#endif
#define DEBUG_UART_BASE     (UART0_BASE + DEBUG_UART * UART_STRIDE)
#define DEBUG_UART_LINE     (UART0_VIC_LINE + DEBUG_UART)
#define DEBUG_UART_BAUD     115200

/* Stacks, per mode (bytes). The monitor runs on the FIQ stack. */
#define STACK_FIQ_SIZE      3072
#define STACK_SVC_SIZE      1024
#define STACK_EXC_SIZE      256     /* abt, und, irq: fatal-exception reporting only */

#endif
