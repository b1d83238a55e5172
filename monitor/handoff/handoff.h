/* SPDX-License-Identifier: MIT */
/* Handing the CPU to a kernel: payload checks, the Linux ARM boot protocol (ATAGs, or a
 * device tree with fiqmon's region reserved), and the hand-off itself, which rewrites the
 * saved frame so that the FIQ return enters the kernel. */
#ifndef FIQMON_HANDOFF_H
#define FIQMON_HANDOFF_H

#include <stdbool.h>
#include <stdint.h>

#include "cpu_frame.h"
#include "payload.h"
#include "platform.h" /* struct boot_target */


#define ATAG_NONE    0x00000000u
#define ATAG_CORE    0x54410001u
#define ATAG_MEM     0x54410002u
#define ATAG_CMDLINE 0x54410009u
#define BOOT_CMDLINE_MAX 256u

/* Reads and checks the payload header at addr (and, if check_data, the data CRC).
 * Returns NULL if it is bootable, else why not ("no payload" when the magic is absent). */
const char *payload_check(uint32_t addr, struct payload_header *h, bool check_data);

/* Builds an ATAG list at t->atags_addr: CORE, MEM for RAM minus fiqmon's region, CMDLINE. */
bool boot_write_atags(const struct boot_target *t, const char *cmdline);

/* Copies the device tree at src to dst, adding a /memreserve/ entry for [base, base+size);
 * dst == src edits it in place. A tree whose totalsize leaves 16 bytes free after its
 * blocks keeps its size. Returns false (and writes nothing useful) if src is not a valid
 * FDT or it would not fit in max bytes. */
/* In the device tree at dtb, the first node named node gets interrupts = <0 spi flags>
 * (an SPI; its 12-byte property rewritten in place, flags kept). false if there is none. */
bool boot_fdt_set_spi(uint32_t dtb, const char *node, uint32_t spi);

/* fiqmon is the PSCI firmware (platform->cpus > 1): the device tree at dtb gets a /psci
 * node (method "smc") and enable-method = "psci" on each cpu@ node, unless it has a /psci
 * node already; it may grow up to max bytes. false if it is not a valid tree (v17) or has
 * no room. */
bool boot_fdt_add_psci(uint32_t dtb, uint32_t max);

bool boot_fdt_copy_reserving(uint32_t dst, uint32_t max, uint32_t src, uint32_t src_size,
                             uint32_t base, uint32_t size);

/* Fault-safe memmove through the port (either direction). */
bool boot_mem_move(uint32_t dst, uint32_t src, uint32_t len);

/* Rewrites the frame so the exception return enters a kernel at entry with r0-r2 (x0-x2). */
void boot_enter(struct cpu_frame *f, uint32_t cpsr, target_addr_t entry, uint32_t r0, uint32_t r1,
                uint32_t r2);

/* Boots the payload at t->payload_addr through f. Prints what it does or one error line.
 * Returns 0 when f now enters the kernel. */
int boot_payload(struct cpu_frame *f);

/* At reset: describe the payload (or why there is none / why it was refused).
 * Returns true if there is a bootable payload. */
bool boot_describe_payload(void);

#endif
