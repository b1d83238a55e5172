// SPDX-License-Identifier: MIT
/* fmt_vsnprintf against the host C library's snprintf, for every conversion fiqmon uses,
 * plus truncation and termination. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "format.h"

#define CHECK(...)                                                                             \
    do {                                                                                       \
        char want[128], got[128];                                                              \
        snprintf(want, sizeof(want), __VA_ARGS__);                                             \
        fmt_snprintf(got, sizeof(got), __VA_ARGS__);                                           \
        if (strcmp(want, got) != 0)                                                            \
            fail_msg("format %s: expected \"%s\", got \"%s\"", #__VA_ARGS__, want, got);       \
    } while (0)

static void test_conversions_match_the_c_library(void **state)
{
    (void)state;
    CHECK("%s|%-8s|%8s|%-22s|", "regs", "md", "x", "ADDR [LEN] [b|h|w]");
    CHECK("%08x %x %X %02x", 0x1234u, 0xdeadbeefu, 0xabcu, 0x7u);
    CHECK("%08lx %lu %ld", 0xc0312a2cul, 4294967295ul, -12345l);
    CHECK("%u %d %d %i %-3u|", 0u, -1, 2147483647, -2147483647 - 1, 7u);
    CHECK("%c%c%% 100%%", 'o', 'k');
    CHECK("%5d|%-5d|%05u", -42, 42, 42u);
    CHECK("%08x", 0u);
    CHECK("%x %u", 0xffffffffu, 0xffffffffu);
    /* an AArch64 target's addresses and registers: a whole 64-bit long (LP64 hosts) */
    if (sizeof(long) == 8) {
        CHECK("%016lx %lx", (unsigned long)0xffffc1333186b254ull, (unsigned long)~0ull);
        CHECK("%lu %ld", (unsigned long)~0ull, (long)(-9223372036854775807ll - 1));
    }
}

static void test_output_is_cut_and_always_terminated(void **state)
{
    char buf[8];

    (void)state;
    memset(buf, 'Z', sizeof(buf));
    assert_int_equal(fmt_snprintf(buf, sizeof(buf), "%s", "0123456789"), 7);
    assert_string_equal(buf, "0123456");
    assert_int_equal(fmt_snprintf(buf, 1, "%d", 12345), 0);
    assert_string_equal(buf, "");
    memset(buf, 'Z', sizeof(buf));
    assert_int_equal(fmt_snprintf(buf, 0, "abc"), 0);
    assert_int_equal(buf[0], 'Z'); /* size 0: nothing written at all */
}

static void test_unknown_conversions_are_shown_not_interpreted(void **state)
{
    char buf[32];
    /* through a variable, so the compiler's format check does not reject the test input */
    const char *unknown = "a%qb", *trailing = "end%";

    (void)state;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#pragma GCC diagnostic ignored "-Wformat-security"
    fmt_snprintf(buf, sizeof(buf), unknown);
    assert_string_equal(buf, "a%qb");
    fmt_snprintf(buf, sizeof(buf), trailing);
#pragma GCC diagnostic pop
    assert_string_equal(buf, "end%");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_conversions_match_the_c_library),
        cmocka_unit_test(test_output_is_cut_and_always_terminated),
        cmocka_unit_test(test_unknown_conversions_are_shown_not_interpreted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
