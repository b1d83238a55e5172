/* SPDX-License-Identifier: MIT */
/* QEMU versatilepb (ARM926EJ-S, ARMv5TEJ): memory map and fiqmon's place in it.
 *
 *   0x00000000  +-------------------------+  exception vectors (fiqmon's until hand-off;
 *               |  RAM                    |   then only 0x1c-0x27 stay fiqmon's)
 *   0x00000100  |  ATAGS_ADDR: ATAG list handed to Linux
 *   0x00010000  |  LOAD_ADDR: fiqmon image as loaded (ELF, or flat .bin), then the
 *               |  payload header and payload (`make image`)
 *               |  ...                    |
 *   0x07ef0000  |  DTB_ADDR: device tree handed to Linux (up to 1 MiB)
 *   0x07ff0000  +-------------------------+  RESIDENT_BASE: fiqmon's resident home
 *               |  service mailbox (16 B),|  RESIDENT_SIZE (64 KiB), top of RAM
 *               |  code, data, bss,       |
 *               |  buffers, stacks        |
 *   0x08000000  +-------------------------+  RAM_END (128 MiB; run QEMU with -m 128M)
 *   0x10000000     system controller (SYS_LOCK 0x20, SYS_RESETCTL 0x40, SYS_24MHZ 0x5c)
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
#define FLASH_BASE          0x34000000  /* NOR flash, 64 MiB */
#define FLASH_SIZE          0x04000000
#define RESIDENT_SIZE       0x00010000
#define RESIDENT_BASE       (RAM_BASE + RAM_SIZE - RESIDENT_SIZE)
#define RESIDENT_LIMIT      0x00010000  /* make size and the linker enforce it */

#define SYSCTL_BASE         0x10000000
#define VIC_BASE            0x10140000
#define UART0_BASE          0x101f1000
#define UART_STRIDE         0x1000
#define UART0_VIC_LINE      12
#define UART_CLOCK_HZ       24000000
/* VIC line 1 has no device on Versatile: only its software-interrupt bit drives it, which
 * makes it fiqmon's service call ("SMC" of a CPU without TrustZone). */
#define SERVICE_VIC_LINE    1
/* CONSOLE=ring: a held knock candidate ('$' alone) is the kernel's after this quiet time,
 * checked at the kernel's next console call (no timer of fiqmon's is free for it). */
#define HOLD_QUIET_MS       50

/* Hard-lockup watchdog: fiqmon's SP804 timer2 (VIC line 5) samples, as a FIQ, whether the
 * kernel's timer interrupt (timer0/1, VIC line 4, by default) stays pending. */
#define WATCHDOG_TIMER_BASE 0x101e3000
#define WATCHDOG_TIMER_LINE 5
#define WATCHDOG_TIMER_HZ   1000000
#ifndef WATCHDOG_WATCH_LINE
#define WATCHDOG_WATCH_LINE 4
#endif

/* Linux boot protocol */
#define MACHINE_ID          387         /* MACH_TYPE_VERSATILE_PB */
#define ATAGS_ADDR          0x00000100
#define DTB_MAX             0x00100000
#define DTB_ADDR            (RESIDENT_BASE - DTB_MAX)

/* Reset: how long the boot countdown ("Type $3#33 to stay in fiqmon") runs before the
 * payload boots. */
#ifndef BOOT_DELAY_MS
#define BOOT_DELAY_MS       1000
#endif

/* Debug port: UART0 unless the build says DEBUG_UART=1 or 2. */
#ifndef DEBUG_UART
#define DEBUG_UART          0
#endif
#define DEBUG_UART_BASE     (UART0_BASE + DEBUG_UART * UART_STRIDE)
#define DEBUG_UART_LINE     (UART0_VIC_LINE + DEBUG_UART)
#define DEBUG_UART_BAUD     115200

/* Stacks (bytes). The monitor runs on the FIQ stack (Monitor mode's on virt), and the boot
 * runs on it first, with FIQs masked. High-water marks (`stats` stack_used): 764 B full on
 * versatilepb (help, md, unlock, a GDB session); on virt with Debian's kernel 1,200 B for
 * `bt PID` and `bt -t` (the unwinder under the task walk), 768 B for ps and lsmod; the boot
 * 420 B. About 1.25x the deepest. */
#define STACK_FIQ_SIZE      1536
#define STACK_EXC_SIZE      256     /* idle loop, and abt/und/irq: fatal-exception reports */

#endif
