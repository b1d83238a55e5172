/* SPDX-License-Identifier: MIT */
/* Platforms (and builds) without one wire: the debug port is fiqmon's alone, so the
 * monitor never calls these (platform->console_shared is false). */
#include "platform.h"

bool port_console_rx(uint8_t c, bool brk)
{
    (void)c;
    (void)brk;
    return false;
}

void port_console_hold(bool on)
{
    (void)on;
}

void port_console_replay(void)
{
}
