/* SPDX-License-Identifier: MIT */
/* The service interface a kernel uses to talk to fiqmon (docs/kernel-contract.md).
 * The kernel writes a request into the mailbox and raises the platform's service FIQ
 * (versatilepb: VIC software interrupt on the service line); fiqmon answers before the
 * kernel's next instruction and clears the request. Shared with the test guests. */
#ifndef FIQMON_SERVICE_H
#define FIQMON_SERVICE_H

#define FIQMON_MAILBOX_MAGIC    0x464d4253u /* "SBMF" in memory: fiqmon service mailbox */

#define FIQMON_SVC_NONE     0u
#define FIQMON_SVC_PING     1u  /* response: FIQMON_SVC_OK, version in mailbox.version */
#define FIQMON_SVC_REARM    2u  /* take the debug UART back (kdb's enable_nmi = 1) */
#define FIQMON_SVC_RELEASE  3u  /* give the debug UART to the kernel (enable_nmi = 0) */
#define FIQMON_SVC_ENTER    4u  /* enter the debugger now, reason "service" */
/* A cooperating kernel's console on fiqmon's wire (CONSOLE=ring builds, versatilepb;
 * docs/one-wire.md): response = the address of struct fiqmon_console_ring. Each call also
 * moves what the kernel put in tx to the wire (unless a session is open: then it waits
 * in the ring) and ends a held knock candidate's quiet time. */
#define FIQMON_SVC_CONSOLE  5u

#define FIQMON_SVC_OK       0u
#define FIQMON_SVC_UNKNOWN  0xffffffffu

#ifndef __ASSEMBLER__
#include <stdint.h>

#define FIQMON_CONSOLE_MAGIC 0x4e4f4346u /* "FCON" in memory */
#define FIQMON_CONSOLE_SIZE  1024u       /* each direction; a power of two */

/* Two single-producer rings with free-running indexes (index % SIZE is the slot); a
 * writer stores the byte before its head. tx: the kernel produces, fiqmon consumes (the
 * kernel waits while tx_head - tx_tail == SIZE: back-pressure, nothing is dropped). rx:
 * fiqmon produces what the wire brings for the kernel, the kernel consumes (fiqmon drops,
 * and counts, what finds it full). */
struct fiqmon_console_ring {
    uint32_t magic;
    uint32_t size;
    volatile uint32_t tx_head, tx_tail;
    volatile uint32_t rx_head, rx_tail;
    uint8_t tx[FIQMON_CONSOLE_SIZE];
    uint8_t rx[FIQMON_CONSOLE_SIZE];
};

struct fiqmon_mailbox {
    uint32_t magic;    /* FIQMON_MAILBOX_MAGIC once fiqmon is resident */
    uint32_t version;  /* fiqmon version, 0xMMmmpp */
    uint32_t request;  /* written by the kernel; fiqmon sets it back to FIQMON_SVC_NONE */
    uint32_t response; /* written by fiqmon */
};
#endif

#endif
