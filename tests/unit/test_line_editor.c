/* SPDX-License-Identifier: MIT */
/* The shell's line editor: echo, editing keys, line ends, and the hard length limit. */
#include "expect.h"

#include <stdio.h>
#include <stdlib.h>

#include "line_editor.h"

#define RUBOUT "\b \b"

static char echoed[8192];
static size_t echoed_len;

static void capture_echo(const char *s, size_t n)
{
    EXPECT_TRUE(echoed_len + n < sizeof(echoed), "echo capture full");
    memcpy(echoed + echoed_len, s, n);
    echoed_len += n;
    echoed[echoed_len] = '\0';
}

/* On the heap, exactly its own size: ASan sees a write past the end of the struct. */
static struct line_editor *le;

static char lines[4096];

/* A fresh editor (line_init must cope with any old contents), no echo, no lines. */
static void restart(void)
{
    memset(le, 0xa5, sizeof(*le));
    line_init(le, capture_echo);
    echoed_len = 0;
    echoed[0] = '\0';
    lines[0] = '\0';
}

static int setup(void **state)
{
    le = malloc(sizeof(*le));
    assert_non_null(le);
    restart();
    return 0;
}

static int teardown(void **state)
{
    free(le);
    le = NULL;
    return 0;
}

/* The letter for each event, "" for LINE_NONE. */
static const char *event_name(enum line_event ev)
{
    switch (ev) {
    case LINE_NONE:
        return "";
    case LINE_READY:
        return "R";
    case LINE_CANCELLED:
        return "C";
    case LINE_TOO_LONG:
        return "T";
    case LINE_DISCARDED:
        return "D";
    }
    return "?";
}

/* Feeds bytes as the monitor does: after LINE_READY the line is taken (appended to lines,
 * '|' after each) and the editor reset, keeping a CR that just ended it. Returns the events
 * as letters. */
static const char *feed(const void *bytes, size_t n)
{
    static char events[8192];
    const uint8_t *b = bytes;

    events[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        enum line_event ev = line_feed(le, b[i]);
        EXPECT_TRUE(le->len <= LINE_MAX_CHARS, "len %u after byte %zu", le->len, i);
        if (ev == LINE_READY) {
            EXPECT_TRUE(strlen(le->buf) == le->len, "buf is not NUL-terminated at len");
            strcat(lines, le->buf);
            strcat(lines, "|");
            line_reset(le, le->last_cr);
        }
        strcat(events, event_name(ev));
    }
    return events;
}

static const char *feed_str(const char *s)
{
    return feed(s, strlen(s));
}

static void test_printable_bytes_are_echoed_and_collected(void **state)
{
    EXPECT_STR_EQ(feed_str("md 1000 #16 w~"), "");
    EXPECT_STR_EQ(echoed, "md 1000 #16 w~");
    EXPECT_STR_EQ(feed_str("\r"), "R");
    EXPECT_STR_EQ(lines, "md 1000 #16 w~|");
}

static void test_backspace_and_del_erase_one_char(void **state)
{
    static const char *const keys[] = {"\b", "\x7f"};

    for (size_t i = 0; i < 2; i++) {
        restart();
        feed_str("pcx");
        feed_str(keys[i]);
        EXPECT_STR_EQ(echoed, "pcx" RUBOUT);
        feed_str("\r");
        EXPECT_STR_EQ(lines, "pc|");
    }
}

static void test_erase_on_an_empty_line_echoes_nothing(void **state)
{
    feed_str("\b\x7f\b");
    EXPECT_STR_EQ(echoed, "");
    feed_str("a\b\b\r");
    EXPECT_STR_EQ(echoed, "a" RUBOUT);
    EXPECT_STR_EQ(lines, "|");
}

static void test_ctrl_u_erases_the_whole_line(void **state)
{
    feed_str("garbage\x15");
    EXPECT_STR_EQ(echoed, "garbage" RUBOUT RUBOUT RUBOUT RUBOUT RUBOUT RUBOUT RUBOUT);
    feed_str("\x15pc\r");
    EXPECT_STR_EQ(lines, "pc|");
}

static void test_ctrl_c_cancels_and_clears_the_line(void **state)
{
    EXPECT_STR_EQ(feed_str("mw 1000 66\x03"), "C");
    EXPECT_EQ(le->len, 0);
    EXPECT_STR_EQ(le->buf, "");
    EXPECT_STR_EQ(feed_str("pc\r"), "R");
    EXPECT_STR_EQ(lines, "pc|");
}

struct eol_case {
    const char *input;
    const char *events;
    const char *lines;
};

static const struct eol_case eol_cases[] = {
    {"a\r", "R", "a|"},
    {"a\n", "R", "a|"},
    {"a\r\n", "R", "a|"},
    {"a\n\r", "RR", "a||"},
    {"\r\n\r\n", "RR", "||"},
    {"\r\r", "RR", "||"},
    {"\n\n", "RR", "||"},
    {"pc\r\npc\npc\r", "RRR", "pc|pc|pc|"},
    {"a\rb\nc\r\nd\n\re\r", "RRRRRR", "a|b|c|d||e|"},
    {"a\r\r\n", "RR", "a||"},
};

static void test_cr_lf_and_crlf_each_end_a_line_once(void **state)
{
    for (size_t i = 0; i < sizeof(eol_cases) / sizeof(eol_cases[0]); i++) {
        const struct eol_case *c = &eol_cases[i];
        restart();
        const char *events = feed_str(c->input);
        EXPECT_TRUE(strcmp(events, c->events) == 0 && strcmp(lines, c->lines) == 0,
                    "input %s:\n  expected events %s, lines %s\n  got      events %s, lines %s",
                    expect_escape(c->input), c->events, c->lines, events, lines);
    }
}

static void test_lf_after_a_reset_following_cr_is_swallowed(void **state)
{
    /* the knock (mode 0) or a command ended with CR: the LF that follows is its tail */
    line_reset(le, true);
    EXPECT_STR_EQ(feed_str("\n"), "");
    EXPECT_STR_EQ(feed_str("\n"), "R");
}

static void test_control_and_8bit_bytes_are_ignored(void **state)
{
    /* (TAB and ESC have a meaning: tests below) */
    static const uint8_t input[] = {'p', 0x00, 0x01, 0x02, 0x1c, 0x80, 0xff, 0x7e, 'c', '\r'};

    EXPECT_STR_EQ(feed(input, sizeof(input)), "R");
    EXPECT_STR_EQ(lines, "p~c|");
    EXPECT_STR_EQ(echoed, "p~c");
}

static void test_tab_separates_words_as_a_space(void **state)
{
    EXPECT_STR_EQ(feed_str("md\tc0008000\t10\r"), "R");
    EXPECT_STR_EQ(lines, "md c0008000 10|");
    EXPECT_STR_EQ(echoed, "md c0008000 10");
}

/* Keys and terminal answers that are escape sequences: none may leave a byte in the line. */
static const char *const sequences[] = {
    "\x1b[C",     /* Right */
    "\x1b[D",     /* Left */
    "\x1b[2J",    /* clear screen */
    "\x1b[1;5C",  /* Ctrl-Right */
    "\x1b[15~",   /* F5 */
    "\x1b[3~",    /* Delete */
    "\x1bOP",     /* F1 */
    "\x1bOD",     /* Left, application mode */
    "\x1b[?25h",  /* private parameters */
    "\x1b(B",     /* an intermediate byte */
    "\x1b" "c",   /* two bytes */
    "\x1b[A",     /* Up with no history: nothing */
    "\x1b\x1b[B", /* a second ESC starts afresh */
};

static void test_escape_sequences_leave_nothing_in_the_line(void **state)
{
    for (size_t i = 0; i < sizeof(sequences) / sizeof(sequences[0]); i++) {
        restart();
        feed_str("p");
        EXPECT_STR_EQ(feed_str(sequences[i]), "");
        EXPECT_STR_EQ(feed_str("c\r"), "R");
        EXPECT_TRUE(strcmp(lines, "pc|") == 0 && strcmp(echoed, "pc") == 0,
                    "%s: line %s, echo %s", expect_escape(sequences[i]), lines,
                    expect_escape(echoed));
    }
}

static void test_a_control_byte_ends_an_escape_sequence_and_counts(void **state)
{
    /* a sequence cut short on a noisy wire must not eat the Return or Ctrl-C after it */
    EXPECT_STR_EQ(feed_str("pc\x1b[1\r"), "R");
    EXPECT_STR_EQ(lines, "pc|");
    EXPECT_STR_EQ(feed_str("mw\x1b\x03"), "C");
    EXPECT_STR_EQ(feed_str("pc\x1bO\r"), "R");
    EXPECT_STR_EQ(lines, "pc|pc|");
}

static void test_an_overlong_escape_sequence_is_given_up(void **state)
{
    /* ESC, then LINE_ESC_MAX bytes swallowed ('[' and 15 digits); the rest is text */
    EXPECT_STR_EQ(feed_str("\x1b[11111111111111111111x\r"), "R");
    EXPECT_STR_EQ(lines, "11111x|");
}

#define UP "\x1b[A"
#define DOWN "\x1b[B"

static void test_up_and_down_recall_earlier_lines(void **state)
{
    feed_str("pc\rregs\rmd 1000\r");
    echoed_len = 0;
    echoed[0] = '\0';
    EXPECT_STR_EQ(feed_str(UP), "");
    EXPECT_STR_EQ(le->buf, "md 1000");
    EXPECT_STR_EQ(echoed, "md 1000");
    EXPECT_STR_EQ(feed_str("\x1bOA"), ""); /* Up in application mode */
    EXPECT_STR_EQ(echoed, "md 1000" RUBOUT RUBOUT RUBOUT RUBOUT RUBOUT RUBOUT RUBOUT "regs");
    feed_str(UP);
    EXPECT_TRUE(le->len == 2 && memcmp(le->buf, "pc", 2) == 0, "third Up: %.*s", le->len, le->buf);
    size_t before = echoed_len;
    feed_str(UP); /* nothing older: nothing changes, nothing is drawn */
    EXPECT_EQ(echoed_len, before);
    EXPECT_TRUE(le->len == 2 && memcmp(le->buf, "pc", 2) == 0, "Up past the oldest");
    feed_str(DOWN);
    EXPECT_TRUE(le->len == 4 && memcmp(le->buf, "regs", 4) == 0, "Down");
    feed_str(DOWN DOWN); /* the newest, then an empty line */
    EXPECT_EQ(le->len, 0);
    EXPECT_TRUE(ends_with(echoed, "md 1000" RUBOUT RUBOUT RUBOUT RUBOUT RUBOUT RUBOUT RUBOUT),
                "%s", expect_escape(echoed));
    before = echoed_len;
    feed_str(DOWN); /* past the newest: nothing */
    EXPECT_EQ(echoed_len, before);
    /* a recalled line runs as typed, and can be edited first */
    lines[0] = '\0';
    EXPECT_STR_EQ(feed_str(UP UP "\x7f" "s x\r"), "R");
    EXPECT_STR_EQ(lines, "regs x|");
    EXPECT_STR_EQ(feed_str(UP "\r"), "R");
    EXPECT_STR_EQ(lines, "regs x|regs x|");
}

static void test_history_skips_empty_repeated_and_overlong_lines(void **state)
{
    char line[LINE_MAX_CHARS + 2];

    memset(line, 'x', LINE_MAX_CHARS + 1);
    line[LINE_MAX_CHARS + 1] = '\0';
    feed_str("pc\rpc\r\rregs\r");
    feed_str(line);
    EXPECT_STR_EQ(feed_str("\r"), "D");
    feed_str(UP UP UP); /* regs, pc, and nothing older */
    EXPECT_STR_EQ(feed_str("\r"), "R");
    EXPECT_STR_EQ(lines, "pc|pc||regs|pc|");
}

static void test_history_keeps_the_newest_lines_that_fit(void **state)
{
    unsigned kept = LINE_HISTORY_BYTES / 4, n = 0; /* "cNN" and its NUL */
    char expect[8];

    for (unsigned i = 0; i < 99; i++)
        feed_str(tfmt("c%02u\r", i));
    for (;; n++) {
        char before[LINE_MAX_CHARS];
        uint16_t len = le->len;
        memcpy(before, le->buf, len);
        feed_str(UP);
        if (le->len == len && memcmp(before, le->buf, len) == 0)
            break;
    }
    EXPECT_EQ(n, kept);
    snprintf(expect, sizeof(expect), "c%02u", 99 - kept);
    EXPECT_TRUE(le->len == 3 && memcmp(le->buf, expect, 3) == 0, "oldest kept: %.*s, want %s",
                le->len, le->buf, expect);
}

static void test_the_longest_line_fits_the_history(void **state)
{
    char line[LINE_MAX_CHARS + 1];

    feed_str("pc\r");
    for (int i = 0; i < LINE_MAX_CHARS; i++)
        line[i] = (char)('a' + i % 26);
    line[LINE_MAX_CHARS] = '\0';
    feed_str(line);
    feed_str("\r");
    lines[0] = '\0';
    EXPECT_STR_EQ(feed_str(UP "\r"), "R");
    EXPECT_TRUE(strlen(lines) == LINE_MAX_CHARS + 1 && strncmp(lines, line, LINE_MAX_CHARS) == 0,
                "recalled %s", lines);
}

static void test_history_clear_forgets_every_line(void **state)
{
    feed_str("pc\rregs\r");
    line_history_clear(le);
    echoed_len = 0;
    echoed[0] = '\0';
    EXPECT_STR_EQ(feed_str(UP "\r"), "R");
    EXPECT_STR_EQ(lines, "pc|regs||");
    EXPECT_STR_EQ(echoed, "");
}

static void test_exactly_line_max_chars_are_accepted(void **state)
{
    char line[LINE_MAX_CHARS + 1];

    for (int i = 0; i < LINE_MAX_CHARS; i++)
        line[i] = (char)('a' + i % 26);
    line[LINE_MAX_CHARS] = '\0';
    EXPECT_STR_EQ(feed_str(line), "");
    EXPECT_STR_EQ(feed_str("\r"), "R");
    EXPECT_EQ(strlen(lines), LINE_MAX_CHARS + 1);
    EXPECT_TRUE(strncmp(lines, line, LINE_MAX_CHARS) == 0, "the line came back changed");
    EXPECT_STR_EQ(echoed, line);
}

static void test_one_char_too_many_discards_the_whole_line(void **state)
{
    char line[LINE_MAX_CHARS + 1];

    memset(line, 'x', LINE_MAX_CHARS);
    line[LINE_MAX_CHARS] = '\0';
    EXPECT_STR_EQ(feed_str(line), "");
    EXPECT_STR_EQ(feed_str("y"), "T");
    EXPECT_STR_EQ(feed_str("more text that is swallowed"), "");
    EXPECT_STR_EQ(feed_str("\r"), "D");
    EXPECT_STR_EQ(lines, ""); /* never LINE_READY with a cut-off command */
    EXPECT_EQ(echoed_len, LINE_MAX_CHARS);
}

static void test_erasing_after_the_limit_does_not_save_the_line(void **state)
{
    char line[LINE_MAX_CHARS + 2];

    memset(line, 'x', LINE_MAX_CHARS + 1);
    line[LINE_MAX_CHARS + 1] = '\0';
    EXPECT_STR_EQ(feed_str(line), "T");
    EXPECT_STR_EQ(feed_str("\b\b\x7f\x15ok"), "");
    EXPECT_STR_EQ(feed_str("\n"), "D");
    EXPECT_STR_EQ(lines, "");
}

static void test_the_line_after_a_discarded_one_works(void **state)
{
    char line[300];

    memset(line, 'z', sizeof(line) - 1);
    line[sizeof(line) - 1] = '\0';
    EXPECT_STR_EQ(feed_str(line), "T");
    EXPECT_STR_EQ(feed_str("\r\n"), "D"); /* the LF is the CR's tail, not an empty line */
    EXPECT_STR_EQ(feed_str("pc\r"), "R");
    EXPECT_STR_EQ(lines, "pc|");
}

static void test_ctrl_c_ends_an_overlong_line(void **state)
{
    char line[LINE_MAX_CHARS + 5];

    memset(line, 'q', sizeof(line) - 1);
    line[sizeof(line) - 1] = '\0';
    EXPECT_STR_EQ(feed_str(line), "T");
    EXPECT_STR_EQ(feed_str("\x03"), "C");
    EXPECT_STR_EQ(feed_str("ab\r"), "R");
    EXPECT_STR_EQ(lines, "ab|");
}

static void test_random_bytes_never_overflow_the_buffer(void **state)
{
    uint32_t x = 0x1234567u;

    for (int i = 0; i < 200000; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        /* mostly printable, rarely a line end, so lines get long */
        uint8_t c = (x & 0xff) < 2 ? '\r' : (uint8_t)(x >> 24);
        enum line_event ev = line_feed(le, c);
        EXPECT_TRUE(le->len <= LINE_MAX_CHARS, "len %u at byte %d", le->len, i);
        if (ev == LINE_READY) {
            EXPECT_TRUE(strlen(le->buf) == le->len && le->len <= LINE_MAX_CHARS,
                        "line of %zu chars at byte %d", strlen(le->buf), i);
            line_reset(le, le->last_cr);
        }
        if (echoed_len > sizeof(echoed) / 2)
            echoed_len = 0;
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_printable_bytes_are_echoed_and_collected, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_backspace_and_del_erase_one_char, setup, teardown),
        cmocka_unit_test_setup_teardown(test_erase_on_an_empty_line_echoes_nothing, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_ctrl_u_erases_the_whole_line, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ctrl_c_cancels_and_clears_the_line, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cr_lf_and_crlf_each_end_a_line_once, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lf_after_a_reset_following_cr_is_swallowed, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_control_and_8bit_bytes_are_ignored, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tab_separates_words_as_a_space, setup, teardown),
        cmocka_unit_test_setup_teardown(test_escape_sequences_leave_nothing_in_the_line, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_a_control_byte_ends_an_escape_sequence_and_counts,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_an_overlong_escape_sequence_is_given_up, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_up_and_down_recall_earlier_lines, setup, teardown),
        cmocka_unit_test_setup_teardown(test_history_skips_empty_repeated_and_overlong_lines,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_history_keeps_the_newest_lines_that_fit, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_the_longest_line_fits_the_history, setup, teardown),
        cmocka_unit_test_setup_teardown(test_history_clear_forgets_every_line, setup, teardown),
        cmocka_unit_test_setup_teardown(test_exactly_line_max_chars_are_accepted, setup, teardown),
        cmocka_unit_test_setup_teardown(test_one_char_too_many_discards_the_whole_line, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_erasing_after_the_limit_does_not_save_the_line, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_the_line_after_a_discarded_one_works, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ctrl_c_ends_an_overlong_line, setup, teardown),
        cmocka_unit_test_setup_teardown(test_random_bytes_never_overflow_the_buffer, setup,
                                        teardown),
    };

    return cmocka_run_group_tests_name("line_editor", tests, NULL, NULL);
}
