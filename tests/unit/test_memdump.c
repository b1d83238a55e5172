/* SPDX-License-Identifier: MIT */
/* md's rows: exact formats per width, padding of a short last row, faults, rounding. */
#include "expect.h"

#include <stdio.h>

#include "fake_port.h"
#include "memdump.h"

#define BASE FAKE_RAM_BASE

static int setup(void **state)
{
    fake_port_reset();
    return 0;
}

static const char *dump(uint32_t addr, uint32_t len, unsigned width, int want_rc)
{
    fake_output_reset();
    int rc = memdump(addr, len, width, port_mem_read);
    EXPECT_TRUE(rc == want_rc, "memdump(0x%08x, 0x%x, %u) returned %d, want %d", (unsigned)addr,
                (unsigned)len, width, rc, want_rc);
    /* every line ends CR LF on the wire */
    EXPECT_TRUE(count_substr(fake_output(), "\r\n") == count_substr(fake_output(), "\n"),
                "a line without CR: %s", expect_escape(fake_output()));
    return fake_output_text();
}

/* An independent rendering of the rows md must print for the bytes at addr. */
static const char *reference(uint32_t addr, uint32_t len, unsigned width)
{
    static char out[64 * 1024];
    size_t n = 0;
    uint32_t total = (len + width - 1) / width * width;

    out[0] = '\0';
    for (uint32_t off = 0; off < total; off += 16) {
        uint32_t row = total - off < 16 ? total - off : 16;
        const uint8_t *b = fake_mem(addr + off);
        n += (size_t)sprintf(out + n, "%08x:", (unsigned)(addr + off));
        for (unsigned e = 0; e < 16 / width; e++) {
            if (e * width < row) {
                uint32_t v = 0;
                for (unsigned k = 0; k < width; k++)
                    v |= (uint32_t)b[e * width + k] << (8 * k);
                n += (size_t)sprintf(out + n, " %0*x", (int)(2 * width), (unsigned)v);
            } else {
                n += (size_t)sprintf(out + n, " %*s", (int)(2 * width), "");
            }
        }
        n += (size_t)sprintf(out + n, "  ");
        for (uint32_t i = 0; i < row; i++)
            out[n++] = b[i] >= 0x20 && b[i] <= 0x7e ? (char)b[i] : '.';
        out[n++] = '\n';
        out[n] = '\0';
    }
    return out;
}

static void put(uint32_t addr, const char *bytes, size_t n)
{
    fake_mem_write(addr, bytes, n);
}

/* --- exact rows -------------------------------------------------------------------------- */

static void test_byte_row_format(void **state)
{
    put(BASE, "ABCDEFGHIJKLMNOP", 16);
    EXPECT_STR_EQ(dump(BASE, 16, 1, 0),
                  "10000000: 41 42 43 44 45 46 47 48 49 4a 4b 4c 4d 4e 4f 50  ABCDEFGHIJKLMNOP\n");
}

static void test_halfword_row_format_is_little_endian(void **state)
{
    put(BASE, "ABCDEFGHIJKLMNOP", 16);
    EXPECT_STR_EQ(dump(BASE, 16, 2, 0),
                  "10000000: 4241 4443 4645 4847 4a49 4c4b 4e4d 504f  ABCDEFGHIJKLMNOP\n");
}

static void test_word_row_format_is_little_endian(void **state)
{
    put(BASE, "ABCDEFGHIJKLMNOP", 16);
    EXPECT_STR_EQ(dump(BASE, 16, 4, 0),
                  "10000000: 44434241 48474645 4c4b4a49 504f4e4d  ABCDEFGHIJKLMNOP\n");
}

static void test_non_printable_bytes_show_as_dots(void **state)
{
    put(BASE + 0x100, "\x00\x1f\x20\x7e\x7f\x80\xff\x41", 8);
    EXPECT_STR_EQ(dump(BASE + 0x100, 8, 1, 0),
                  tfmt("10000100: 00 1f 20 7e 7f 80 ff 41%24s  .. ~...A\n", "")); /* 8 missing */
}

static void test_rows_continue_at_the_next_address(void **state)
{
    for (int i = 0; i < 0x30; i++)
        *fake_mem(BASE + 0x200 + (uint32_t)i) = (uint8_t)('a' + i % 26);
    EXPECT_STR_EQ(dump(BASE + 0x200, 0x30, 4, 0),
                  "10000200: 64636261 68676665 6c6b6a69 706f6e6d  abcdefghijklmnop\n"
                  "10000210: 74737271 78777675 62617a79 66656463  qrstuvwxyzabcdef\n"
                  "10000220: 6a696867 6e6d6c6b 7271706f 76757473  ghijklmnopqrstuv\n");
}

static void test_short_last_row_is_padded_so_the_ascii_column_lines_up(void **state)
{
    static const unsigned widths[] = {1, 2, 4};

    put(BASE, "fiqmon md test!\0\177abc", 20);
    for (size_t w = 0; w < 3; w++) {
        char rows[2][128];
        const char *out = dump(BASE, 20, widths[w], 0);
        EXPECT_TRUE(sscanf(out, "%127[^\n]\n%127[^\n]", rows[0], rows[1]) == 2, "two rows: %s",
                    expect_escape(out));
        /* the ASCII column starts where the full row's does */
        size_t col0 = strlen(rows[0]) - 16, col1 = strlen(rows[1]) - 4;
        EXPECT_TRUE(col0 == col1, "width %u: ASCII at column %zu, then %zu:\n%s", widths[w], col0,
                    col1, out);
        EXPECT_STR_EQ(rows[0] + col0 - 2, "  fiqmon md test!.");
        EXPECT_STR_EQ(rows[1] + col1 - 2, "  .abc");
    }
    EXPECT_STR_EQ(dump(BASE, 20, 4, 0),
                  tfmt("10000000: 6d716966 6d206e6f 65742064 00217473  fiqmon md test!.\n"
                       "10000010: 6362617f%27s  .abc\n", /* 3 missing words */
                       ""));
}

/* --- many shapes against the reference ----------------------------------------------------- */

static void test_rows_match_an_independent_rendering(void **state)
{
    uint32_t x = 0xc0ffee11u;

    for (uint32_t i = 0; i < FAKE_RAM_SIZE; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        *fake_mem(BASE + i) = (uint8_t)x;
    }
    for (int i = 0; i < 300; i++) {
        static const unsigned widths[] = {1, 2, 4};
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        unsigned width = widths[x % 3];
        uint32_t len = 1 + (x >> 8) % 0x50;
        uint32_t addr = BASE + ((x >> 16) % 0x8000) / width * width;
        const char *got = dump(addr, len, width, 0);
        const char *want = reference(addr, len, width);
        if (strcmp(got, want) != 0)
            expect_fail_str(__FILE__, __LINE__,
                            tfmt("memdump(0x%08x, 0x%x, %u)", (unsigned)addr, (unsigned)len, width),
                            got, want);
    }
}

static void test_length_is_rounded_up_to_whole_elements(void **state)
{
    static const struct {
        uint32_t len;
        unsigned width;
        unsigned elements; /* hex groups printed */
    } t[] = {{5, 4, 2}, {3, 2, 2}, {1, 4, 1}, {1, 2, 1}, {0x11, 4, 5}, {0x11, 1, 17}, {8, 4, 2}};

    for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
        fake_port_reset();
        const char *out = dump(BASE, t[i].len, t[i].width, 0);
        unsigned groups = 0;
        for (const char *row = out; *row; row = strchr(row, '\n') + 1) {
            /* hex groups sit between ':' and the two spaces before the ASCII column */
            const char *p = strchr(row, ':') + 1, *end = strstr(p, "  ");
            for (; p < end; p++)
                groups += p[0] == ' ' && p[1] != ' ';
        }
        EXPECT_TRUE(groups == t[i].elements, "len %u width %u: %u elements, want %u:\n%s",
                    (unsigned)t[i].len, t[i].width, groups, t[i].elements, out);
        EXPECT_TRUE(fake.reads[t[i].width] == t[i].elements, "len %u width %u: %u reads, want %u",
                    (unsigned)t[i].len, t[i].width, fake.reads[t[i].width], t[i].elements);
    }
}

static void test_each_width_reads_memory_in_that_width_only(void **state)
{
    static const unsigned widths[] = {1, 2, 4};

    for (size_t w = 0; w < 3; w++) {
        fake_port_reset();
        dump(BASE, 0x40, widths[w], 0);
        for (unsigned k = 1; k <= 4; k *= 2)
            EXPECT_TRUE(fake.reads[k] == (k == widths[w] ? 0x40 / k : 0),
                        "md width %u made %u reads of width %u", widths[w], fake.reads[k], k);
    }
}

/* --- faults ------------------------------------------------------------------------------ */

struct fault_case {
    uint32_t fault_at, fault_len;
    unsigned width;
    uint32_t reported; /* address in the error line */
    uint32_t good;     /* bytes of complete rows printed before it */
};

/* clang-format off */
static const struct fault_case fault_cases[] = {
    {BASE + 0x20, 0x10, 4, BASE + 0x20, 0x20}, /* a whole row */
    {BASE + 0x24, 1, 4, BASE + 0x24, 0x20},    /* mid-row: that row is not printed */
    {BASE + 0x25, 1, 4, BASE + 0x24, 0x20},    /* the word holding the byte */
    {BASE + 0x25, 1, 2, BASE + 0x24, 0x20},
    {BASE + 0x25, 1, 1, BASE + 0x25, 0x20},
    {BASE + 0x2f, 1, 1, BASE + 0x2f, 0x20},    /* the last byte of a row */
    {BASE + 0x00, 1, 4, BASE + 0x00, 0x00},    /* the first element */
    {BASE + 0x3c, 4, 4, BASE + 0x3c, 0x30},    /* the last element */
};
/* clang-format on */

static void test_fault_prints_complete_rows_then_one_error_line(void **state)
{
    for (size_t i = 0; i < sizeof(fault_cases) / sizeof(fault_cases[0]); i++) {
        const struct fault_case *c = &fault_cases[i];
        char want[4096];

        fake_port_reset();
        for (uint32_t a = 0; a < 0x40; a++)
            *fake_mem(BASE + a) = (uint8_t)(0x30 + a);
        snprintf(want, sizeof(want), "%serror: fault at 0x%08x\n",
                 c->good ? reference(BASE, c->good, c->width) : "", (unsigned)c->reported);
        fake_mem_add_fault(c->fault_at, c->fault_len);
        const char *got = dump(BASE, 0x40, c->width, -1);
        if (strcmp(got, want) != 0)
            expect_fail_str(__FILE__, __LINE__,
                            tfmt("fault at 0x%08x, width %u", (unsigned)c->fault_at, c->width), got,
                            want);
    }
}

static void test_unmapped_memory_faults_at_the_first_element(void **state)
{
    EXPECT_STR_EQ(dump(0x20000000, 0x10, 4, -1), "error: fault at 0x20000000\n");
    EXPECT_EQ(fake.faults, 1);
}

static void test_dump_running_off_the_end_of_ram_stops_there(void **state)
{
    uint32_t end = BASE + FAKE_RAM_SIZE;
    char want[256];

    snprintf(want, sizeof(want), "%serror: fault at 0x%08x\n", reference(end - 0x10, 0x10, 2),
             (unsigned)end);
    EXPECT_STR_EQ(dump(end - 0x10, 0x20, 2, -1), want);
}

static void test_width_names(void **state)
{
    static const struct {
        const char *s;
        unsigned width;
    } t[] = {{"b", 1}, {"h", 2}, {"w", 4}, {"", 0},  {"bb", 0},
             {"B", 0}, {"W", 0}, {"4", 0}, {"x", 0}, {"wb", 0}};

    for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
        EXPECT_TRUE(memdump_width(t[i].s) == t[i].width, "memdump_width(\"%s\") = %u, want %u",
                    t[i].s, memdump_width(t[i].s), t[i].width);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_byte_row_format, setup),
        cmocka_unit_test_setup(test_halfword_row_format_is_little_endian, setup),
        cmocka_unit_test_setup(test_word_row_format_is_little_endian, setup),
        cmocka_unit_test_setup(test_non_printable_bytes_show_as_dots, setup),
        cmocka_unit_test_setup(test_rows_continue_at_the_next_address, setup),
        cmocka_unit_test_setup(test_short_last_row_is_padded_so_the_ascii_column_lines_up, setup),
        cmocka_unit_test_setup(test_rows_match_an_independent_rendering, setup),
        cmocka_unit_test_setup(test_length_is_rounded_up_to_whole_elements, setup),
        cmocka_unit_test_setup(test_each_width_reads_memory_in_that_width_only, setup),
        cmocka_unit_test_setup(test_fault_prints_complete_rows_then_one_error_line, setup),
        cmocka_unit_test_setup(test_unmapped_memory_faults_at_the_first_element, setup),
        cmocka_unit_test_setup(test_dump_running_off_the_end_of_ram_stops_there, setup),
        cmocka_unit_test_setup(test_width_names, setup),
    };

    return cmocka_run_group_tests_name("memdump", tests, NULL, NULL);
}
