/* SPDX-License-Identifier: MIT */
#include "command.h"

#include <string.h>

#include "console.h"
#include "parse.h"

/* help's columns: names up to 8 characters, usages up to 23 (tests check the tables) */
#define HELP_LINE "  %-8s %-23s " /* then the help text (a TEXT()) */

const struct command *command_lookup(const struct command *const *tables, const char *name,
                                     enum command_lookup_status *status)
{
    const struct command *found = NULL;
    size_t n = strlen(name);
    int matches = 0;

    for (; *tables; tables++) {
        for (const struct command *c = *tables; c->name; c++) {
            if (strcmp(c->name, name) == 0) {
                *status = CMD_FOUND;
                return c;
            }
            if (strncmp(c->name, name, n) == 0) {
                found = c;
                matches++;
            }
        }
    }
    *status = matches == 1 ? CMD_FOUND : matches ? CMD_AMBIGUOUS : CMD_UNKNOWN;
    return matches == 1 ? found : NULL;
}

/* The command name stands for, or NULL after one error line: unknown (unknown_fmt, with
 * the name), or ambiguous (with every candidate, so the user sees what to type). */
static const struct command *find(const struct command *const *tables, const char *name,
                                  const char *unknown_fmt)
{
    enum command_lookup_status status;
    const struct command *cmd = command_lookup(tables, name, &status);
    size_t n = strlen(name);

    if (status == CMD_UNKNOWN) {
        con_error(unknown_fmt, name);
    } else if (status == CMD_AMBIGUOUS) {
        con_printf("error: ambiguous command '%s':", name);
        for (; *tables; tables++)
            for (const struct command *c = *tables; c->name; c++)
                if (strncmp(c->name, name, n) == 0)
                    con_printf(" %s", c->name);
        con_puts("\n");
    }
    return cmd;
}

enum command_result command_execute(const struct command *const *tables, char *line,
                                    uint32_t allowed)
{
    char *argv[PARSE_MAX_ARGS];
    int argc = parse_words(line, argv, PARSE_MAX_ARGS);

    if (argc == 0)
        return CMD_RESULT_EMPTY;
    if (argc < 0) {
        con_error("too many arguments (at most %d words)", PARSE_MAX_ARGS);
        return CMD_RESULT_ERROR;
    }
    const struct command *cmd = find(tables, argv[0], "unknown command '%s' (try help)");
    if (!cmd)
        return CMD_RESULT_ERROR;
    if (!cmd->run) {
        con_error("'%s' is not built in", cmd->name);
        return CMD_RESULT_ERROR;
    }
    if (cmd->flags & ~allowed) {
        con_error("'%s' is not permitted now", cmd->name);
        return CMD_RESULT_ERROR;
    }
    if (cmd->options & CMD_FULL_NAME && strcmp(argv[0], cmd->name) != 0) {
        con_error("'%s' must be typed in full (it cannot be undone)", cmd->name);
        return CMD_RESULT_ERROR;
    }
    if (argc - 1 < cmd->min_args || argc - 1 > cmd->max_args) {
        con_error("usage: %s%s%s", cmd->name, cmd->usage[0] ? " " : "", cmd->usage);
        return CMD_RESULT_ERROR;
    }
    return cmd->run(argc, argv) == 0 ? CMD_RESULT_OK : CMD_RESULT_ERROR;
}

int command_help(const struct command *const *tables, const char *name)
{
    const struct command *const *t;

    if (name) {
        const struct command *c = find(tables, name, "no command '%s'");
        if (!c)
            return -1;
        if (!c->run)
            return con_error("'%s' is not built in", c->name);
        con_printf("%s %s\n  ", c->name, c->usage);
        con_puts(c->help); /* a TEXT(): con_puts expands it */
        con_puts("\n");
        if (c->options & CMD_FULL_NAME)
            con_puts("  (type the full name: it cannot be undone)\n");
        return 0;
    }
    for (t = tables; *t; t++)
        for (const struct command *c = *t; c->name; c++)
            if (c->run) { /* built out: not listed */
                con_printf(HELP_LINE, c->name, c->usage);
                con_puts(c->help);
                con_puts("\n");
            }
    con_puts("Numbers are hex (0x optional); prefix # for decimal.\n"
             "Commands may be abbreviated, except:");
    for (t = tables; *t; t++)
        for (const struct command *c = *t; c->name; c++)
            if (c->options & CMD_FULL_NAME && c->run)
                con_printf(" %s", c->name);
    con_puts("\n");
    return 0;
}
