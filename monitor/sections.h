/* SPDX-License-Identifier: MIT */
/* Placement hints. Buffers go to .bss.buffers.*, which the target linker script collects
 * into its own output section so `make size` can report them; on the host they are bss. */
#ifndef FIQMON_SECTIONS_H
#define FIQMON_SECTIONS_H

#define FIQMON_BUFFER(name) __attribute__((section(".bss.buffers." name)))

#endif
