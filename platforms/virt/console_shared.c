/* SPDX-License-Identifier: MIT */
/* One wire on virt (CONSOLE=shared, docs/one-wire.md): UART0 is fiqmon's debug port, and
 * the kernel's console=ttyAMA0 is a PL011 model behind the Hyp shim. What the kernel
 * writes goes out on the wire while fiqmon waits for a knock, and waits in a backlog
 * while a session is open: the model's transmitter reports full when the backlog is, so
 * nothing is dropped (the kernel waits). What the wire brings for the kernel (the monitor
 * decides, monitor.c) waits in a ring until the model's receive FIFO has room; when the
 * ring is nearly full fiqmon stops reading the wire (its receive interrupt masked, the
 * bytes wait in the UART and the sender is held back) until the kernel has read enough,
 * or has read nothing for HOLD_QUIET_MS, so a knock still gets through to a kernel that
 * stopped reading (a slow reader is waited for: only one that stopped loses input). */
#include "armv7_cp15.h"
#include "gicv2.h"
#include "mmio.h"
#include "monitor.h"
#include "pl011_access_counts.h"
#include "pl011.h"
#include "pl011_model.h"
#include "platform.h"
#include "platform_def.h"
#include "ring.h"
#include "sections.h"
#include "virt.h"

#define BACKLOG 4096u /* power of two */

static FIQMON_BUFFER("console_model") struct pl011_model model;
static FIQMON_BUFFER("console_rx") struct ring to_kernel;
static FIQMON_BUFFER("console_backlog") struct {
    uint8_t buf[BACKLOG];
    uint32_t head, tail;
} backlog;

#define THROTTLE_ROOM 64u /* free bytes in the ring below which the wire waits */

bool virt_console_throttled;
/* A BREAK for the kernel waits behind the ring's bytes stored before it (break_at). */
static bool break_due;
static uint32_t break_at;
static bool hold_wanted; /* the monitor holds a knock candidate */
static void hold_timer(bool on);

static void throttle(bool on)
{
    if (on == virt_console_throttled)
        return;
    virt_console_throttled = on;
    pl011_rx_irq_enable(DEBUG_UART_BASE, !on);
    hold_timer(on || hold_wanted); /* the deadline */
}

static void model_irq(void *ctx, bool level)
{
    (void)ctx;
    if (level)
        virt_console_counts.irqs_raised++;
    gicv2_set_pending(GICD_BASE, GIC_SPI_BASE + CONSOLE_MODEL_SPI, level);
}

static bool wire_is_the_kernels(void)
{
    return monitor_state() == MON_WAITING;
}

/* The model's fast path for a byte written to its empty transmitter: straight to the wire
 * when nothing waits ahead of it (the backlog empty) and the UART has room, so the kernel's
 * polled output costs no FIFO round trip. */
static bool tx_straight_out(void *ctx, uint8_t c)
{
    (void)ctx;
    if (backlog.head != backlog.tail || !wire_is_the_kernels() ||
        (mmio_read_32(DEBUG_UART_BASE + PL011_FR) & PL011_FR_TXFF))
        return false;
    mmio_write_32(DEBUG_UART_BASE + PL011_DR, c);
    return true;
}

void virt_console_init(void)
{
    pl011_model_init(&model, model_irq, 0);
    pl011_model_set_tx_out(&model, tx_straight_out);
    ring_init(&to_kernel);
    backlog.head = backlog.tail = 0;
    break_due = false;
}

/* Backlog to the wire, as far as the UART takes it without waiting. */
static void backlog_out(void)
{
    while (backlog.tail != backlog.head &&
           !(mmio_read_32(DEBUG_UART_BASE + PL011_FR) & PL011_FR_TXFF))
        mmio_write_32(DEBUG_UART_BASE + PL011_DR, backlog.buf[backlog.tail++ % BACKLOG]);
}

/* Whether anything waits to move: after most accesses nothing does (a byte the kernel
 * writes goes straight out, tx_straight_out), so the checks come before any call. */
static inline bool tx_waits(void)
{
    return pl011_model_tx_count(&model) || backlog.head != backlog.tail;
}

static inline bool rx_waits(void)
{
    return ring_count(&to_kernel) || break_due || virt_console_throttled;
}

/* The model's transmitter to the wire (or the backlog); only as much as the backlog can
 * take, so a full backlog leaves the model's FIFO full: back-pressure. */
static void pump_tx(void)
{
    bool wire;
    int c;

    if (!tx_waits())
        return;
    wire = wire_is_the_kernels();
    if (wire)
        backlog_out();
    while (backlog.head - backlog.tail < BACKLOG && (c = pl011_model_tx_pop(&model)) >= 0) {
        if (wire && backlog.head == backlog.tail &&
            !(mmio_read_32(DEBUG_UART_BASE + PL011_FR) & PL011_FR_TXFF))
            mmio_write_32(DEBUG_UART_BASE + PL011_DR, (uint32_t)c);
        else
            backlog.buf[backlog.head++ % BACKLOG] = (uint8_t)c;
    }
}

static void feed_model(void)
{
    bool fed = false;

    if (!rx_waits())
        return;
    while (pl011_model_rx_room(&model)) {
        if (break_due && to_kernel.tail == break_at) {
            pl011_model_rx_push(&model, 0, PL011M_DR_BE);
            break_due = false;
        } else if (ring_count(&to_kernel)) {
            pl011_model_rx_push(&model, (uint8_t)ring_get(&to_kernel), 0);
        } else {
            break;
        }
        fed = true;
    }
    if (fed) {
        pl011_model_rx_idle(&model); /* the burst is over: the receive timeout */
        if (virt_console_throttled)
            hold_timer(true); /* the kernel reads: its deadline starts again */
    }
    if (virt_console_throttled && RING_SIZE - ring_count(&to_kernel) >= THROTTLE_ROOM)
        throttle(false);
}

uint32_t virt_emulated_access(bool write, uint32_t offset, unsigned width, uint32_t value)
{
    uint32_t v = 0;

    if (write)
        pl011_model_write(&model, offset, width, value);
    else
        v = pl011_model_read(&model, offset, width);
    if (tx_waits())
        pump_tx();
    if (rx_waits())
        feed_model();
    return v;
}

bool port_console_rx(uint8_t c, bool brk)
{
    if (brk) { /* behind what waits, ahead of what comes after (BREAK + t) */
        if (break_due)
            return false; /* one at a time: the kernel has not read the last one yet */
        break_due = true;
        break_at = to_kernel.head;
        feed_model();
        return true;
    }
    if (!ring_put(&to_kernel, c))
        return false;
    feed_model();
    if (RING_SIZE - ring_count(&to_kernel) < THROTTLE_ROOM && monitor_state() == MON_WAITING)
        throttle(true);
    return true;
}

void virt_console_deadline(void)
{
    if (virt_console_throttled)
        throttle(false); /* the kernel did not read: the wire is read again (a knock) */
    else
        monitor_console_quiet();
}

/* The quiet timer for a held knock candidate: the Hyp physical timer, which nothing else
 * uses when the kernel is entered in SVC; its registers need SCR.NS = 1, which only
 * Monitor mode (the FIQ path) may set without changing worlds. */
void port_console_hold(bool on)
{
    hold_wanted = on;
    hold_timer(on || virt_console_throttled);
}

static void hold_timer(bool on)
{
    uint32_t scr = cp15_scr_read();
    uint32_t ticks = cp15_cntfrq_read() / 1000u * HOLD_QUIET_MS;

    cp15_scr_write(scr | SCR_NS);
    __asm__ volatile("mcr p15, 4, %0, c14, c2, 0" : : "r"(ticks));          /* CNTHP_TVAL */
    __asm__ volatile("mcr p15, 4, %0, c14, c2, 1" : : "r"(on ? 1u : 0u)); /* CNTHP_CTL */
    cp15_scr_write(scr);
}

void port_console_replay(void)
{
    while (backlog.tail != backlog.head)
        port_putc(backlog.buf[backlog.tail++ % BACKLOG]); /* keeps receiving meanwhile */
    pump_tx();
    feed_model();
}

uint32_t virt_console_backlog(void)
{
    return backlog.head - backlog.tail;
}

uint32_t virt_console_tx_lost(void)
{
    return model.tx_lost;
}
