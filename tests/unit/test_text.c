/* SPDX-License-Identifier: MIT */
/* Packed texts (monitor/util/text.h): the generated token table is sound, the formatter and
 * con_puts expand packed bytes, and bytes >= 0x80 that are data (a %s argument, con_write)
 * go out as they are. The rest of the unit tests run monitor/ packed as well. */
#include "expect.h"

#include "console.h"
#include "fake_port.h"
#include "format.h"
#include "text.h"

static int setup(void **state)
{
    fake_port_reset();
    return 0;
}

/* The reference: expand a symbol by recursion, counting how deep it nests. */
static size_t reference(unsigned char c, char *out, unsigned depth, unsigned *deepest)
{
    if (depth > *deepest)
        *deepest = depth;
    if (c < 0x80) {
        *out = (char)c;
        return 1;
    }
    size_t n = reference(text_tokens[c - 0x80][0], out, depth + 1, deepest);
    return n + reference(text_tokens[c - 0x80][1], out + n, depth + 1, deepest);
}

static void test_every_token_is_plain_text_within_the_depth(void **state)
{
    EXPECT_TRUE(text_token_count > 0 && text_token_count <= 128, "%u tokens", text_token_count);
    for (unsigned i = 0; i < text_token_count; i++) {
        char want[256] = "";
        unsigned deepest = 0;
        size_t n = reference((unsigned char)(0x80 + i), want, 0, &deepest);

        EXPECT_TRUE(deepest <= TEXT_DEPTH, "token %u nests %u deep", i, deepest);
        for (size_t k = 0; k < n; k++)
            EXPECT_TRUE(want[k] > 0 && want[k] != '%', "token %u holds byte 0x%02x", i,
                        (unsigned char)want[k]);
        /* later tokens only build on earlier ones */
        EXPECT_TRUE(text_tokens[i][0] < 0x80 + i && text_tokens[i][1] < 0x80 + i,
                    "token %u refers forward", i);
    }
}

static void test_formats_and_con_puts_expand_every_token(void **state)
{
    for (unsigned i = 0; i < text_token_count; i++) {
        char fmt[4] = {'<', (char)(0x80 + i), '>', 0}, got[300], want[300] = "<";
        unsigned deepest = 0;
        size_t n = reference((unsigned char)(0x80 + i), want + 1, 0, &deepest);

        want[n + 1] = '>';
        want[n + 2] = 0;
        fmt_snprintf(got, sizeof(got), fmt, 0);
        EXPECT_STR_EQ(got, want);
        fake_output_reset();
        con_puts(fmt);
        EXPECT_STR_EQ(fake_output_text(), want);
    }
}

static void test_data_bytes_above_0x7f_are_never_expanded(void **state)
{
    const char data[] = "k\x80\x81\xfe\xff";
    char got[32];

    fmt_snprintf(got, sizeof(got), "%s|%-6s|", data, data);
    EXPECT_STR_EQ(got, "k\x80\x81\xfe\xff|k\x80\x81\xfe\xff |");
    fake_output_reset();
    con_printf("[%s]", data);
    EXPECT_STR_EQ(fake_output_text(), "[k\x80\x81\xfe\xff]");
    fake_output_reset();
    con_write(data, sizeof(data) - 1);
    EXPECT_STR_EQ(fake_output_text(), data);
}

static void test_a_packed_conversion_still_converts(void **state)
{
    /* the packer never splits a conversion: a token next to one leaves it intact */
    char fmt[8] = {(char)0x80, '%', 'u', (char)0x80, 0}, got[300], tok[256];
    unsigned deepest = 0;
    size_t n = reference(0x80, tok, 0, &deepest);

    tok[n] = 0;
    fmt_snprintf(got, sizeof(got), fmt, 42u);
    EXPECT_STR_EQ(got, tfmt("%s42%s", tok, tok));
}

static void test_con_puts_longer_than_its_buffer_is_whole(void **state)
{
    char s[400];

    for (unsigned i = 0; i < sizeof(s) - 1; i++)
        s[i] = (char)('a' + i % 26);
    s[sizeof(s) - 1] = 0;
    con_puts(s);
    EXPECT_STR_EQ(fake_output_text(), s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_every_token_is_plain_text_within_the_depth, setup),
        cmocka_unit_test_setup(test_formats_and_con_puts_expand_every_token, setup),
        cmocka_unit_test_setup(test_data_bytes_above_0x7f_are_never_expanded, setup),
        cmocka_unit_test_setup(test_a_packed_conversion_still_converts, setup),
        cmocka_unit_test_setup(test_con_puts_longer_than_its_buffer_is_whole, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
