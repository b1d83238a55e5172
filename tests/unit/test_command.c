/* SPDX-License-Identifier: MIT */
/* Command lookup (exact, unique prefix, ambiguous, unknown) and dispatch, on a test table. */
#include "expect.h"

#include <stdio.h>

#include "command.h"
#include "console.h"
#include "fake_port.h"
#include "parse.h"

static struct {
    int calls;
    const char *which;
    int argc;
    char argv[PARSE_MAX_ARGS][32];
} called;

static int record(const char *which, int argc, char **argv)
{
    called.calls++;
    called.which = which;
    called.argc = argc;
    for (int i = 0; i < argc && i < PARSE_MAX_ARGS; i++)
        snprintf(called.argv[i], sizeof(called.argv[i]), "%s", argv[i]);
    return 0;
}

#define HANDLER(name)                                                                              \
    static int run_##name(int argc, char **argv)                                                   \
    {                                                                                              \
        return record(#name, argc, argv);                                                          \
    }
HANDLER(step)
HANDLER(stepi)
HANDLER(status)
HANDLER(poke)
HANDLER(stack)
HANDLER(po)
HANDLER(zap)

static int run_fails(int argc, char **argv)
{
    record("fails", argc, argv);
    return con_error("it went wrong");
}

static const struct command table_a[] = {
    {"step", "[WORD...]", "one step", run_step, 0, 0, CMD_ARGS_ANY, 0},
    {"stepi", "[WORD...]", "one instruction", run_stepi, 0, 0, CMD_ARGS_ANY, 0},
    {"status", "[X]", "how things are", run_status, CMD_READS_REGS, 0, 1, 0},
    {"poke", "ADDR V", "write", run_poke, CMD_WRITES_MEM, 2, 2, 0},
    {"fails", "", "always fails", run_fails, 0, 0, 0, 0},
    {NULL, NULL, NULL, NULL, 0, 0, 0, 0},
};

static const struct command table_b[] = {
    {"stack", "", "the stack", run_stack, CMD_READS_MEM, 0, 0, 0},
    {"po", "", "exact name that is also a prefix of poke", run_po, 0, 0, 0, 0},
    {"zap", "", "reboot-like", run_zap, CMD_REBOOTS, 0, 0, CMD_FULL_NAME},
    {NULL, NULL, NULL, NULL, 0, 0, 0, 0},
};

static const struct command *const tables[] = {table_a, table_b, NULL};

static int setup(void **state)
{
    fake_port_reset();
    memset(&called, 0, sizeof(called));
    return 0;
}

/* --- lookup ------------------------------------------------------------------------------ */

struct lookup_case {
    const char *name;
    enum command_lookup_status status;
    const char *found; /* name of the command found, or NULL */
};

/* clang-format off */
static const struct lookup_case lookup_cases[] = {
    {"step", CMD_FOUND, "step"},     /* exact, although "stepi" starts with it too */
    {"stepi", CMD_FOUND, "stepi"},
    {"stat", CMD_FOUND, "status"},   /* unique prefix */
    {"z", CMD_FOUND, "zap"},         /* unique prefix, second table */
    {"po", CMD_FOUND, "po"},         /* exact in the second table beats a prefix in the first */
    {"pok", CMD_FOUND, "poke"},
    {"st", CMD_AMBIGUOUS, NULL},     /* step, stepi, status, stack */
    {"ste", CMD_AMBIGUOUS, NULL},    /* step, stepi */
    {"sta", CMD_AMBIGUOUS, NULL},    /* status and stack, across tables */
    {"p", CMD_AMBIGUOUS, NULL},
    {"x", CMD_UNKNOWN, NULL},
    {"steps", CMD_UNKNOWN, NULL},    /* longer than any name */
    {"Step", CMD_UNKNOWN, NULL},     /* case matters */
};
/* clang-format on */

static const char *lookup_status_name(enum command_lookup_status st)
{
    return st == CMD_FOUND ? "CMD_FOUND" : st == CMD_AMBIGUOUS ? "CMD_AMBIGUOUS" : "CMD_UNKNOWN";
}

static void test_lookup_table(void **state)
{
    for (size_t i = 0; i < sizeof(lookup_cases) / sizeof(lookup_cases[0]); i++) {
        const struct lookup_case *c = &lookup_cases[i];
        enum command_lookup_status st = (enum command_lookup_status) - 1;
        const struct command *cmd = command_lookup(tables, c->name, &st);
        const char *got = cmd ? cmd->name : NULL;

        EXPECT_TRUE(st == c->status && expect_str_same(got, c->found),
                    "command_lookup(\"%s\"):\n  expected %s %s\n  got      %s %s", c->name,
                    lookup_status_name(c->status), c->found ? c->found : "(none)",
                    lookup_status_name(st), got ? got : "(none)");
    }
}

/* --- execute ----------------------------------------------------------------------------- */

static enum command_result run(const char *line, uint32_t allowed)
{
    char buf[256];

    snprintf(buf, sizeof(buf), "%s", line);
    fake_output_reset();
    return command_execute(tables, buf, allowed);
}

/* The output is exactly one line, "error: ..." (with CR LF on the wire). */
static void expect_one_error_line(const char *what)
{
    const char *raw = fake_output();
    const char *text = fake_output_text();

    EXPECT_TRUE(starts_with(text, "error: ") && count_lines(text) == 1 && ends_with(text, "\n"),
                "%s: expected one \"error: ...\" line, got %s", what, expect_escape(raw));
    EXPECT_TRUE(ends_with(raw, "\r\n"), "%s: the line must end with CR LF: %s", what,
                expect_escape(raw));
}

static void test_empty_line_runs_nothing_and_prints_nothing(void **state)
{
    static const char *const empty[] = {"", " ", "\t \t  "};

    for (size_t i = 0; i < 3; i++) {
        EXPECT_EQ(run(empty[i], CMD_ALL_PERMISSIONS), CMD_RESULT_EMPTY);
        EXPECT_EQ(fake_output_len(), 0);
    }
    EXPECT_EQ(called.calls, 0);
}

static void test_unknown_command_prints_one_error_line(void **state)
{
    EXPECT_EQ(run("frobnicate 1 2", CMD_ALL_PERMISSIONS), CMD_RESULT_ERROR);
    expect_one_error_line("unknown");
    EXPECT_CONTAINS(fake_output_text(), "unknown command 'frobnicate'");
    EXPECT_EQ(called.calls, 0);
}

static void test_ambiguous_command_lists_every_candidate_on_one_line(void **state)
{
    static const char *const candidates[] = {"step", "stepi", "status", "stack"};
    static const char *const others[] = {"poke", "po", "zap", "fails"};
    char words[256];
    char *argv[16];

    EXPECT_EQ(run("st", CMD_ALL_PERMISSIONS), CMD_RESULT_ERROR);
    expect_one_error_line("ambiguous");
    EXPECT_TRUE(starts_with(fake_output_text(), "error: ambiguous"), "%s", fake_output_text());
    EXPECT_EQ(called.calls, 0);
    /* the words after the ':' are exactly the candidates */
    const char *colon = strchr(fake_output_text() + strlen("error: "), ':');
    assert_non_null(colon);
    snprintf(words, sizeof(words), "%s", colon + 1);
    words[strcspn(words, "\n")] = '\0';
    int n = parse_words(words, argv, 16);
    EXPECT_EQ(n, 4);
    for (size_t i = 0; i < 4; i++) {
        bool listed = false;
        for (int j = 0; j < n; j++)
            listed |= strcmp(argv[j], candidates[i]) == 0;
        EXPECT_TRUE(listed, "candidate %s not listed", candidates[i]);
        for (int j = 0; j < n; j++)
            EXPECT_TRUE(strcmp(argv[j], others[i]) != 0, "%s listed but does not match", others[i]);
    }
}

static void test_command_without_permission_is_refused_and_not_run(void **state)
{
    static const struct {
        const char *line;
        uint32_t flag;
    } t[] = {
        {"poke 1 2", CMD_WRITES_MEM},
        {"stat", CMD_READS_REGS},
        {"stack", CMD_READS_MEM},
        {"zap", CMD_REBOOTS},
    };

    for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
        memset(&called, 0, sizeof(called));
        EXPECT_EQ(run(t[i].line, CMD_ALL_PERMISSIONS & ~t[i].flag), CMD_RESULT_ERROR);
        expect_one_error_line(t[i].line);
        EXPECT_TRUE(called.calls == 0, "'%s' ran without permission", t[i].line);
        /* and with the permission it runs */
        EXPECT_EQ(run(t[i].line, t[i].flag), CMD_RESULT_OK);
        EXPECT_TRUE(called.calls == 1, "'%s' did not run with permission", t[i].line);
    }
}

static void test_command_without_flags_runs_with_no_permissions(void **state)
{
    EXPECT_EQ(run("step", 0), CMD_RESULT_OK);
    EXPECT_EQ(called.calls, 1);
}

static void test_arguments_reach_the_handler_split_at_spaces_and_tabs(void **state)
{
    EXPECT_EQ(run("  stepi  a\tbb   0x10 ", CMD_ALL_PERMISSIONS), CMD_RESULT_OK);
    EXPECT_EQ(called.calls, 1);
    EXPECT_STR_EQ(called.which, "stepi");
    EXPECT_EQ(called.argc, 4);
    EXPECT_STR_EQ(called.argv[0], "stepi");
    EXPECT_STR_EQ(called.argv[1], "a");
    EXPECT_STR_EQ(called.argv[2], "bb");
    EXPECT_STR_EQ(called.argv[3], "0x10");
    EXPECT_EQ(fake_output_len(), 0);
}

static void test_abbreviated_command_gets_the_typed_word_as_argv0(void **state)
{
    EXPECT_EQ(run("stat x", CMD_ALL_PERMISSIONS), CMD_RESULT_OK);
    EXPECT_STR_EQ(called.which, "status");
    EXPECT_STR_EQ(called.argv[0], "stat");
    EXPECT_EQ(called.argc, 2);
}

static void test_eight_words_run_and_nine_are_refused(void **state)
{
    EXPECT_EQ(run("step 2 3 4 5 6 7 8", CMD_ALL_PERMISSIONS), CMD_RESULT_OK);
    EXPECT_EQ(called.argc, PARSE_MAX_ARGS);
    EXPECT_STR_EQ(called.argv[7], "8");
    memset(&called, 0, sizeof(called));
    EXPECT_EQ(run("step 2 3 4 5 6 7 8 9", CMD_ALL_PERMISSIONS), CMD_RESULT_ERROR);
    expect_one_error_line("nine words");
    EXPECT_CONTAINS(fake_output_text(), "too many");
    EXPECT_EQ(called.calls, 0);
}

static void test_the_dispatcher_checks_the_argument_count(void **state)
{
    static const struct {
        const char *line;
        const char *error; /* NULL: runs */
    } t[] = {
        {"stack", NULL},
        {"stack x", "error: usage: stack\n"},
        {"stack\tx", "error: usage: stack\n"},
        {"stat", NULL},
        {"stat x", NULL},
        {"stat x y", "error: usage: status [X]\n"},
        {"poke 1", "error: usage: poke ADDR V\n"},
        {"poke 1 2", NULL},
        {"poke 1 2 3", "error: usage: poke ADDR V\n"},
        {"fails 1 2 3 4 5 6 7", "error: usage: fails\n"},
    };

    for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
        memset(&called, 0, sizeof(called));
        enum command_result r = run(t[i].line, CMD_ALL_PERMISSIONS);
        if (!t[i].error) {
            EXPECT_TRUE(r == CMD_RESULT_OK && called.calls == 1, "'%s' did not run: %s", t[i].line,
                        expect_escape(fake_output()));
            continue;
        }
        EXPECT_EQ(r, CMD_RESULT_ERROR);
        expect_one_error_line(t[i].line);
        EXPECT_STR_EQ(fake_output_text(), t[i].error);
        EXPECT_TRUE(called.calls == 0, "'%s' ran", t[i].line);
    }
}

static void test_a_full_name_command_never_runs_from_a_prefix(void **state)
{
    static const char *const prefixes[] = {"z", "za"};

    for (size_t i = 0; i < 2; i++) {
        EXPECT_EQ(run(prefixes[i], CMD_ALL_PERMISSIONS), CMD_RESULT_ERROR);
        expect_one_error_line(prefixes[i]);
        EXPECT_STR_EQ(fake_output_text(), "error: 'zap' must be typed in full (it cannot be "
                                          "undone)\n");
        EXPECT_EQ(called.calls, 0);
    }
    EXPECT_EQ(run("zap", CMD_ALL_PERMISSIONS), CMD_RESULT_OK);
    EXPECT_EQ(called.calls, 1);
    /* where it is not permitted at all, that is what a prefix hears too (locked devices) */
    EXPECT_EQ(run("za", CMD_ALL_PERMISSIONS & ~CMD_REBOOTS), CMD_RESULT_ERROR);
    EXPECT_STR_EQ(fake_output_text(), "error: 'zap' is not permitted now\n");
    /* the others still take a prefix */
    EXPECT_EQ(run("sta", CMD_ALL_PERMISSIONS), CMD_RESULT_ERROR); /* ambiguous, as before */
    EXPECT_EQ(run("stac", CMD_ALL_PERMISSIONS), CMD_RESULT_OK);
    EXPECT_STR_EQ(called.which, "stack");
}

static void test_failing_handler_gives_an_error_result(void **state)
{
    EXPECT_EQ(run("fails", CMD_ALL_PERMISSIONS), CMD_RESULT_ERROR);
    EXPECT_EQ(called.calls, 1);
    expect_one_error_line("fails");
}

/* --- help -------------------------------------------------------------------------------- */

/* The line of text whose first word is word, copied into out; false if none. */
static bool line_for(const char *text, const char *word, char *out, size_t size)
{
    for (const char *line = text; *line;) {
        size_t len = strcspn(line, "\n");
        char first[32];
        if (sscanf(line, " %31s", first) == 1 && strcmp(first, word) == 0 && len < size) {
            memcpy(out, line, len);
            out[len] = '\0';
            return true;
        }
        line += len + (line[len] == '\n');
    }
    return false;
}

static void test_help_lists_every_command_of_every_table(void **state)
{
    char line[256];

    fake_output_reset();
    EXPECT_EQ(command_help(tables, NULL), 0);
    const char *text = fake_output_text();
    for (const struct command *const *t = tables; *t; t++) {
        for (const struct command *c = *t; c->name; c++) {
            EXPECT_TRUE(line_for(text, c->name, line, sizeof(line)), "help has no line for %s: %s",
                        c->name, expect_escape(text));
            EXPECT_CONTAINS(line, c->usage);
            EXPECT_CONTAINS(line, unpacked(c->help));
        }
    }
}

static void test_help_for_one_command(void **state)
{
    fake_output_reset();
    EXPECT_EQ(command_help(tables, "stat"), 0);
    EXPECT_STR_EQ(fake_output_text(), "status [X]\n  how things are\n");
}

static void test_help_for_an_unknown_or_ambiguous_name_is_one_error(void **state)
{
    fake_output_reset();
    EXPECT_EQ(command_help(tables, "nosuch"), -1);
    expect_one_error_line("help nosuch");
    fake_output_reset();
    EXPECT_EQ(command_help(tables, "st"), -1);
    expect_one_error_line("help st");
    EXPECT_CONTAINS(fake_output_text(), "ambiguous");
    /* the candidates, as the dispatcher lists them */
    EXPECT_STR_EQ(fake_output_text(), "error: ambiguous command 'st': step stepi status stack\n");
}

static void test_help_names_the_commands_that_take_no_prefix(void **state)
{
    fake_output_reset();
    EXPECT_EQ(command_help(tables, NULL), 0);
    EXPECT_CONTAINS(fake_output_text(), "\nCommands may be abbreviated, except: zap\n");
    fake_output_reset();
    EXPECT_EQ(command_help(tables, "zap"), 0);
    EXPECT_STR_EQ(fake_output_text(),
                  "zap \n  reboot-like\n  (type the full name: it cannot be undone)\n");
}

/* --- the real tables (the core's and the fake platform's) -------------------------------- */

/* min and max words of a usage string: "[-p] ADDR [LEN]" 1 and 3, "..." any number. */
static void usage_counts(const char *usage, unsigned *min, unsigned *max)
{
    int depth = 0;
    bool any = false;

    *min = *max = 0;
    for (const char *p = usage; *p;) {
        size_t n = strcspn(p, " ");
        const char *w = p;
        for (; *w == '['; w++)
            depth++;
        if (n) {
            *min += depth == 0;
            (*max)++;
            any |= strstr(tfmt("%.*s", (int)n, p), "...") != NULL;
        }
        for (const char *e = p + n; e > w && e[-1] == ']'; e--)
            depth--;
        p += n + (p[n] == ' ');
    }
    if (any)
        *max = CMD_ARGS_ANY;
}

static void test_every_commands_argument_counts_match_its_usage(void **state)
{
    unsigned min, max;

    usage_counts("[-p] ADDR [LEN] [b|h|w]", &min, &max); /* the helper itself */
    EXPECT_TRUE(min == 1 && max == 4, "%u %u", min, max);
    usage_counts("[ADDR [CMDLINE...]]", &min, &max);
    EXPECT_TRUE(min == 0 && max == CMD_ARGS_ANY, "%u %u", min, max);
    for (const struct command *const *t = command_tables; *t; t++) {
        for (const struct command *c = *t; c->name; c++) {
            usage_counts(c->usage, &min, &max);
            EXPECT_TRUE(c->min_args == min && c->max_args == max,
                        "'%s %s' takes %u to %u words, the table says %u to %u", c->name, c->usage,
                        min, max, c->min_args, c->max_args);
        }
    }
}

static void test_help_is_aligned_and_fits_80_columns(void **state)
{
    char line[256];

    fake_output_reset();
    EXPECT_EQ(command_help(command_tables, NULL), 0);
    const char *text = fake_output_text();
    for (const char *p = text; *p;) {
        size_t len = strcspn(p, "\n");
        EXPECT_TRUE(len <= COMMAND_HELP_WIDTH, "help line of %zu columns: %.*s", len, (int)len, p);
        p += len + (p[len] == '\n');
    }
    for (const struct command *const *t = command_tables; *t; t++) {
        for (const struct command *c = *t; c->name; c++) {
            assert_true(line_for(text, c->name, line, sizeof(line)));
            const char *help = unpacked(c->help); /* a TEXT(): packed in the table */
            size_t ul = strlen(c->usage), hl = strlen(help);
            EXPECT_TRUE(strlen(line) == 35 + hl && memcmp(line + 11, c->usage, ul) == 0 &&
                            strspn(line + 11 + ul, " ") == 24 - ul &&
                            memcmp(line + 35, help, hl) == 0,
                        "'%s': usage and help not in their columns (11, 35): %s", c->name, line);
        }
    }
    /* and the commands that cannot be undone are named */
    EXPECT_CONTAINS(text, "except: readonly release boot go reboot\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_lookup_table, setup),
        cmocka_unit_test_setup(test_empty_line_runs_nothing_and_prints_nothing, setup),
        cmocka_unit_test_setup(test_unknown_command_prints_one_error_line, setup),
        cmocka_unit_test_setup(test_ambiguous_command_lists_every_candidate_on_one_line, setup),
        cmocka_unit_test_setup(test_command_without_permission_is_refused_and_not_run, setup),
        cmocka_unit_test_setup(test_command_without_flags_runs_with_no_permissions, setup),
        cmocka_unit_test_setup(test_arguments_reach_the_handler_split_at_spaces_and_tabs, setup),
        cmocka_unit_test_setup(test_abbreviated_command_gets_the_typed_word_as_argv0, setup),
        cmocka_unit_test_setup(test_eight_words_run_and_nine_are_refused, setup),
        cmocka_unit_test_setup(test_the_dispatcher_checks_the_argument_count, setup),
        cmocka_unit_test_setup(test_a_full_name_command_never_runs_from_a_prefix, setup),
        cmocka_unit_test_setup(test_failing_handler_gives_an_error_result, setup),
        cmocka_unit_test_setup(test_help_lists_every_command_of_every_table, setup),
        cmocka_unit_test_setup(test_help_for_one_command, setup),
        cmocka_unit_test_setup(test_help_for_an_unknown_or_ambiguous_name_is_one_error, setup),
        cmocka_unit_test_setup(test_help_names_the_commands_that_take_no_prefix, setup),
        cmocka_unit_test_setup(test_every_commands_argument_counts_match_its_usage, setup),
        cmocka_unit_test_setup(test_help_is_aligned_and_fits_80_columns, setup),
    };

    return cmocka_run_group_tests_name("command", tests, NULL, NULL);
}
