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
