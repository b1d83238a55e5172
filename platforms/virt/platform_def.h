/* SPDX-License-Identifier: MIT */
/* QEMU virt, AArch32, with the Security Extensions (-M virt,secure=on -cpu cortex-a15).
 * fiqmon lives in the Secure world; the kernel runs in the Normal world and can neither
 * see fiqmon's memory and UART nor mask or reroute its FIQ.
 *
 *   0x00000000  flash0 (Secure only, 64 MiB): fiqmon image (-bios), optional payload
 *   0x08000000  GICv2 distributor         0x08010000  GICv2 CPU interface
 *   0x09000000  PL011 UART0: the kernel's console (SPI 1)
 *   0x09040000  PL011 UART1, Secure only: fiqmon's debug port (SPI 8 = INTID 40)
 *   0x090b0000  PL061 GPIO, Secure only: system reset line
 *   0x0e000000  Secure RAM (16 MiB): RESIDENT_BASE, fiqmon's resident home (64 KiB)
 *   0x40000000  RAM (Normal world, 1 GiB with -m 1G): QEMU's device tree at its start
 *   0x40800000  KERNEL_ADDR: where a zImage is expected when no payload comes with fiqmon
 *   0x7fe00000  HYP_BASE (HYP=1): the Hyp shim and its stage-2 tables, 2 MiB that stage 2
 *               hides from the kernel (and a /memreserve/ tells it about)
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
/* 96 KiB of the 16 MiB Secure RAM: the fullest build (HYP=1 CONSOLE=shared SMP=4 with
 * breakpoints) outgrew 64 KiB. A guard against runaway growth, not the target (make size,
 * docs/benchmarks.md) */
#define RESIDENT_SIZE       0x00018000
#define RESIDENT_LIMIT      0x00018000

#define GICD_BASE           0x08000000
#define GICC_BASE           0x08010000
#define CONSOLE_UART_BASE   0x09000000
#if defined(FIQMON_CONSOLE_SHARED) && FIQMON_CONSOLE_SHARED
/* One wire (CONSOLE=shared): UART0 is fiqmon's; the kernel gets a model of it, whose
 * interrupt is a free SPI (the real one is group 0 now): its device tree is told. */
#define DEBUG_UART_BASE     0x09000000
#define DEBUG_UART_INTID    33
#define CONSOLE_MODEL_SPI   9           /* INTID 41: SPIs 9-15 are unused on virt */
#define CONSOLE_MODEL_NODE  "pl011@9000000"
#define HOLD_TIMER_INTID    26          /* the Hyp timer (CNTHP): no one else's here */
#define HOLD_QUIET_MS       50          /* a held '$' goes to the kernel after this */
#else
#define DEBUG_UART_BASE     0x09040000
#define DEBUG_UART_INTID    40
#endif
#define DEBUG_UART_BAUD     115200
#define UART_CLOCK_HZ       24000000
#define SECURE_GPIO_BASE    0x090b0000
#define SECURE_GPIO_POWEROFF 0          /* QEMU wires this pin to a power-off */
#define SECURE_GPIO_RESET   1           /* QEMU wires this pin to a system reset */

/* The Hyp shim (HYP=1, docs/one-wire.md): the top 2 MiB of RAM; the page it emulates */
#define HYP_BASE            0x7fe00000  /* RAM_BASE + RAM_SIZE - 2 MiB */
#define HYP_EMULATED_BASE   CONSOLE_UART_BASE

/* fiqmon's own use of the GIC: group 0, signalled as FIQ to Monitor mode */
#define FIQ_PRIORITY        0x00
#define SERVICE_SGI         15          /* raised by fiqmon itself to get into FIQ context */
#define CPU_SGI             14          /* fiqmon's call to the other CPUs (SMP > 1) */

/* SMP=N: CPUs 1..N-1 start with the boot CPU, wait in Secure memory, run in Monitor mode on
 * a stack each (PSCI calls, the roundup) and are the kernel's through PSCI CPU_ON. */
#ifndef FIQMON_SMP
#define FIQMON_SMP          1
#endif
#define STACK_CPU_SHIFT     9           /* 512-byte Monitor stack per secondary CPU */

/* Hard-lockup watchdog: the Secure physical timer (CNTPS, PPI 13) is fiqmon's sampling
 * FIQ; it watches the Normal world's virtual (PPI 11) and physical (PPI 14) timers, the
 * ones a kernel without Hyp mode can use (docs/kernel-contract.md). */
#define WATCHDOG_TIMER_INTID 29
#define WATCHDOG_WATCHED     ((1u << 27) | (1u << 30))

/* Linux boot protocol */
#define MACHINE_ID          0xffffffff  /* device tree only */
#define DTB_ADDR            RAM_BASE    /* where QEMU leaves its device tree */
#define DTB_MAX             0x00100000
#define KERNEL_ADDR         0x40800000
#define ATAGS_ADDR          (RAM_BASE + 0x100)

/* SMC function ids: the SiP service range of the SMC calling convention. */
#define FIQMON_SMC_BASE     0x82000000

#ifndef BOOT_DELAY_MS
#define BOOT_DELAY_MS       1000
#endif

/* Stacks (bytes). The monitor runs on the FIQ stack (Monitor mode's on virt), and the boot
 * runs on it first, with FIQs masked. High-water marks (`stats` stack_used): 764 B full on
 * versatilepb (help, md, unlock, a GDB session); on virt with Debian's kernel 1,200 B for
 * `bt PID` and `bt -t` (the unwinder under the task walk), 768 B for ps and lsmod; the boot
 * 420 B. About 1.25x the deepest. */
#define STACK_FIQ_SIZE      1536
#define STACK_EXC_SIZE      256     /* idle loop, and abt/und/irq: fatal-exception reports */

#endif
