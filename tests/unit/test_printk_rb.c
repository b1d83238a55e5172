/* SPDX-License-Identifier: MIT */
/* The printk ring buffer decoder on rings written the way 6.1's writer writes them
 * (kernel_fixture.c): dmesg lines, the last N, wrapped data blocks and descriptor rings,
 * records being written, and corrupted descriptors, infos and blocks. */
#include "expect.h"

#include <stdio.h>

#include "fake_port.h"
#include "kernel_fixture.h"
#include "printk_rb.h"
#include "vmcoreinfo.h"

static int setup(void **state)
{
    kfix_reset();
    kfix_uts(KFIX_RELEASE, KFIX_VERSION);
    return 0;
}

/* Publishes what the fixture holds, finds it, and runs printk_rb_show(n). */
static const char *kmsg(uint32_t n, int want_rc)
{
    const struct vmci *v;

    kfix_publish();
    kernel_vmcoreinfo_forget();
    v = kernel_vmcoreinfo(true);
    EXPECT_TRUE(v != NULL, "the fixture kernel was not found");
    fake_output_reset();
    int rc = printk_rb_show(v, n);
    EXPECT_TRUE(rc == want_rc, "printk_rb_show returned %d, want %d; output:\n%s", rc, want_rc,
                fake_output_text());
    return fake_output_text();
}

static void test_records_print_as_dmesg_does(void **state)
{
    kfix_ring_init(5, 10);
    kfix_ring_add(0, "Booting Linux on physical CPU 0x0");
    kfix_ring_add(1604932123ull, "Kernel panic - not syncing: VFS: Unable to mount root fs");
    kfix_ring_add(123456789012345ull, "late");
    EXPECT_STR_EQ(kmsg(0, 0), "[    0.000000] Booting Linux on physical CPU 0x0\n"
                              "[    1.604932] Kernel panic - not syncing: VFS: Unable to mount "
                              "root fs\n"
                              "[123456.789012] late\n");
}

static void test_an_empty_record_is_its_prefix_alone(void **state)
{
    kfix_ring_init(5, 10);
    kfix_ring_add(1604743000, "No filesystem could mount root, tried: ");
    kfix_ring_add(1604755000, "");
    EXPECT_STR_EQ(kmsg(0, 0), "[    1.604743] No filesystem could mount root, tried: \n"
                              "[    1.604755] \n");
}

static void test_each_line_of_a_record_gets_the_prefix(void **state)
{
    kfix_ring_init(5, 10);
    kfix_ring_add(2000000, "one\ntwo\nthree");
    EXPECT_STR_EQ(kmsg(0, 0), "[    0.002000] one\n[    0.002000] two\n[    0.002000] three\n");
}

static void test_control_characters_are_not_passed_to_the_terminal(void **state)
{
    kfix_ring_init(5, 10);
    kfix_ring_add(0, "a\x1b[2Jb\tc\x7f\x9b"
                     "1m\xc3\xa9");
    EXPECT_STR_EQ(kmsg(0, 0), "[    0.000000] a?[2Jb\tc??1m??\n");
}

static void test_the_last_n_records(void **state)
{
    kfix_ring_init(5, 10);
    for (unsigned i = 0; i < 10; i++) {
        char t[16];
        snprintf(t, sizeof(t), "record %u", i);
        kfix_ring_add(i * 1000000000ull, t);
    }
    EXPECT_STR_EQ(kmsg(3, 0), "[    7.000000] record 7\n[    8.000000] record 8\n"
                              "[    9.000000] record 9\n");
    EXPECT_EQ(count_lines(kmsg(0, 0)), 10);
    EXPECT_EQ(count_lines(kmsg(100, 0)), 10);
}

static void test_an_empty_ring_prints_nothing(void **state)
{
    kfix_ring_init(5, 10);
    EXPECT_STR_EQ(kmsg(0, 0), "");
}

/* Many records through a small ring: the data ring wraps (blocks stored at its start,
 * lpos overflowing past 0xffffffff), the descriptor ring wraps, tails are pushed. What is
 * printed must be exactly the newest records still held, in order. */
static void test_wrapped_rings_show_the_newest_records_in_order(void **state)
{
    char want[8192] = "", line[96], text[64];
    unsigned total = 300, first_held = 0;

    kfix_ring_init(4, 9); /* 16 descriptors, 512 bytes of text */
    for (unsigned i = 0; i < total; i++) {
        /* varying lengths, so blocks straddle the end of the data ring in every way */
        snprintf(text, sizeof(text), "msg %u %.*s", i, (int)(i * 7 % 37),
                 "abcdefghijklmnopqrstu"
                 "vwxyz0123456789!");
        kfix_ring_add((uint64_t)i * 1000, text);
    }
    const char *out = kmsg(0, 0);
    /* the oldest record printed tells where the ring starts; from there on all must be
     * there, newest last */
    EXPECT_TRUE(sscanf(out, "[%*[^]]] msg %u", &first_held) == 1, "output: %s", out);
    EXPECT_TRUE(first_held >= total - 16 && first_held < total, "oldest shown: %u", first_held);
    for (unsigned i = first_held; i < total; i++) {
        snprintf(text, sizeof(text), "msg %u %.*s", i, (int)(i * 7 % 37),
                 "abcdefghijklmnopqrstu"
                 "vwxyz0123456789!");
        snprintf(line, sizeof(line), "[    0.%06u] %s\n", i, text);
        strcat(want, line);
    }
    EXPECT_STR_EQ(out, want);
    EXPECT_NOT_CONTAINS(out, "<record");
}

static void test_a_block_that_would_wrap_is_read_from_the_start(void **state)
{
    kfix_ring_init(5, 6);                                            /* 64 bytes of text */
    kfix_ring_add(1000, "0123456789012345678901234567890123456789"); /* 44-byte block */
    uint64_t s = kfix_ring_add(2000, "wrapped around the end");      /* 28: wraps */
    EXPECT_EQ(kfix_block(s), kfix_r32(KFIX_RING + 24 + 4));          /* stored at data[0] */
    EXPECT_STR_EQ(kmsg(1, 0), "[    0.000002] wrapped around the end\n");
}

static void test_a_record_being_written_is_marked(void **state)
{
    kfix_ring_init(5, 10);
    kfix_ring_add(1000, "done");
    uint64_t s = kfix_ring_reserve(2000, "half written");
    EXPECT_STR_EQ(kmsg(0, 0),
                  tfmt("[    0.000001] done\n<record %u: being written>\n", (unsigned)s));
}

static void test_corrupted_records_are_marked_and_the_rest_still_shown(void **state)
{
    uint64_t s[6];

    kfix_ring_init(5, 10);
    for (unsigned i = 0; i < 6; i++)
        s[i] = kfix_ring_add(1000000ull * (i + 1), tfmt("good %u", i));
    kfix_w32(kfix_block(s[1]), 0x12345);                      /* block id of another record */
    kfix_w32(kfix_info(s[2]) + 0, (uint32_t)s[2] + 100);      /* info seq overwritten */
    kfix_w32(kfix_desc(s[3]) + 4, 0x7fff0000u);               /* lpos begin far off */
    kfix_w32(kfix_desc(s[4]) + 0, 0x80000000u | 0x3ffffff7u); /* id of another index */
    const char *out = kmsg(0, 0);
    EXPECT_STR_EQ(out, tfmt("[    0.001000] good 0\n"
                            "<record %u: data block overwritten>\n"
                            "<record %u: overwritten>\n"
                            "<record %u: bad data block>\n"
                            "<record %u: corrupted descriptor>\n"
                            "[    0.006000] good 5\n",
                            (unsigned)s[1], (unsigned)s[2], (unsigned)s[3], (unsigned)s[4]));
}

static void test_text_longer_than_its_block_is_cut_and_marked(void **state)
{
    kfix_ring_init(5, 10);
    uint64_t s = kfix_ring_add(0, "short");
    *(uint16_t *)fake_mem(kfix_info(s) + 16) = 60000; /* text_len */
    /* the block holds "short" and three bytes of padding, which are all that is shown */
    EXPECT_STR_EQ(kmsg(0, 0), "[    0.000000] short??? <truncated>\n");
}

static void test_dropped_text_is_marked(void **state)
{
    kfix_ring_init(5, 10);
    uint64_t s = kfix_ring_add(0, "x");
    kfix_w32(kfix_desc(s) + 4, 1); /* FAILED_LPOS: the writer could not get data space */
    kfix_w32(kfix_desc(s) + 8, 1);
    EXPECT_STR_EQ(kmsg(0, 0), tfmt("<record %u: text dropped>\n", (unsigned)s));
}

static void test_only_published_offsets_are_used(void **state)
{
    /* a kernel with a different struct layout: everything moved, and it is published */
    kfix_layout.info_size = 96;
    kfix_layout.info_seq = 8;
    kfix_layout.info_ts = 24;
    kfix_layout.info_text_len = 40;
    kfix_layout.desc_size = 20;
    kfix_layout.state_var = 8;
    kfix_layout.text_lpos = 12;
    kfix_layout.rb_desc_ring = 16;
    kfix_layout.rb_text_ring = 48;
    kfix_layout.dr_head = 20;
    kfix_layout.dr_tail = 28;
    kfix_ring_init(5, 10);
    kfix_ring_add(42000000000ull, "moved");
    EXPECT_STR_EQ(kmsg(0, 0), "[   42.000000] moved\n");
}

static void test_a_missing_layout_key_is_one_error(void **state)
{
    char text[4096];
    char *p;

    kfix_ring_init(5, 10);
    kfix_ring_add(0, "x");
    snprintf(text, sizeof(text), "%s", kfix_vmcoreinfo_text());
    p = strstr(text, "SIZE(printk_info)");
    p[0] = 'X'; /* no longer the key */
    kfix_vmcoreinfo_write(KFIX_VMCI_PA, text);
    kernel_vmcoreinfo_forget();
    const struct vmci *v = kernel_vmcoreinfo(true);
    fake_output_reset();
    EXPECT_EQ(printk_rb_show(v, 0), -1);
    EXPECT_STR_EQ(fake_output_text(), "error: no printk ring buffer layout in VMCOREINFO\n");
}

static void test_an_unreadable_or_absurd_ring_is_one_error(void **state)
{
    kfix_ring_init(5, 10);
    kfix_w32(KFIX_PRB_PTR, 0x00001000); /* prb points nowhere */
    EXPECT_STR_EQ(kmsg(0, -1), "error: printk ring buffer at 00001000 does not read\n");
    kfix_w32(KFIX_PRB_PTR, KFIX_RING);
    kfix_w32(KFIX_RING + 0, 31); /* count_bits */
    EXPECT_STR_EQ(kmsg(0, -1),
                  tfmt("error: printk ring buffer at %08x looks corrupted\n", KFIX_RING));
}

static void test_descriptors_that_fault_are_marked_not_fatal(void **state)
{
    uint64_t s0, s1;

    kfix_ring_init(5, 10);
    s0 = kfix_ring_add(0, "zero");
    s1 = kfix_ring_add(0, "one");
    kfix_ring_add(0, "two");
    fake_mem_add_fault(kfix_info(s1), 4);
    (void)s0;
    EXPECT_STR_EQ(kmsg(0, 0), tfmt("[    0.000000] zero\n<record %u: does not read>\n"
                                   "[    0.000000] two\n",
                                   (unsigned)s1));
}

static void test_a_run_of_bad_records_ends_the_listing(void **state)
{
    kfix_ring_init(10, 10);
    for (unsigned i = 0; i < 40; i++)
        kfix_ring_add(0, "r");
    fake_mem_add_fault(kfix_info(0), 39 * 88); /* all infos but the newest's */
    const char *out = kmsg(0, -1);
    EXPECT_EQ(count_substr(out, ": does not read>\n"), 32);
    EXPECT_TRUE(ends_with(out, "\nerror: 32 bad records in a row: not a ring buffer\n"), "%s", out);
}

static void test_unreadable_head_or_tail_is_one_error(void **state)
{
    kfix_ring_init(5, 10);
    kfix_ring_add(0, "r");
    kfix_w32(KFIX_RING + 8, 0x00002000); /* the infos pointer points nowhere */
    EXPECT_STR_EQ(kmsg(0, -1),
                  tfmt("error: printk ring buffer at %08x does not read\n", KFIX_RING));
}

static void test_garbage_head_and_tail_stay_bounded(void **state)
{
    uint64_t head = 0;

    kfix_ring_init(4, 9);
    for (unsigned i = 0; i < 5; i++)
        head = kfix_ring_add(0, "r");
    /* the newest record's seq says the ring holds far more than it can */
    kfix_w32(kfix_info(head), 1000000);
    const char *out = kmsg(0, 0);
    EXPECT_TRUE(count_lines(out) <= 16, "%zu lines from a 16-descriptor ring", count_lines(out));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_records_print_as_dmesg_does, setup),
        cmocka_unit_test_setup(test_an_empty_record_is_its_prefix_alone, setup),
        cmocka_unit_test_setup(test_each_line_of_a_record_gets_the_prefix, setup),
        cmocka_unit_test_setup(test_control_characters_are_not_passed_to_the_terminal, setup),
        cmocka_unit_test_setup(test_the_last_n_records, setup),
        cmocka_unit_test_setup(test_an_empty_ring_prints_nothing, setup),
        cmocka_unit_test_setup(test_wrapped_rings_show_the_newest_records_in_order, setup),
        cmocka_unit_test_setup(test_a_block_that_would_wrap_is_read_from_the_start, setup),
        cmocka_unit_test_setup(test_a_record_being_written_is_marked, setup),
        cmocka_unit_test_setup(test_corrupted_records_are_marked_and_the_rest_still_shown, setup),
        cmocka_unit_test_setup(test_text_longer_than_its_block_is_cut_and_marked, setup),
        cmocka_unit_test_setup(test_dropped_text_is_marked, setup),
        cmocka_unit_test_setup(test_only_published_offsets_are_used, setup),
        cmocka_unit_test_setup(test_a_missing_layout_key_is_one_error, setup),
        cmocka_unit_test_setup(test_an_unreadable_or_absurd_ring_is_one_error, setup),
        cmocka_unit_test_setup(test_descriptors_that_fault_are_marked_not_fatal, setup),
        cmocka_unit_test_setup(test_a_run_of_bad_records_ends_the_listing, setup),
        cmocka_unit_test_setup(test_unreadable_head_or_tail_is_one_error, setup),
        cmocka_unit_test_setup(test_garbage_head_and_tail_stay_bounded, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
