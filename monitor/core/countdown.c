/* SPDX-License-Identifier: MIT */
#include "countdown.h"

#include "console.h"
#include "knock.h"
#include "monitor.h"
#include "platform.h"

bool boot_countdown(uint32_t ms)
{
    const char *what = knock_stay_prompt(monitor_knock_mode());
    uint32_t start = port_clock_ms(), shown = UINT32_MAX;

    for (uint32_t elapsed; (elapsed = port_clock_ms() - start) < ms;) {
        /* the time left in tenths, rounded up: 1.0 first, 0.1 last */
        uint32_t tenths = (ms - elapsed + 99u) / 100u;
        if (tenths != shown) {
            shown = tenths;
            con_printf("\r%s: %u.%u s ", what, (unsigned)(tenths / 10u), (unsigned)(tenths % 10u));
        }
        /* time is checked between every batch of bytes: a flood cannot hold the boot */
        port_rx_poll();
        if (monitor_countdown_input()) {
            con_puts("\n");
            return true;
        }
    }
    if (ms)
        con_puts("\n");
    monitor_request_boot();
    return false;
}
