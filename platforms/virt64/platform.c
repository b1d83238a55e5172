/* SPDX-License-Identifier: MIT */
/* QEMU virt, AArch64: fiqmon at EL3, its UART's interrupt a Group 0 GICv3 interrupt
 * delivered as FIQ to EL3 (SCR_EL3.FIQ), the kernel in the Normal world at EL2. */
#include "platform.h"

#include "aarch64_el3_features.h"
#include "aarch64_sysreg.h"
#include "command.h"
#include "cpu_frame.h"
#include "gicv3.h"
#include "pl011.h"
#include "pl061.h"
#include "platform_def.h"
#include "virt64.h"
#include "watchdog.h"

static const struct platform_desc virt64 = {
    .name = "virt64",
    .cpu = "cortex-a57 (el3)",
    .debug_uart = "uart1",
    .irq_controller = "gicv3",
#if FIQMON_SMP < 2 /* (each CPU's own timer is banked to it: with more, CPU 0's alone) */
    .watchdog_signal = "gic ppi 26/27/28/30 (the kernel's el1/el2 timers) pending, deadlines "
                       "unchanged",
#endif
    .resident_base = RESIDENT_BASE,
    .boot_delay_ms = BOOT_DELAY_MS,
    .has_monitor_mode = true,
    .cpus = FIQMON_SMP,
    .debug_uart_releasable = false, /* the port is Secure: never the kernel's to use */
    .boot = {
        .ram_base = RAM_BASE,
        .ram_size = RAM_SIZE,
        .reserved_base = RESIDENT_BASE, /* Secure RAM: outside the Normal world's RAM */
        .reserved_size = RESIDENT_SIZE,
        .machine_id = MACHINE_ID,
        .atags_addr = ATAGS_ADDR,
        .dtb_addr = DTB_ADDR,
        .dtb_max = DTB_MAX,
        /* the kernel enters at EL2 (its hypervisor level: KVM), all exceptions masked */
        .entry_cpsr = A64_PSTATE_EL2H | A64_PSTATE_D | A64_PSTATE_A | A64_PSTATE_I |
                      A64_PSTATE_F,
        .entry_world = FRAME_WORLD_NORMAL,
        .kernel_addr = KERNEL_ADDR,
        .dtb_in_place = true,
    },
};
const struct platform_desc *const platform = &virt64;

/* (allregs shows the system registers: no platform command yet) */
const struct command platform_commands[] = {{NULL, NULL, NULL, NULL, 0, 0, 0, 0}};

static const struct pl011_config debug_uart = {
    .base = DEBUG_UART_BASE,
    .clock_hz = UART_CLOCK_HZ,
    .baud = DEBUG_UART_BAUD,
};

uintptr_t virt64_gicr; /* this CPU's redistributor */

void platform_init(void)
{
    aarch64_el3_enable_features();
    pl011_init(&debug_uart);
    gicv3_dist_init(GICD_BASE);
    virt64_gicr = gicv3_cpu_init(GICR_BASE, sysreg_mpidr_el1_read());
    gicv3_make_spi_fiq(GICD_BASE, DEBUG_UART_INTID, FIQ_PRIORITY);
    gicv3_make_private_fiq(virt64_gicr, SERVICE_SGI, FIQ_PRIORITY);
    pl011_rx_irq_enable(DEBUG_UART_BASE, true);
#if FIQMON_SMP > 1
    virt64_smp_init();
#endif
#if FIQMON_WATCHDOG
    if (platform->watchdog_signal)
        port_watchdog_arm(mon_watchdog.timeout_s != 0);
#endif
}

void port_debug_uart_claim(bool claim)
{
    (void)claim; /* the port is Secure: it is never the kernel's to use */
}

void platform_raise_service_fiq(void)
{
    gicv3_sgi0_to_self(SERVICE_SGI, sysreg_mpidr_el1_read());
}

unsigned port_irq_lines(void)
{
    return gicv3_lines(GICD_BASE);
}

void port_irq_line(unsigned line, struct port_irq_line *out)
{
    struct gicv3_line l;

    gicv3_read_line(GICD_BASE, virt64_gicr, line, &l);
    out->name = line == DEBUG_UART_INTID ? "fiqmon debug uart (secure uart1)"
                : line == SERVICE_SGI    ? "fiqmon service sgi"
                : line == 33             ? "uart0 (kernel console)"
                : line == 30             ? "ns el1 physical timer"
                : line == 27             ? "ns el1 virtual timer"
                : line == 26             ? "ns el2 physical timer"
                : line == 29             ? "secure physical timer"
                                         : 0;
    out->raw = l.pending;
    /* SGIs are always enabled: only fiqmon's own is worth listing */
    out->enabled = l.enabled && (line >= 16 || !l.group1);
    out->to_fiq = !l.group1;
    out->fiqs = line < FIQ_COUNTED_LINES ? virt64_fiq_count(line) : 0;
}

void platform_reset(void)
{
    pl061_drive(SECURE_GPIO_BASE, SECURE_GPIO_RESET, 1);
    for (;;) {
    }
}

uint32_t platform_ticks(void)
{
    return (uint32_t)sysreg_cntpct_el0_read();
}

uint32_t platform_ticks_per_ms(void)
{
    return (uint32_t)(sysreg_cntfrq_el0_read() / 1000u);
}

#if !FIQMON_WATCHDOG
void port_watchdog_held(void)
{
}
#endif

unsigned port_sysregs(struct port_sysreg *out, unsigned max)
{
    const struct port_sysreg regs[] = {
        {"sctlr_el1", sysreg_sctlr_el1_read()},   {"tcr_el1", sysreg_tcr_el1_read()},
        {"mair_el1", sysreg_mair_el1_read()},     {"ttbr0_el1", sysreg_ttbr0_el1_read()},
        {"ttbr1_el1", sysreg_ttbr1_el1_read()},   {"vbar_el1", sysreg_vbar_el1_read()},
        {"esr_el1", sysreg_esr_el1_read()},       {"far_el1", sysreg_far_el1_read()},
        {"contextidr_el1", sysreg_contextidr_el1_read()},
        {"tpidr_el1", sysreg_tpidr_el1_read()},   {"hcr_el2", sysreg_hcr_el2_read()},
        {"sctlr_el2", sysreg_sctlr_el2_read()},   {"vbar_el2", sysreg_vbar_el2_read()},
        {"scr_el3", sysreg_scr_el3_read()},
    };
    unsigned n = sizeof(regs) / sizeof(regs[0]);

    if (n > max)
        n = max;
    for (unsigned i = 0; i < n; i++)
        out[i] = regs[i];
    return n;
}
