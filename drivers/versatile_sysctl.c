/* SPDX-License-Identifier: MIT */
#include "versatile_sysctl.h"
#include "mmio.h"

void versatile_sysctl_reset(uintptr_t base)
{
    mmio_write_32(base + SYS_LOCK, SYS_LOCK_KEY);
    mmio_write_32(base + SYS_RESETCTL, SYS_RESETCTL_RESET);
    for (;;) {
        /* the reset takes effect asynchronously */
    }
}

uint32_t versatile_sysctl_24mhz(uintptr_t base)
{
    return mmio_read_32(base + SYS_24MHZ);
}
