/* SPDX-License-Identifier: MIT */
/* The emulated page without a model: each trapped access is made on the real UART0 at the
 * same offset and width. The kernel's console works exactly as without the shim, which
 * measures what the trap itself costs (docs/one-wire.md). */
#include "mmio.h"
#include "platform_def.h"
#include "virt.h"

uint32_t virt_emulated_access(bool write, uint32_t offset, unsigned width, uint32_t value)
{
    uintptr_t a = CONSOLE_UART_BASE + (offset & 0xffcu) + (offset & (4u - width));

    if (write) {
        if (width == 4)
            mmio_write_32(a, value);
        else if (width == 2)
            mmio_write_16(a, (uint16_t)value);
        else
            mmio_write_8(a, (uint8_t)value);
        return 0;
    }
    return width == 4 ? mmio_read_32(a) : width == 2 ? mmio_read_16(a) : mmio_read_8(a);
}
