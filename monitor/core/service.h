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

#define FIQMON_SVC_OK       0u
#define FIQMON_SVC_UNKNOWN  0xffffffffu

#ifndef __ASSEMBLER__
#include <stdint.h>

struct fiqmon_mailbox {
    uint32_t magic;    /* FIQMON_MAILBOX_MAGIC once fiqmon is resident */
    uint32_t version;  /* fiqmon version, 0xMMmmpp */
    uint32_t request;  /* written by the kernel; fiqmon sets it back to FIQMON_SVC_NONE */
    uint32_t response; /* written by fiqmon */
};
#endif

#endif
