/* SPDX-License-Identifier: MIT */
/* Assertions for the unit tests. Every failure says what was checked, what was expected
 * and what came back (strings with control characters made visible), then fails the
 * running cmocka test. */
#ifndef FIQMON_TEST_EXPECT_H
#define FIQMON_TEST_EXPECT_H

/* cmocka.h needs these first */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdbool.h>
#include <string.h>

#define EXPECT_NORETURN __attribute__((noreturn))

EXPECT_NORETURN void expect_fail_num(const char *file, int line, const char *what, long long got,
                                     long long want);
EXPECT_NORETURN void expect_fail_str(const char *file, int line, const char *what, const char *got,
                                     const char *want);
EXPECT_NORETURN void expect_fail_find(const char *file, int line, const char *what, const char *hay,
                                      const char *needle, bool want_found);
EXPECT_NORETURN void expect_fail_msg(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* got == want, as integers (printed in decimal and hex). */
#define EXPECT_EQ(got, want)                                                                       \
    do {                                                                                           \
        long long expect_got_ = (long long)(got);                                                  \
        long long expect_want_ = (long long)(want);                                                \
        if (expect_got_ != expect_want_)                                                           \
            expect_fail_num(__FILE__, __LINE__, #got, expect_got_, expect_want_);                  \
    } while (0)

/* Strings equal (NULL is a value of its own). */
#define EXPECT_STR_EQ(got, want)                                                                   \
    do {                                                                                           \
        const char *expect_gs_ = (got);                                                            \
        const char *expect_ws_ = (want);                                                           \
        if (!expect_str_same(expect_gs_, expect_ws_))                                              \
            expect_fail_str(__FILE__, __LINE__, #got, expect_gs_, expect_ws_);                     \
    } while (0)

#define EXPECT_CONTAINS(hay, needle)                                                               \
    do {                                                                                           \
        const char *expect_h_ = (hay), *expect_n_ = (needle);                                      \
        if (!strstr(expect_h_, expect_n_))                                                         \
            expect_fail_find(__FILE__, __LINE__, #hay, expect_h_, expect_n_, true);                \
    } while (0)

#define EXPECT_NOT_CONTAINS(hay, needle)                                                           \
    do {                                                                                           \
        const char *expect_h_ = (hay), *expect_n_ = (needle);                                      \
        if (strstr(expect_h_, expect_n_))                                                          \
            expect_fail_find(__FILE__, __LINE__, #hay, expect_h_, expect_n_, false);               \
    } while (0)

#define EXPECT_TRUE(cond, ...)                                                                     \
    do {                                                                                           \
        if (!(cond))                                                                               \
            expect_fail_msg(__FILE__, __LINE__, __VA_ARGS__);                                      \
    } while (0)

bool expect_str_same(const char *a, const char *b);

/* s with control and 8-bit bytes written as \r, \n, \xNN (a static buffer per call slot). */
const char *expect_escape(const char *s);
/* printf into one of a few rotating static buffers: for building expected text. */
/* A TEXT() literal as it is printed (the build packs them: monitor/util/text.h). */
const char *unpacked(const char *s);
const char *tfmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Non-overlapping occurrences of needle in hay. */
size_t count_substr(const char *hay, const char *needle);
/* Lines in s (count of '\n'; text after the last '\n' counts as one more line). */
size_t count_lines(const char *s);
bool starts_with(const char *s, const char *prefix);
bool ends_with(const char *s, const char *suffix);

#endif
