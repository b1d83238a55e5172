/* SPDX-License-Identifier: MIT */
#include "command.h"

#include <string.h>

#include "console.h"
#include "parse.h"

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

static void list_candidates(const struct command *const *tables, const char *name)
{
    size_t n = strlen(name);

    for (; *tables; tables++)
        for (const struct command *c = *tables; c->name; c++)
            if (strncmp(c->name, name, n) == 0)
                con_printf(" %s", c->name);
}

enum command_result command_execute(const struct command *const *tables, char *line,
                                    uint32_t allowed)
{
    char *argv[PARSE_MAX_ARGS];
    enum command_lookup_status status;
    int argc = parse_words(line, argv, PARSE_MAX_ARGS);

    if (argc == 0)
        return CMD_RESULT_EMPTY;
    if (argc < 0) {
        con_error("too many arguments (at most %d words)", PARSE_MAX_ARGS);
        return CMD_RESULT_ERROR;
    }
    const struct command *cmd = command_lookup(tables, argv[0], &status);
    if (status == CMD_UNKNOWN) {
        con_error("unknown command '%s' (try help)", argv[0]);
        return CMD_RESULT_ERROR;
    }
    if (status == CMD_AMBIGUOUS) {
        con_printf("error: ambiguous command '%s':", argv[0]);
        list_candidates(tables, argv[0]);
        con_puts("\n");
        return CMD_RESULT_ERROR;
    }
    if (!cmd->run) {
        con_error("'%s' is not built in", cmd->name);
        return CMD_RESULT_ERROR;
    }
    if (cmd->flags & ~allowed) {
        con_error("'%s' is not permitted now", cmd->name);
        return CMD_RESULT_ERROR;
    }
    return cmd->run(argc, argv) == 0 ? CMD_RESULT_OK : CMD_RESULT_ERROR;
}

int command_help(const struct command *const *tables, const char *name)
{
    enum command_lookup_status status;

    if (name) {
        const struct command *c = command_lookup(tables, name, &status);
        if (!c)
            return con_error("%s command '%s'", status == CMD_AMBIGUOUS ? "ambiguous" : "no",
                             name);
        if (!c->run)
            return con_error("'%s' is not built in", c->name);
        con_printf("%s %s\n  ", c->name, c->usage);
        con_puts(c->help); /* a TEXT(): con_puts expands it */
        con_puts("\n");
        return 0;
    }
    for (; *tables; tables++)
        for (const struct command *c = *tables; c->name; c++)
            if (c->run) { /* built out: not listed */
                con_printf("  %-8s %-22s ", c->name, c->usage);
                con_puts(c->help);
                con_puts("\n");
            }
    con_puts("Numbers are hex (0x optional); prefix # for decimal. Commands may be "
             "abbreviated.\n");
    return 0;
}
