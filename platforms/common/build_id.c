/* SPDX-License-Identifier: MIT */
/* The GNU build-id note the linker writes (--build-id), placed in .rodata by the linker
 * script: namesz, descsz, type, "GNU\0", then the hash. */
#include <stdint.h>

#include "port.h"

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
