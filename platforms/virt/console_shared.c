/* SPDX-License-Identifier: MIT */
/* One wire on virt (CONSOLE=shared, docs/one-wire.md): UART0 is fiqmon's debug port, and
 * the kernel's console=ttyAMA0 is a PL011 model behind the Hyp shim. What the kernel
 * writes goes out on the wire while fiqmon waits for a knock, and waits in a backlog
 * while a session is open: the model's transmitter reports full when the backlog is, so
 * nothing is dropped (the kernel waits). What the wire brings for the kernel (the monitor
 * decides, monitor.c) waits in a ring until the model's receive FIFO has room; when the
 * ring is nearly full fiqmon stops reading the wire (its receive interrupt masked, the
 * bytes wait in the UART and the sender is held back) until the kernel has read enough,
 * or has read nothing for THROTTLE_QUIET_WINDOWS windows of HOLD_QUIET_MS, so a knock
 * still gets through to a kernel that stopped reading (a slow reader is waited for: only
 * one that stopped loses input).
 *
 * Several CPUs (SMP > 1): the kernel's accesses come from any CPU (its Hyp shim, then an
 * SMC), the wire's bytes and the monitor from CPU 0. virt_console_lock (fiq.c) guards the
 * model, the ring and the backlog; the wire is the kernel's (wire_kernels) only while the
 * monitor waits outside CPU 0's full FIQ path, so its output never lands inside fiqmon's.
 * The hold timer is CPU 0's (its PPI is group 0 there only): other CPUs leave it running
 * and CPU 0 decides when it fires. */
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
#include "spinlock.h"
#include "virt.h"

#define BACKLOG 4096u /* power of two */

static FIQMON_BUFFER("console_model") struct pl011_model model;
static FIQMON_BUFFER("console_rx") struct ring to_kernel;
static FIQMON_BUFFER("console_backlog") struct {
    uint8_t buf[BACKLOG];
    uint32_t head, tail;
} backlog;

#define THROTTLE_ROOM 64u /* free bytes in the ring below which the wire waits */
#define CAP_MARGIN 16u    /* a knock candidate's bytes, held back from the ring meanwhile */

bool virt_console_throttled;
/* A BREAK for the kernel waits behind the ring's bytes stored before it (break_at). */
static bool break_due;
static uint32_t break_at;
static bool hold_wanted; /* the monitor holds a knock candidate */
static bool kernel_read;  /* throttled: the kernel read in this HOLD_QUIET_MS window */
static uint8_t quiet_windows; /* throttled: windows in a row in which it read nothing */
static bool kernel_stopped;   /* unthrottled by the deadline: until it reads again */
/* A kernel that read nothing for this many windows in a row has stopped reading: the wire
 * is read again (a knock gets through; its input is dropped). One window (50 ms) was too
 * short for a busy one: a CPU hog beside `cat` under QEMU lost most of a 2,000-byte paste. */
#define THROTTLE_QUIET_WINDOWS 10u
static volatile bool wire_kernels; /* the kernel's bytes may go straight out */
static void hold_timer(bool on);

static inline bool on_cpu0(void)
{
#if FIQMON_SMP > 1
    return virt_cpu_index() == 0;
#else
    return true;
#endif
}

static void throttle(bool on)
{
    if (on == virt_console_throttled)
        return; /* (bytes drained before the wire stopped still come: the deadline stands) */
    virt_console_throttled = on;
    kernel_read = false;
    quiet_windows = 0;
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

/* The model's fast path for a byte written to its empty transmitter: straight to the wire
 * when nothing waits ahead of it (the backlog empty) and the UART has room, so the kernel's
 * polled output costs no FIFO round trip. */
static bool tx_straight_out(void *ctx, uint8_t c)
{
    (void)ctx;
    if (backlog.head != backlog.tail || !wire_kernels ||
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
    wire_kernels = true;
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
    wire = wire_kernels;
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
            kernel_read = true; /* the deadline starts again when it comes (CPU 0's) */
        kernel_stopped = false;
    }
    if (virt_console_throttled && RING_SIZE - ring_count(&to_kernel) >= THROTTLE_ROOM)
        throttle(false);
}

/* Under virt_console_lock (fiq.c). */
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

static bool console_rx(uint8_t c, bool brk)
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

bool port_console_rx(uint8_t c, bool brk)
{
    bool taken;

    spin_lock(&virt_console_lock);
    taken = console_rx(c, brk);
    spin_unlock(&virt_console_lock);
    return taken;
}

/* CPU 0, the hold timer's FIQ. */
void virt_console_deadline(void)
{
    spin_lock(&virt_console_lock);
    if (virt_console_throttled) {
        quiet_windows = kernel_read ? 0 : quiet_windows + 1;
        kernel_read = false;
        if (quiet_windows < THROTTLE_QUIET_WINDOWS)
            hold_timer(true); /* another window */
        else {
            kernel_stopped = true; /* its input may be dropped now: a knock must get in */
            throttle(false); /* it stopped reading: the wire is read again (a knock) */
        }
        spin_unlock(&virt_console_lock);
        return;
    }
    spin_unlock(&virt_console_lock);
    monitor_console_quiet(); /* (a deadline another CPU's unthrottle left running: no-op) */
}

/* The quiet timer for a held knock candidate: the Hyp physical timer, which nothing else
 * uses when the kernel is entered in SVC; its registers need SCR.NS = 1, which only
 * Monitor mode (the FIQ path) may set without changing worlds. */
void port_console_hold(bool on)
{
    spin_lock(&virt_console_lock);
    hold_wanted = on;
    hold_timer(on || virt_console_throttled);
    spin_unlock(&virt_console_lock);
}

static void hold_timer(bool on)
{
    uint32_t scr = cp15_scr_read();
    uint32_t ticks = cp15_cntfrq_read() / 1000u * HOLD_QUIET_MS;

    if (!on_cpu0())
        return; /* left as it is: CPU 0 looks again when it fires */
    cp15_scr_write(scr | SCR_NS);
    __asm__ volatile("mcr p15, 4, %0, c14, c2, 0" : : "r"(ticks));          /* CNTHP_TVAL */
    __asm__ volatile("mcr p15, 4, %0, c14, c2, 1" : : "r"(on ? 1u : 0u)); /* CNTHP_CTL */
    cp15_scr_write(scr);
}

/* CPU 0, the monitor: what waited goes out in order, a byte at a time under the lock (the
 * kernel may add to it from another CPU meanwhile), receiving while the UART is full. */
void port_console_replay(void)
{
    for (;;) {
        bool more, room;

        spin_lock(&virt_console_lock);
        pump_tx(); /* (the wire is not the kernel's yet: its FIFO to the backlog) */
        more = backlog.tail != backlog.head;
        room = !(mmio_read_32(DEBUG_UART_BASE + PL011_FR) & PL011_FR_TXFF);
        if (more && room)
            mmio_write_32(DEBUG_UART_BASE + PL011_DR, backlog.buf[backlog.tail++ % BACKLOG]);
        if (!more)
            feed_model();
        spin_unlock(&virt_console_lock);
        if (!more)
            return;
        if (!room)
            port_rx_poll();
    }
}

/* CPU 0's full FIQ path (mem.c): the wire is fiqmon's from its first word, and the
 * kernel's again only when the monitor waits and what waited has gone out. */
void virt_console_monitor(bool entered)
{
    if (!entered && monitor_state() == MON_WAITING)
        port_console_replay();
    spin_lock(&virt_console_lock);
    wire_kernels = !entered && monitor_state() == MON_WAITING;
    if (wire_kernels)
        backlog_out(); /* written by another CPU since the replay: the rest, at its next access */
    spin_unlock(&virt_console_lock);
}

/* How many bytes the wire's drain may leave in mon_rx: while the monitor waits they are
 * the kernel's, so no more than its ring has room for (less a margin for a held knock
 * candidate), else a fast paste drained in one FIQ overflows the ring. A kernel that
 * stopped reading gets no such care: the wire is drained so that a knock gets in. */
uint32_t virt_console_rx_cap(void)
{
    uint32_t room = RING_SIZE - ring_count(&to_kernel) + ring_count(&mon_rx);

    if (kernel_stopped || monitor_state() != MON_WAITING)
        return RING_SIZE;
    return room > RING_SIZE ? RING_SIZE : room > CAP_MARGIN ? room - CAP_MARGIN : 1;
}

uint32_t virt_console_backlog(void)
{
    return backlog.head - backlog.tail;
}

uint32_t virt_console_tx_lost(void)
{
    return model.tx_lost;
}
