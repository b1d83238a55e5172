/* SPDX-License-Identifier: MIT */
/* Argument parsing every command shares: one error line naming what was wrong. */
#include "commands.h"

#include "console.h"
#include "parse.h"

int cmd_parse_number(const char *what, const char *s, uint32_t *out)
{
    enum parse_status st = parse_u32(s, out);

    if (st != PARSE_OK)
        return con_error("bad %s '%s': %s", what, s, parse_status_text(st));
    return 0;
}

int cmd_parse_address(const char *s, target_addr_t *out)
{
    enum parse_status st = parse_addr(s, out);

    if (st != PARSE_OK)
        return con_error("bad address '%s': %s", s, parse_status_text(st));
    return 0;
}
