/* SPDX-License-Identifier: MIT */
/* The GNU build-id note the linker writes (--build-id), placed in .rodata by the linker
 * script: namesz, descsz, type, "GNU\0", then the hash. */
#include <stdint.h>

#include "crc32.h"
#include "platform.h"

extern const uint8_t __resident_copy_start[], __rodata_end[];

/* CRC-32 of fiqmon's resident code and constants as they are in memory now: equal to the
 * image's unless something wrote over fiqmon. */
uint32_t port_self_crc(void)
{
    return crc32_update(0, __resident_copy_start, (size_t)(__rodata_end - __resident_copy_start));
}

extern const uint32_t __build_id_note[];
extern const uint8_t __build_id_note_end[];

const uint8_t *port_build_id(unsigned *len)
{
    const uint32_t *note = __build_id_note;

    if ((const uint8_t *)note + 16 > __build_id_note_end) {
        *len = 0;
        return 0;
    }
    *len = note[1];
    return (const uint8_t *)note + 12 + ((note[0] + 3u) & ~3u);
}

/* The monitor's stack (FIQ or Monitor mode) is painted at boot; the deepest use since then
 * is where the paint ends. */
#define STACK_PAINT 0x5afe57acu
extern uint32_t __stack_fiq_bottom[], __stack_fiq_top[];

void port_monitor_stack_paint(void)
{
    for (uint32_t *p = __stack_fiq_bottom; p < __stack_fiq_top; p++)
        *p = STACK_PAINT;
}

uint32_t port_monitor_stack_used(uint32_t *size)
{
    const uint32_t *p = __stack_fiq_bottom;

    *size = (uint32_t)((uintptr_t)__stack_fiq_top - (uintptr_t)__stack_fiq_bottom);
    while (p < __stack_fiq_top && *p == STACK_PAINT)
        p++;
    return (uint32_t)((uintptr_t)__stack_fiq_top - (uintptr_t)p);
}
