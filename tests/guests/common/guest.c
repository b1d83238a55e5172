/* SPDX-License-Identifier: MIT */
/* Shared guest services: fault reports, idling, the timer interrupt set-up. */
#include "guest.h"
#include "mmio.h"
#include "pl190_vic.h"
#include "sp804.h"
#include "versatile_sysctl.h"

static const char *const fault_names[] = {"reset", "undefined instruction", "swi",
                                          "prefetch abort", "data abort", "reserved",
                                          "irq without handler"};

void guest_fault(uint32_t kind, uint32_t pc, uint32_t spsr)
{
    const char *name = kind < sizeof(fault_names) / sizeof(fault_names[0]) ? fault_names[kind]
                                                                            : "unknown";

    con_printf("guest %s: unexpected %s exception at pc=%08lx spsr=%08lx\n", guest_name, name,
               pc, spsr);
    guest_idle();
}

void guest_idle(void)
{
    for (;;)
        cpu_wfi();
}

uint32_t sys_24mhz(void)
{
    return mmio_read_32(SYSCTL_BASE + SYS_24MHZ);
}

bool guest_timer_irq_start(uintptr_t base, unsigned line, uint32_t period)
{
    if (mmio_read_32(VIC_BASE + VIC_INTSELECT) & (1u << line)) {
        con_printf("guest %s: VIC line %u is routed to FIQ; not taking it\n", guest_name, line);
        return false;
    }
    mmio_write_32(VIC_BASE + VIC_INTENABLE, 1u << line);
    sp804_start_periodic(base, period);
    return true;
}
