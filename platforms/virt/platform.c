/* SPDX-License-Identifier: MIT */
/* QEMU virt with TrustZone: fiqmon in the Secure world, its UART's interrupt a group 0
 * (Secure) GIC interrupt delivered as FIQ to Monitor mode. */
#include "platform.h"

#include "armv7_cp15.h"
#include "boot.h"
#include "cpu_frame.h"
#include "gicv2.h"
#include "monitor.h"
#include "pl011.h"
#include "pl061.h"
#include "platform_def.h"
#include "port.h"
#include "virt.h"
#include "watchdog.h"

extern uint32_t boot_image_base;
extern const uint8_t __image_size[];

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
    pl011_rx_irq_enable(DEBUG_UART_BASE, true);
    /* FIQs to Monitor mode; FW = 0: the Normal world can neither mask them (CPSR.F) nor
     * take them (group 0 is RAZ/WI to it); it may use VFP/NEON. */
    cp15_scr_write(SCR_FIQ | SCR_AW);
    cp15_nsacr_write(NSACR_CP10 | NSACR_CP11);
    port_watchdog_arm(mon_watchdog.timeout_s != 0);
}

void port_debug_uart_claim(bool claim)
{
    (void)claim; /* the port is Secure: it is never the kernel's to use */
}

bool port_debug_uart_releasable(void)
{
    return false;
}

void platform_raise_service_fiq(void)
{
    gicv2_sgi_to_self(GICD_BASE, SERVICE_SGI);
}

uint32_t platform_resident_base(void)
{
    return RESIDENT_BASE;
}

uint32_t platform_boot_delay_ms(void)
{
    return BOOT_DELAY_MS;
}

uint32_t port_clock_ms(void)
{
    /* 32-bit steps of the 64-bit counter (no 64-bit division); they wrap after a minute
     * at QEMU's 62.5 MHz, and the countdown reads far more often than that */
    static uint32_t last, ticks, ms;
    uint32_t now = (uint32_t)cp15_cntpct_read();
    uint32_t per_ms = cp15_cntfrq_read() / 1000u;

    ms += (now - last) / per_ms;
    ticks += (now - last) % per_ms;
    last = now;
    if (ticks >= per_ms) {
        ms++;
        ticks -= per_ms;
    }
    return ms;
}

uint32_t port_entropy(void)
{
    return (uint32_t)cp15_cntpct_read();
}

void port_delay_ms(uint32_t ms)
{
    uint64_t start = cp15_cntpct_read();
    uint64_t ticks = (uint64_t)(cp15_cntfrq_read() / 1000u) * ms; /* no 64-bit division */

    while (cp15_cntpct_read() - start < ticks) {
    }
}

const struct boot_target *port_boot_target(void)
{
    static struct boot_target t = {
        .ram_base = RAM_BASE,
        .ram_size = RAM_SIZE,
        .reserved_base = RESIDENT_BASE, /* Secure RAM: outside the Normal world's RAM */
        .reserved_size = RESIDENT_SIZE,
        .machine_id = MACHINE_ID,
        .atags_addr = ATAGS_ADDR,
        .dtb_addr = DTB_ADDR,
        .dtb_max = DTB_MAX,
        .entry_cpsr = ARM_MODE_SVC | ARM_PSR_A | ARM_PSR_I,
        .entry_world = FRAME_WORLD_NORMAL,
        .kernel_addr = KERNEL_ADDR,
        .dtb_in_place = true,
    };

    t.payload_addr = (boot_image_base + (uint32_t)(uintptr_t)__image_size + PAYLOAD_ALIGN - 1) &
                     ~(PAYLOAD_ALIGN - 1);
    return &t;
}

unsigned port_irq_lines(void)
{
    return gicv2_lines(GICD_BASE);
}

void port_irq_line(unsigned line, struct port_irq_line *out)
{
    struct gicv2_line l;

    gicv2_read_line(GICD_BASE, line, &l);
    out->name = line == DEBUG_UART_INTID ? "fiqmon debug uart (secure uart1)"
                : line == SERVICE_SGI    ? "fiqmon service sgi"
                : line == 33             ? "uart0 (kernel console)"
                : line == 30             ? "ns physical timer"
                : line == 27             ? "ns virtual timer"
                : line == WATCHDOG_TIMER_INTID ? "fiqmon watchdog (secure physical timer)"
                                         : 0;
    out->raw = l.pending;
    /* SGIs are always enabled: only fiqmon's own is worth listing */
    out->enabled = l.enabled && (line >= 16 || !l.group1);
    out->to_fiq = !l.group1;
    out->fiqs = line < FIQ_COUNTED_LINES ? gic_fiq_counts[line] : 0;
}

const char *port_irq_controller(void)
{
    return "gicv2";
}

void port_reboot(void)
{
    while (!pl011_tx_idle(DEBUG_UART_BASE)) {
    }
    pl061_drive(SECURE_GPIO_BASE, SECURE_GPIO_RESET, 1);
    for (;;) {
    }
}

const char *port_platform_name(void)
{
    return "virt";
}

const char *port_cpu_name(void)
{
    return "cortex-a15 (secure)";
}

const char *port_debug_uart_name(void)
{
    return "uart1";
}

bool port_has_monitor_mode(void)
{
    return true;
}
