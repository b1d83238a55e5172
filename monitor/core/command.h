/* SPDX-License-Identifier: MIT */
/* Table-driven commands: {name, usage, help, handler, flags}. Names match by unique prefix;
 * flags say what a command may do, so one mask in the dispatcher can forbid whole classes. */
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

struct command {
    const char *name;
    const char *usage; /* arguments, "" if none */
    const char *help;  /* a TEXT() (text.h): print it with con_puts() */
    int (*run)(int argc, char **argv); /* 0, or -1 after printing an error */
    uint32_t flags;
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

/* Splits line in place, finds the command, checks its flags against allowed, runs it.
 * Every failure prints exactly one "error: ..." line. */
enum command_result command_execute(const struct command *const *tables, char *line,
                                    uint32_t allowed);

/* help output for one table set (all commands, or one by name). */
int command_help(const struct command *const *tables, const char *name);

#endif
