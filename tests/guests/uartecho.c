/* SPDX-License-Identifier: MIT */
/* uartecho: the kernel side of fiqmon's release / re-arm (the seed's disable_nmi and
 * enable_nmi). It pings fiqmon through the service mailbox, waits until fiqmon releases
 * UART0 (VIC INTSELECT bit 12 clear), then drives UART0 itself: every byte it receives is
 * reported on its console, and 'R' makes it re-arm fiqmon with service call 2. */
#include "guest.h"

#define MAILBOX       0x07ff0000u  /* fiqmon's resident base: struct fiqmon_mailbox */
#define MAILBOX_MAGIC 0x464d4253u
#define SERVICE_LINE  1u
#define SVC_PING      1u
#define SVC_REARM     2u
#define UART0         0x101f1000u
#define VIC_INTSELECT 0x1014000cu
#define VIC_SOFTINT   0x10140018u

const char guest_name[] = "uartecho";

static volatile uint32_t *reg(uint32_t addr)
{
    return (volatile uint32_t *)addr;
}

/* The FIQ follows the SOFTINT write within a few instructions; fiqmon clears the request
 * word after writing the response, so poll for that (docs/kernel-contract.md). */
static uint32_t service_call(uint32_t request)
{
    volatile uint32_t *mb = reg(MAILBOX);

    mb[2] = request;
    *reg(VIC_SOFTINT) = 1u << SERVICE_LINE;
    while (mb[2] != 0) {
    }
    return mb[3];
}

void guest_main(uint32_t r0, uint32_t r1, uint32_t r2)
{
    (void)r0;
    (void)r1;
    (void)r2;
    if (*reg(MAILBOX) != MAILBOX_MAGIC) {
        con_puts("guest uartecho: no fiqmon mailbox\n");
        guest_idle();
    }
    con_printf("guest uartecho: ping response %lu version %06lx\n",
               (unsigned long)service_call(SVC_PING), (unsigned long)reg(MAILBOX)[1]);
    for (;;) {
        con_puts("guest uartecho: waiting for release\n");
        while (*reg(VIC_INTSELECT) & (1u << 12)) {
        }
        con_puts("guest uartecho: uart0 is mine\n");
        for (;;) {
            uint32_t c;
            while (*reg(UART0 + 0x18) & (1u << 4)) { /* RX FIFO empty */
            }
            c = *reg(UART0) & 0xffu;
            con_printf("guest uartecho: got %c\n", (char)c);
            if (c == 'R') {
                con_printf("guest uartecho: rearm response %lu\n",
                           (unsigned long)service_call(SVC_REARM));
                break;
            }
        }
    }
}
