/* SPDX-License-Identifier: MIT */
/* One wire for a cooperating kernel on versatilepb (CONSOLE=ring, docs/one-wire.md):
 * Android's ttyFIQ model. There is nothing to trap a kernel's UART accesses with on an
 * ARM926 (no TrustZone, no Hyp), so the kernel writes its console into a ring fiqmon owns
 * and asks fiqmon (service call FIQMON_SVC_CONSOLE) to put it on the wire; what the wire
 * brings for the kernel (the monitor decides, monitor.c) waits in the other ring. */
#include "mmio.h"
#include "monitor.h"
#include "platform.h"
#include "platform_def.h"
#include "sections.h"
#include "service.h"
#include "versatile_sysctl.h"
#include "versatilepb_fiq.h"

#define QUIET_TICKS (24000u * HOLD_QUIET_MS) /* SYS_24MHZ counts 24 MHz */

static FIQMON_BUFFER("console_ring") struct fiqmon_console_ring ring;
static bool held;          /* the monitor holds a knock candidate ... */
static uint32_t held_since; /* ... since this SYS_24MHZ count */
static uint32_t rx_lost;    /* wire bytes the kernel's ring had no room for */

static uint32_t now(void)
{
    return mmio_read_32(SYSCTL_BASE + SYS_24MHZ);
}

void vpb_console_init(void)
{
    ring.tx_head = ring.tx_tail = ring.rx_head = ring.rx_tail = 0;
    ring.size = FIQMON_CONSOLE_SIZE;
    ring.magic = FIQMON_CONSOLE_MAGIC;
}

/* The kernel's output to the wire: polled, so a call costs the time the bytes take at the
 * line rate (as Android's FIQ debugger's console did). The kernel's index is re-read and
 * bounded: it may hold anything. */
static void tx_out(void)
{
    uint32_t head = ring.tx_head;

    if (head - ring.tx_tail > FIQMON_CONSOLE_SIZE)
        ring.tx_tail = head - FIQMON_CONSOLE_SIZE; /* a kernel's bad index: keep the last */
    while (ring.tx_tail != head) {
        port_putc(ring.tx[ring.tx_tail % FIQMON_CONSOLE_SIZE]);
        ring.tx_tail = ring.tx_tail + 1;
    }
}

uint32_t vpb_console_call(void)
{
    if (held && now() - held_since >= QUIET_TICKS)
        monitor_console_quiet(); /* a lone '$': the kernel's after all */
    if (monitor_state() == MON_WAITING)
        tx_out();
    return (uint32_t)(uintptr_t)&ring;
}

bool port_console_rx(uint8_t c, bool brk)
{
    uint32_t head = ring.rx_head;

    if (brk || head - ring.rx_tail >= FIQMON_CONSOLE_SIZE) { /* the ring has no BREAK */
        rx_lost++;
        return false;
    }
    ring.rx[head % FIQMON_CONSOLE_SIZE] = c;
    ring.rx_head = head + 1; /* after the byte: the kernel may read it at once */
    return true;
}

void port_console_hold(bool on)
{
    if (on && !held)
        held_since = now();
    held = on;
}

void port_console_replay(void)
{
    tx_out();
}

uint32_t vpb_console_lost(void)
{
    return rx_lost;
}
