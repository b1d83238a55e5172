/* SPDX-License-Identifier: MIT */
/* For platforms that reach the interrupted system's memory through a translation of its
 * virtual addresses (virt, virt64): port_mem_translated.c gives port_mem_read, _write,
 * _is_memory and _space, each access a fault-safe probe at the physical address; the
 * platform gives the translation. */
#ifndef FIQMON_PORT_MEM_TRANSLATED_H
#define FIQMON_PORT_MEM_TRANSLATED_H

#include <stdbool.h>

#include "platform.h"

/* The space port_mem_space() chose last (every monitor entry sets PORT_MEM_VIRTUAL). */
enum port_mem_space port_mem_space_now(void);

/* The platform's: addr in the current space to a physical address; false if the kernel's
 * tables do not map it (virtual) or it is not to be reached. */
bool platform_mem_translate(target_addr_t addr, target_addr_t *pa);

#endif
