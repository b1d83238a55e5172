/* SPDX-License-Identifier: MIT */
/* Placement hints. Buffers go to .bss.buffers.*, which the target linker script collects
 * into its own output section so `make size` can report them; on the host they are bss. */
#ifndef FIQMON_SECTIONS_H
#define FIQMON_SECTIONS_H

#define FIQMON_BUFFER(name) __attribute__((section(".bss.buffers." name)))

/* Secrets (the unlock key) go to .data.secret.*: resident, copied with .data, and outside
 * the .text/.rodata range that `version`'s CRC covers, so no output depends on them. */
#define FIQMON_SECRET(name) __attribute__((section(".data.secret." name)))

#endif
