/* SPDX-License-Identifier: MIT */
/* Numbers and words typed at the prompt. */
#include "expect.h"

#include "parse.h"

static const char *status_name(enum parse_status st)
{
    switch (st) {
    case PARSE_OK:
        return "PARSE_OK";
    case PARSE_EMPTY:
        return "PARSE_EMPTY";
    case PARSE_BAD_DIGIT:
        return "PARSE_BAD_DIGIT";
    case PARSE_OVERFLOW:
        return "PARSE_OVERFLOW";
    }
    return "?";
}

#define SENTINEL 0x5a5a5a5au

struct u32_case {
    const char *text;
    enum parse_status status;
    uint32_t value; /* for PARSE_OK */
};

static const struct u32_case u32_cases[] = {
    {"0", PARSE_OK, 0},
    {"1000", PARSE_OK, 0x1000},
    {"deadBEEF", PARSE_OK, 0xdeadbeef},
    {"0x1000", PARSE_OK, 0x1000},
    {"0X1f", PARSE_OK, 0x1f},
    {"#4096", PARSE_OK, 4096},
    {"#0", PARSE_OK, 0},
    {"ffffffff", PARSE_OK, 0xffffffff},
    {"0xffffffff", PARSE_OK, 0xffffffff},
    {"#4294967295", PARSE_OK, 0xffffffff},
    {"00000000000000001", PARSE_OK, 1}, /* leading zeros are not an overflow */
    {"", PARSE_EMPTY, 0},
    {"0x", PARSE_EMPTY, 0},
    {"#", PARSE_EMPTY, 0},
    {"xyz", PARSE_BAD_DIGIT, 0},
    {"12g", PARSE_BAD_DIGIT, 0},
    {"#12a", PARSE_BAD_DIGIT, 0},
    {"-1", PARSE_BAD_DIGIT, 0},
    {"0x-1", PARSE_BAD_DIGIT, 0},
    {"1 ", PARSE_BAD_DIGIT, 0},
    {"##1", PARSE_BAD_DIGIT, 0},
    {"#0x10", PARSE_BAD_DIGIT, 0},
    {"100000000", PARSE_OVERFLOW, 0},
    {"0x100000000", PARSE_OVERFLOW, 0},
    {"#4294967296", PARSE_OVERFLOW, 0},
    {"#99999999999999999999999", PARSE_OVERFLOW, 0},
    {"fffffffffffffffffffffffff", PARSE_OVERFLOW, 0},
};

static void test_parse_u32_table(void **state)
{
    for (size_t i = 0; i < sizeof(u32_cases) / sizeof(u32_cases[0]); i++) {
        const struct u32_case *c = &u32_cases[i];
        uint32_t v = SENTINEL;
        enum parse_status st = parse_u32(c->text, &v);
        uint32_t want = c->status == PARSE_OK ? c->value : SENTINEL;

        EXPECT_TRUE(st == c->status && v == want,
                    "parse_u32(%s):\n  expected %s, 0x%08x\n  got      %s, 0x%08x",
                    expect_escape(c->text), status_name(c->status), (unsigned)want, status_name(st),
                    (unsigned)v);
    }
}

struct int_case {
    const char *text;
    enum parse_status status;
    long value;
};

static const struct int_case int_cases[] = {
    {"-1", PARSE_OK, -1},
    {"0", PARSE_OK, 0},
    {"1", PARSE_OK, 1},
    {"-0", PARSE_OK, 0},
    {"10", PARSE_OK, 10}, /* decimal, not hex */
    {"2147483647", PARSE_OK, 2147483647L},
    {"-2147483647", PARSE_OK, -2147483647L},
    {"", PARSE_EMPTY, 0},
    {"-", PARSE_EMPTY, 0},
    {"one", PARSE_BAD_DIGIT, 0},
    {"1a", PARSE_BAD_DIGIT, 0},
    {"--1", PARSE_BAD_DIGIT, 0},
    {"+1", PARSE_BAD_DIGIT, 0},
    {"0x1", PARSE_BAD_DIGIT, 0},
    {"2147483648", PARSE_OVERFLOW, 0},
    {"99999999999", PARSE_OVERFLOW, 0},
};

static void test_parse_int_table(void **state)
{
    for (size_t i = 0; i < sizeof(int_cases) / sizeof(int_cases[0]); i++) {
        const struct int_case *c = &int_cases[i];
        long v = 12345;
        enum parse_status st = parse_int(c->text, &v);
        long want = c->status == PARSE_OK ? c->value : 12345;

        EXPECT_TRUE(st == c->status && v == want,
                    "parse_int(%s):\n  expected %s, %ld\n  got      %s, %ld",
                    expect_escape(c->text), status_name(c->status), want, status_name(st), v);
    }
}

static void test_every_status_has_its_own_text(void **state)
{
    const char *texts[4];

    for (int st = PARSE_OK; st <= PARSE_OVERFLOW; st++) {
        texts[st] = parse_status_text((enum parse_status)st);
        EXPECT_TRUE(texts[st] && *texts[st] && strcmp(texts[st], "?") != 0, "status %d has no text",
                    st);
        for (int j = 0; j < st; j++)
            EXPECT_TRUE(strcmp(texts[st], texts[j]) != 0, "statuses %d and %d share \"%s\"", j, st,
                        texts[st]);
    }
}

struct words_case {
    const char *line;
    int max;
    int argc;
    const char *words; /* expected words joined with '|' */
};

static const struct words_case words_cases[] = {
    {"md 1000 40 b", 8, 4, "md|1000|40|b"},
    {"  md   1000\t\t40 ", 8, 3, "md|1000|40"},
    {"\tpc", 8, 1, "pc"},
    {"", 8, 0, ""},
    {"  \t  ", 8, 0, ""},
    {"a b c d e f g h", 8, 8, "a|b|c|d|e|f|g|h"},
    {"a b c d e f g h ", 8, 8, "a|b|c|d|e|f|g|h"},
    {"a b c d e f g h i", 8, -1, ""},
    {"a b c", 2, -1, ""},
    {"x", 1, 1, "x"},
};

static void test_parse_words_table(void **state)
{
    for (size_t i = 0; i < sizeof(words_cases) / sizeof(words_cases[0]); i++) {
        const struct words_case *c = &words_cases[i];
        char line[128], joined[128] = "";
        char *argv[PARSE_MAX_ARGS + 1];

        strcpy(line, c->line);
        int argc = parse_words(line, argv, c->max);
        for (int a = 0; a < argc; a++) {
            if (a)
                strcat(joined, "|");
            strcat(joined, argv[a]);
        }
        EXPECT_TRUE(argc == c->argc && strcmp(joined, c->words) == 0,
                    "parse_words(%s, max %d):\n  expected %d words %s\n  got      %d words %s",
                    expect_escape(c->line), c->max, c->argc, c->words, argc, joined);
    }
}

static void test_parse_words_points_into_the_line(void **state)
{
    char line[] = " mw  100 ff";
    char *argv[PARSE_MAX_ARGS];

    EXPECT_EQ(parse_words(line, argv, PARSE_MAX_ARGS), 3);
    EXPECT_TRUE(argv[0] == line + 1 && argv[1] == line + 5 && argv[2] == line + 9,
                "words are not split in place");
}

static void test_parse_words_never_writes_past_max(void **state)
{
    char line[] = "a b c d";
    char *argv[3] = {NULL, NULL, NULL};
    char *guard = argv[2];

    EXPECT_EQ(parse_words(line, argv, 2), -1);
    EXPECT_TRUE(argv[2] == guard, "argv[2] was written");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_u32_table),
        cmocka_unit_test(test_parse_int_table),
        cmocka_unit_test(test_every_status_has_its_own_text),
        cmocka_unit_test(test_parse_words_table),
        cmocka_unit_test(test_parse_words_points_into_the_line),
        cmocka_unit_test(test_parse_words_never_writes_past_max),
    };

    return cmocka_run_group_tests_name("parse", tests, NULL, NULL);
}
