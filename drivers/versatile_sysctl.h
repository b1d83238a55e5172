/* SPDX-License-Identifier: MIT */
/* ARM Versatile/RealView system controller registers (the "SYS_*" block). */
#ifndef FIQMON_VERSATILE_SYSCTL_H
#define FIQMON_VERSATILE_SYSCTL_H

#define SYS_LOCK            0x020   /* write SYS_LOCK_KEY to unlock SYS_RESETCTL */
#define SYS_RESETCTL        0x040
#define SYS_24MHZ           0x05c   /* free-running 24 MHz counter */
#define SYS_LOCK_KEY        0xa05f
#define SYS_RESETCTL_RESET  0x105   /* bit 8 requests the reset (what QEMU models), level 5 */

#ifndef __ASSEMBLER__
#include <stdint.h>
void versatile_sysctl_reset(uintptr_t base) __attribute__((noreturn));
uint32_t versatile_sysctl_24mhz(uintptr_t base);
#endif

#endif
