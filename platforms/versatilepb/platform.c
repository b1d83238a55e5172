/* SPDX-License-Identifier: MIT */
/* QEMU versatilepb: the debug UART's RX on the PL190 VIC, routed to FIQ. */
#include "platform.h"

#include "handoff.h"
#include "command.h"
#include "cpu_frame.h"
#include "lockdown.h"
#include "mmio.h"
#include "monitor.h"
#include "pl011.h"
#include "pl190_vic.h"
#include "platform_def.h"
#include "service.h"
#include "sp804.h"
#include "versatile_sysctl.h"
#include "watchdog.h"
#include "versatilepb_fiq.h"

/* no commands of its own */
const struct command platform_commands[] = {{NULL, NULL, NULL, NULL, 0, 0, 0, 0}};

extern uint32_t boot_key_copy;

/* The kernel's service mailbox, at RESIDENT_BASE (docs/kernel-contract.md). */
__attribute__((section(".mailbox"))) struct fiqmon_mailbox fiqmon_mailbox;

#define STR2(x) #x
#define STR(x) STR2(x)

static const struct platform_desc versatilepb = {
    .name = "versatilepb",
    .cpu = "arm926ej-s",
    .debug_uart = "uart" STR(DEBUG_UART),
    .irq_controller = "pl190 vic",
    .watchdog_signal = "vic line " STR(WATCHDOG_WATCH_LINE) " (kernel timer) pending",
    .resident_base = RESIDENT_BASE,
    .boot_delay_ms = BOOT_DELAY_MS,
    .has_monitor_mode = false,
    .debug_uart_releasable = !FIQMON_CONSOLE_SHARED, /* one wire: never the kernel's alone */
    .console_shared = FIQMON_CONSOLE_SHARED,
    .boot = {
        .ram_base = RAM_BASE,
        .ram_size = RAM_SIZE,
        .reserved_base = RESIDENT_BASE,
        .reserved_size = RESIDENT_SIZE,
        .machine_id = MACHINE_ID,
        .atags_addr = ATAGS_ADDR,
        .dtb_addr = DTB_ADDR,
        .dtb_max = DTB_MAX,
        .entry_cpsr = ARM_MODE_SVC | ARM_PSR_I, /* IRQs masked, FIQs on: fiqmon stays reachable */
        .entry_world = FRAME_WORLD_SECURE,
    },
};
const struct platform_desc *const platform = &versatilepb;

static const struct pl011_config debug_uart = {
    .base = DEBUG_UART_BASE,
    .clock_hz = UART_CLOCK_HZ,
    .baud = DEBUG_UART_BAUD,
};

void platform_init(void)
{
    fiqmon_mailbox.request = FIQMON_SVC_NONE;
    fiqmon_mailbox.response = FIQMON_SVC_OK;
    fiqmon_mailbox.version = FIQMON_VERSION_CODE;
#if FIQMON_CONSOLE_SHARED
    vpb_console_init();
#endif
    fiqmon_mailbox.magic = FIQMON_MAILBOX_MAGIC;
    pl011_init(&debug_uart);
    port_debug_uart_claim(true);
    vic_soft_raise(VIC_BASE, SERVICE_VIC_LINE, false);
    vic_route(VIC_BASE, SERVICE_VIC_LINE, true);
    vic_enable(VIC_BASE, SERVICE_VIC_LINE, true);
#if FIQMON_WATCHDOG
    port_watchdog_arm(mon_watchdog.timeout_s != 0);
#endif
}

#if FIQMON_WATCHDOG
void port_watchdog_arm(bool on)
{
    sp804_periodic(WATCHDOG_TIMER_BASE, on ? WATCHDOG_TIMER_HZ / 1000 * WATCHDOG_SAMPLE_MS : 0);
    vic_route(VIC_BASE, WATCHDOG_TIMER_LINE, true);
    vic_enable(VIC_BASE, WATCHDOG_TIMER_LINE, on);
}

#endif

void port_watchdog_held(void)
{
#if FIQMON_WATCHDOG
    if (mon_watchdog.timeout_s)
        sp804_ack(WATCHDOG_TIMER_BASE);
#endif
}

void port_debug_uart_claim(bool claim)
{
    /* Released: the line goes back to IRQ and fiqmon's receive interrupt is off; the
     * kernel's driver enables what it needs. */
    vic_enable(VIC_BASE, DEBUG_UART_LINE, false);
    vic_route(VIC_BASE, DEBUG_UART_LINE, claim);
    pl011_rx_irq_enable(DEBUG_UART_BASE, claim);
    vic_enable(VIC_BASE, DEBUG_UART_LINE, true);
}

static bool overlaps(uint32_t pa, unsigned len, uint32_t base, uint32_t size)
{
    return pa < (uint64_t)base + size && (uint64_t)pa + len > base;
}

/* Never shown or changed on a user's behalf: the unlock key and any copy of it fiqmon could
 * not wipe (boot/main.c), and in production builds all of fiqmon's resident home (state,
 * stacks). That is all ARMv5 allows: the kernel itself can still read them
 * (docs/lockdown.md). */
bool port_mem_secret(target_addr_t pa, unsigned len)
{
    unsigned key_len;
    const uint8_t *key = lockdown_build_key(&key_len);

    if (FIQMON_PRODUCTION && overlaps(pa, len, RESIDENT_BASE, RESIDENT_SIZE))
        return true;
    return key_len && (overlaps(pa, len, (uint32_t)(uintptr_t)key, key_len) ||
                       (boot_key_copy && overlaps(pa, len, boot_key_copy, key_len)));
}

void platform_raise_service_fiq(void)
{
    vic_soft_raise(VIC_BASE, SERVICE_VIC_LINE, true);
}

bool port_mem_is_memory(target_addr_t addr)
{
    /* the MMU is off while the monitor runs: every address is physical */
    return addr - RAM_BASE < RAM_SIZE || addr - FLASH_BASE < FLASH_SIZE;
}

const char *port_mem_unavailable(void)
{
    return NULL; /* the monitor window (armv5_monitor_window.c) catches every abort */
}

unsigned port_irq_lines(void)
{
    return VIC_LINES;
}

static const char *line_name(unsigned line)
{
    static const char *const uart_names[] = {"uart0", "uart1", "uart2"};

    if (line == DEBUG_UART_LINE)
        return "fiqmon debug uart";
    if (line == SERVICE_VIC_LINE)
        return "fiqmon service call";
    if (line == WATCHDOG_TIMER_LINE)
        return "fiqmon watchdog (timer2/3)";
    if (line >= UART0_VIC_LINE && line < UART0_VIC_LINE + 3)
        return uart_names[line - UART0_VIC_LINE];
    if (line == 4 || line == 5)
        return line == 4 ? "timer0/1" : "timer2/3";
    if (line == 31)
        return "sic";
    return 0;
}

void port_irq_line(unsigned line, struct port_irq_line *out)
{
    struct vic_state st;
    uint32_t bit = 1u << line;

    vic_read_state(VIC_BASE, &st);
    out->name = line_name(line);
    out->raw = (st.raw & bit) != 0;
    out->enabled = (st.enabled & bit) != 0;
    out->to_fiq = (st.fiq_select & bit) != 0;
    out->fiqs = vic_fiq_count(line);
}

void platform_reset(void)
{
    versatile_sysctl_reset(SYSCTL_BASE);
}

uint32_t platform_ticks(void)
{
    return versatile_sysctl_24mhz(SYSCTL_BASE);
}

uint32_t platform_ticks_per_ms(void)
{
    return 24000u; /* the system controller's 24 MHz counter */
}

