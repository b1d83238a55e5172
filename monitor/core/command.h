/* SPDX-License-Identifier: MIT */
/* Table-driven commands: {name, usage, help, handler, flags, min_args, max_args, options}.
 * Names match by unique prefix (unless CMD_FULL_NAME); flags say what a command may do, so
 * one mask in the dispatcher can forbid whole classes; the dispatcher also checks the
 * argument count, so no handler can forget to refuse extra words. */
#ifndef FIQMON_COMMAND_H
#define FIQMON_COMMAND_H

#include <stdint.h>

#define CMD_READS_REGS      (1u << 0)
#define CMD_READS_MEM       (1u << 1)
#define CMD_WRITES_MEM      (1u << 2)
#define CMD_CONTROLS_KERNEL (1u << 3) /* changes whether or how the kernel runs */
#define CMD_REBOOTS         (1u << 4)
#define CMD_GDB             (1u << 5) /* a GDB session (the stub checks it per packet) */
#define CMD_READS_KLOG      (1u << 6) /* the kernel's log buffer */
#define CMD_ALL_PERMISSIONS 0x7fu

/* options */
#define CMD_FULL_NAME (1u << 0) /* cannot be undone: a prefix (noise, a typo) never runs it */

/* max_args for "as many words as a line holds" */
#define CMD_ARGS_ANY 15u

struct command {
    const char *name;
    const char *usage; /* arguments, "" if none; min/max_args count its words */
    const char *help;  /* a TEXT() (text.h): print it with con_puts() */
    int (*run)(int argc, char **argv); /* 0, or -1 after printing an error */
    uint16_t flags;                    /* CMD_READS_REGS...: permissions it needs */
    uint8_t min_args : 4;              /* words after the name, checked before run */
    uint8_t max_args : 4;
    uint8_t options;                   /* CMD_FULL_NAME */
};

/* NULL-name terminated tables, searched in order: the core's, then the platform's. */
extern const struct command core_commands[];
extern const struct command platform_commands[]; /* per platform; may be empty */
extern const struct command *const command_tables[];

enum command_lookup_status { CMD_FOUND, CMD_UNKNOWN, CMD_AMBIGUOUS };

/* An exact name wins; otherwise a prefix must match exactly one command. */
const struct command *command_lookup(const struct command *const *tables, const char *name,
                                     enum command_lookup_status *status);

enum command_result { CMD_RESULT_EMPTY, CMD_RESULT_OK, CMD_RESULT_ERROR };

/* Splits line in place, finds the command, checks its flags against allowed and its
 * argument count, runs it. Every failure prints exactly one "error: ..." line. */
enum command_result command_execute(const struct command *const *tables, char *line,
                                    uint32_t allowed);

/* help output for one table set (all commands, or one by name), at most
 * COMMAND_HELP_WIDTH columns a line as long as the table's texts fit (tests check). */
#define COMMAND_HELP_WIDTH 80
int command_help(const struct command *const *tables, const char *name);

#endif
