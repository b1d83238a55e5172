/* SPDX-License-Identifier: MIT */
/* fiqcon: a cooperating kernel's console on fiqmon's one wire (CONSOLE=ring builds,
 * docs/one-wire.md), Android's ttyFIQ model on a CPU that cannot trap a UART: it asks
 * fiqmon for its console ring (service call 5), writes its console into the ring's tx
 * side and calls fiqmon to put it on the wire, and reads what the wire brings from the rx
 * side: a line editor that echoes and answers each line with "fiqcon: got [LINE]". It
 * never touches UART0. Its own diagnostics go to its usual console (UART1). */
#include "guest.h"

#include "../../monitor/core/service.h"

#define MAILBOX      0x07ff0000u /* fiqmon's resident base: struct fiqmon_mailbox */
#define SERVICE_LINE 1u
#define VIC_SOFTINT  0x10140018u
#define KICK_TICKS   (SYS_24MHZ_HZ / 100) /* idle: call fiqmon every 10 ms */

const char guest_name[] = "fiqcon";

static struct fiqmon_console_ring *ring;

/* As uartecho: fiqmon clears the request word after writing the response. */
static uint32_t service_call(uint32_t request)
{
    volatile struct fiqmon_mailbox *mb = (volatile struct fiqmon_mailbox *)MAILBOX;

    mb->request = request;
    *(volatile uint32_t *)VIC_SOFTINT = 1u << SERVICE_LINE;
    while (mb->request != FIQMON_SVC_NONE) {
    }
    return mb->response;
}

static void ring_putc(char c)
{
    while (ring->tx_head - ring->tx_tail == FIQMON_CONSOLE_SIZE)
        service_call(FIQMON_SVC_CONSOLE); /* full: fiqmon drains it (back-pressure) */
    ring->tx[ring->tx_head % FIQMON_CONSOLE_SIZE] = (uint8_t)c;
    ring->tx_head = ring->tx_head + 1; /* after the byte */
}

static void ring_puts(const char *s)
{
    for (; *s; s++) {
        if (*s == '\n')
            ring_putc('\r');
        ring_putc(*s);
    }
    service_call(FIQMON_SVC_CONSOLE);
}

static int ring_getc(void)
{
    uint32_t tail = ring->rx_tail;

    if (tail == ring->rx_head)
        return -1;
    int c = ring->rx[tail % FIQMON_CONSOLE_SIZE];
    ring->rx_tail = tail + 1;
    return c;
}

void guest_main(uint32_t r0, uint32_t r1, uint32_t r2)
{
    char line[80];
    unsigned n = 0;
    uint32_t last_kick = sys_24mhz();

    (void)r0;
    (void)r1;
    (void)r2;
    if (((volatile struct fiqmon_mailbox *)MAILBOX)->magic != FIQMON_MAILBOX_MAGIC) {
        con_puts("guest fiqcon: no fiqmon mailbox\n");
        guest_idle();
    }
    ring = (struct fiqmon_console_ring *)service_call(FIQMON_SVC_CONSOLE);
    if (ring == (void *)FIQMON_SVC_UNKNOWN || ring->magic != FIQMON_CONSOLE_MAGIC ||
        ring->size != FIQMON_CONSOLE_SIZE) {
        con_puts("guest fiqcon: fiqmon has no console ring (build it CONSOLE=ring)\n");
        guest_idle();
    }
    con_printf("guest fiqcon: console ring at %08lx\n", (unsigned long)(uintptr_t)ring);
    ring_puts("fiqcon: hello on the one wire\n");
    for (;;) {
        int c = ring_getc();
        if (c < 0) {
            if (sys_24mhz() - last_kick >= KICK_TICKS) { /* a held '$' ends its wait */
                service_call(FIQMON_SVC_CONSOLE);
                last_kick = sys_24mhz();
            }
            continue;
        }
        if (c == '\r' || c == '\n') {
            line[n] = '\0';
            ring_puts("\nfiqcon: got [");
            ring_puts(line);
            ring_puts("]\n");
            n = 0;
        } else if (n + 1 < sizeof(line)) {
            line[n++] = (char)c;
            ring_putc((char)c); /* echo, as a tty would */
            service_call(FIQMON_SVC_CONSOLE);
        }
    }
}
