/* SPDX-License-Identifier: MIT */
/* QEMU virt with TrustZone: fiqmon in the Secure world, its UART's interrupt a group 0
 * (Secure) GIC interrupt delivered as FIQ to Monitor mode. */
#include "platform.h"

#include "armv7_cp15.h"
#include "handoff.h"
#include "cpu_frame.h"
#include "gicv2.h"
#include "monitor.h"
#include "pl011.h"
#include "pl061.h"
#include "platform_def.h"
#include "virt.h"
#include "watchdog.h"

static const struct platform_desc virt = {
    .name = "virt",
    .cpu = "cortex-a15 (secure)",
#if FIQMON_CONSOLE_SHARED
    .debug_uart = "uart0-shared", /* one wire: the kernel's console too */
    .console_shared = true,
#else
    .debug_uart = "uart1",
#endif
    .irq_controller = "gicv2",
    .watchdog_signal = "gic ppi 27/30 (ns virtual/physical timer) pending, deadline unchanged",
    .resident_base = RESIDENT_BASE,
    .boot_delay_ms = BOOT_DELAY_MS,
    .has_monitor_mode = true,
    .cpus = FIQMON_SMP,
    .debug_uart_releasable = false, /* the port is Secure: never the kernel's to use */
    .boot = {
        .ram_base = RAM_BASE,
        .ram_size = RAM_SIZE,
#if FIQMON_HYP /* the shim's region in the Normal world's RAM: the kernel must keep off */
        .reserved_base = HYP_BASE,
        .reserved_size = 0x00200000,
#else
        .reserved_base = RESIDENT_BASE, /* Secure RAM: outside the Normal world's RAM */
        .reserved_size = RESIDENT_SIZE,
#endif
        .machine_id = MACHINE_ID,
        .atags_addr = ATAGS_ADDR,
        .dtb_addr = DTB_ADDR,
        .dtb_max = DTB_MAX,
        .entry_cpsr = ARM_MODE_SVC | ARM_PSR_A | ARM_PSR_I,
        .entry_world = FRAME_WORLD_NORMAL,
        .kernel_addr = KERNEL_ADDR,
        .dtb_in_place = true,
#if FIQMON_CONSOLE_SHARED /* the model's interrupt, for the kernel's device tree */
        .console_irq_node = CONSOLE_MODEL_NODE,
        .console_irq_spi = CONSOLE_MODEL_SPI,
#endif
    },
};
const struct platform_desc *const platform = &virt;

static const struct pl011_config debug_uart = {
    .base = DEBUG_UART_BASE,
    .clock_hz = UART_CLOCK_HZ,
    .baud = DEBUG_UART_BAUD,
};

void platform_init(void)
{
    pl011_init(&debug_uart);
    gicv2_dist_init_all_group1(GICD_BASE);
    gicv2_cpu_init_secure(GICD_BASE, GICC_BASE);
    gicv2_make_secure_fiq(GICD_BASE, DEBUG_UART_INTID, FIQ_PRIORITY, 0x01);
    gicv2_make_secure_fiq(GICD_BASE, SERVICE_SGI, FIQ_PRIORITY, 0x01);
#if FIQMON_CONSOLE_SHARED
    virt_console_init(); /* (the hold timer is off from reset; it is set in Monitor mode) */
    gicv2_make_secure_fiq(GICD_BASE, HOLD_TIMER_INTID, FIQ_PRIORITY, 0x01);
#endif
    pl011_rx_irq_enable(DEBUG_UART_BASE, true);
    /* FIQs to Monitor mode; FW = 0: the Normal world can neither mask them (CPSR.F) nor
     * take them (group 0 is RAZ/WI to it); it may use VFP/NEON. */
    cp15_scr_write(SCR_FIQ | SCR_AW);
    cp15_nsacr_write(NSACR_CP10 | NSACR_CP11);
#if FIQMON_HYP
    if (!virt_hyp_install())
        platform_early_puts("fiqmon: no Virtualization Extensions: Hyp shim not installed\r\n");
#endif
#if FIQMON_SMP > 1
    virt_smp_init();
#endif
#if FIQMON_WATCHDOG /* (the others arm their own timers when PSCI turns them on) */
    port_watchdog_arm(mon_watchdog.timeout_s != 0);
#endif
}

void port_debug_uart_claim(bool claim)
{
    (void)claim; /* the port is Secure: it is never the kernel's to use */
}

void platform_raise_service_fiq(void)
{
    gicv2_sgi_to_self(GICD_BASE, SERVICE_SGI);
}

unsigned port_irq_lines(void)
{
    return gicv2_lines(GICD_BASE);
}

void port_irq_line(unsigned line, struct port_irq_line *out)
{
    struct gicv2_line l;

    gicv2_read_line(GICD_BASE, line, &l);
    out->name = line == DEBUG_UART_INTID ? (FIQMON_CONSOLE_SHARED ? "fiqmon: the one wire (uart0)"
                                                                : "fiqmon debug uart (secure uart1)")
#if FIQMON_CONSOLE_SHARED
                : line == GIC_SPI_BASE + CONSOLE_MODEL_SPI ? "kernel console (pl011 model)"
                : line == HOLD_TIMER_INTID ? "fiqmon knock hold timer (hyp timer)"
#endif
                : line == SERVICE_SGI    ? "fiqmon service sgi"
#if FIQMON_SMP > 1
                : line == CPU_SGI        ? "fiqmon cpu sgi (roundup, lockup report)"
#endif
                : line == 33             ? "uart0 (kernel console)"
                : line == 30             ? "ns physical timer"
                : line == 27             ? "ns virtual timer"
                : line == WATCHDOG_TIMER_INTID ? "fiqmon watchdog (secure physical timer)"
                                         : 0;
    out->raw = l.pending;
    /* SGIs are always enabled: only fiqmon's own is worth listing */
    out->enabled = l.enabled && (line >= 16 || !l.group1);
    out->to_fiq = !l.group1;
    out->fiqs = line < FIQ_COUNTED_LINES ? gic_fiq_count(line) : 0;
}

void platform_reset(void)
{
    pl061_drive(SECURE_GPIO_BASE, SECURE_GPIO_RESET, 1);
    for (;;) {
    }
}


uint32_t platform_ticks(void)
{
    return (uint32_t)cp15_cntpct_read();
}

uint32_t platform_ticks_per_ms(void)
{
    return cp15_cntfrq_read() / 1000u; /* a whole number of kHz on every real part */
}

#if !FIQMON_WATCHDOG
void port_watchdog_held(void)
{
}
#endif
