/* SPDX-License-Identifier: MIT */
/* QEMU versatilepb: the debug UART's RX on the PL190 VIC, routed to FIQ. */
#include "platform.h"

#include "mmio.h"
#include "monitor.h"
#include "pl011.h"
#include "pl190_vic.h"
#include "platform_def.h"
#include "port.h"
#include "versatile_sysctl.h"
#include "versatilepb_fiq.h"

#define STR2(x) #x
#define STR(x) STR2(x)

static const struct pl011_config debug_uart = {
    .base = DEBUG_UART_BASE,
    .clock_hz = UART_CLOCK_HZ,
    .baud = DEBUG_UART_BAUD,
};

void platform_init(void)
{
    pl011_init(&debug_uart);
    vic_enable(VIC_BASE, DEBUG_UART_LINE, false);
    vic_route(VIC_BASE, DEBUG_UART_LINE, true);
    pl011_rx_irq_enable(DEBUG_UART_BASE, true);
    vic_enable(VIC_BASE, DEBUG_UART_LINE, true);
}

void platform_early_puts(const char *s)
{
    for (; *s; s++)
        pl011_putc(DEBUG_UART_BASE, (uint8_t)*s);
}

uint32_t platform_resident_base(void)
{
    return RESIDENT_BASE;
}

void port_putc(uint8_t c)
{
    /* keep receiving while the transmitter is busy, so a long answer loses no input */
    while (mmio_read_32(DEBUG_UART_BASE + PL011_FR) & PL011_FR_TXFF)
        debug_uart_drain();
    mmio_write_32(DEBUG_UART_BASE + PL011_DR, c);
}

void port_rx_poll(void)
{
    debug_uart_drain();
}

unsigned port_irq_lines(void)
{
    return VIC_LINES;
}

static const char *line_name(unsigned line)
{
    static const char *const uart_names[] = {"uart0", "uart1", "uart2"};

    if (line == DEBUG_UART_LINE)
        return "fiqmon debug uart" ;
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
    out->fiqs = vic_fiq_counts[line];
}

const char *port_irq_controller(void)
{
    return "pl190 vic";
}

void port_reboot(void)
{
    /* let the last characters leave the UART before the reset cuts them off */
    while (!pl011_tx_idle(DEBUG_UART_BASE)) {
    }
    versatile_sysctl_reset(SYSCTL_BASE);
}

const char *port_platform_name(void)
{
    return "versatilepb";
}

const char *port_cpu_name(void)
{
    return "arm926ej-s";
}

const char *port_debug_uart_name(void)
{
    return "uart" STR(DEBUG_UART);
}

bool port_has_monitor_mode(void)
{
    return false;
}
