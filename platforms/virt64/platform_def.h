/* SPDX-License-Identifier: MIT */
/* QEMU virt, AArch64, with EL3 and EL2 (-M virt,secure=on,virtualization=on,gic-version=3
 * -cpu cortex-a57). fiqmon lives at EL3 in the Secure world, as TF-A's BL31 would; the
 * kernel runs in the Normal world at EL2/EL1 and can neither see fiqmon's memory and UART
 * nor mask or reroute its Group 0 FIQ (SCR_EL3.FIQ).
 *
 *   0x00000000  flash0 (Secure only, 64 MiB): fiqmon image (-bios)
 *   0x08000000  GICv3 distributor         0x080a0000  GICv3 redistributors (128 KiB each)
 *   0x09000000  PL011 UART0: the kernel's console (SPI 1)
 *   0x09040000  PL011 UART1, Secure only: fiqmon's debug port (SPI 8 = INTID 40)
 *   0x090b0000  PL061 GPIO, Secure only: power-off and reset lines
 *   0x0e000000  Secure RAM (16 MiB): RESIDENT_BASE, fiqmon's resident home
 *   0x40000000  RAM (Normal world, 1 GiB with -m 1G): QEMU's device tree at its start
 *   0x40200000  KERNEL_ADDR: where Debian's Image is loaded (2 MiB aligned, as the arm64
 *               boot protocol asks)
 */
#ifndef FIQMON_PLATFORM_DEF_H
#define FIQMON_PLATFORM_DEF_H

#define RAM_BASE            0x40000000
#define RAM_SIZE            0x40000000
#define SECURE_RAM_BASE     0x0e000000
#define SECURE_RAM_SIZE     0x01000000
#define SECURE_FLASH_BASE   0x00000000
#define SECURE_FLASH_SIZE   0x04000000
#define LOAD_ADDR           0x00000000
#define FLASH_BASE          0x00000000  /* both flash banks (the first is Secure) */
#define FLASH_SIZE          0x08000000
#define RESIDENT_BASE       SECURE_RAM_BASE
/* A guard against runaway growth, not the target (make size, docs/benchmarks.md) */
#define RESIDENT_SIZE       0x00018000
#define RESIDENT_LIMIT      0x00018000

#define GICD_BASE           0x08000000
#define GICR_BASE           0x080a0000
#define CONSOLE_UART_BASE   0x09000000
#define DEBUG_UART_BASE     0x09040000
#define DEBUG_UART_INTID    40
#define DEBUG_UART_BAUD     115200
#define UART_CLOCK_HZ       24000000
#define SECURE_GPIO_BASE    0x090b0000
#define SECURE_GPIO_POWEROFF 0          /* QEMU wires this pin to a power-off */
#define SECURE_GPIO_RESET   1           /* QEMU wires this pin to a system reset */

/* fiqmon's own use of the GIC: Group 0, signalled as FIQ, taken to EL3 */
#define FIQ_PRIORITY        0x00
#define SERVICE_SGI         15          /* raised by fiqmon itself to get into FIQ context */
#define FIQ_COUNTED_LINES   64          /* INTIDs whose FIQs are counted one by one */
#define CPU_SGI             14          /* fiqmon's call to the other CPUs (SMP > 1) */

/* Hard-lockup watchdog: the Secure physical timer (CNTPS, PPI 29) is fiqmon's sampling
 * FIQ; it watches the kernel's timers: EL2 physical (26), virtual (27), EL2 virtual (28),
 * physical (30). */
#define WATCHDOG_TIMER_INTID 29
#define WATCHDOG_WATCHED     ((1u << 26) | (1u << 27) | (1u << 28) | (1u << 30))

/* SMP=N: CPUs 1..N-1 start with the boot CPU, wait in Secure memory, run at EL3 on a stack
 * each (PSCI calls, the roundup) and are the kernel's through PSCI CPU_ON. */
#ifndef FIQMON_SMP
#define FIQMON_SMP          1
#endif
#define STACK_CPU_SHIFT     11          /* 2 KiB EL3 stack per secondary CPU */

/* Linux boot protocol (Documentation/arch/arm64/booting.rst) */
#define MACHINE_ID          0           /* (AArch32's r1; unused) */
#define DTB_ADDR            RAM_BASE    /* where QEMU leaves its device tree */
#define DTB_MAX             0x00100000
#define KERNEL_ADDR         0x40200000
#define ATAGS_ADDR          0           /* none on arm64 */

/* SMC function ids: the SiP service range of the SMC calling convention (SMC32). */
#define FIQMON_SMC_BASE     0x82000000

#ifndef BOOT_DELAY_MS
#define BOOT_DELAY_MS       1000
#endif

/* Stacks (bytes). The monitor runs at EL3 on SP_EL3 (the FIQ stack), which the boot uses
 * first; the idle loop (EL3t) runs on SP_EL0, its own. AArch64 frames are twice AArch32's. */
#define STACK_FIQ_SIZE      4096
#define STACK_EXC_SIZE      512

#endif
