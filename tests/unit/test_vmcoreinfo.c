/* SPDX-License-Identifier: MIT */
/* VMCOREINFO: the streaming parser on good, odd, truncated and hostile text, and the
 * search for the running kernel's page (stale pages, faults, the cache). */
#include "expect.h"

#include <stdio.h>

#include "fake_port.h"
#include "kernel_fixture.h"
#include "vmcoreinfo.h"

/* The wanted keys, in enum vmci_key order, as the kernel spells them. */
static const char *const key_names[VMCI_KEYS + 1] = {
    "PAGESIZE",
    "OFFSET(uts_namespace.name)",
    "OFFSET(printk_ringbuffer.desc_ring)",
    "OFFSET(printk_ringbuffer.text_data_ring)",
    "OFFSET(prb_desc_ring.count_bits)",
    "OFFSET(prb_desc_ring.descs)",
    "OFFSET(prb_desc_ring.infos)",
    "OFFSET(prb_desc_ring.head_id)",
    "OFFSET(prb_desc_ring.tail_id)",
    "SIZE(prb_desc)",
    "OFFSET(prb_desc.state_var)",
    "OFFSET(prb_desc.text_blk_lpos)",
    "OFFSET(prb_data_blk_lpos.begin)",
    "OFFSET(prb_data_blk_lpos.next)",
    "SIZE(printk_info)",
    "OFFSET(printk_info.seq)",
    "OFFSET(printk_info.ts_nsec)",
    "OFFSET(printk_info.text_len)",
    "OFFSET(prb_data_ring.size_bits)",
    "OFFSET(prb_data_ring.data)",
    "OFFSET(atomic_long_t.counter)",
    "NUMBER(VA_BITS)",
    "SYMBOL(init_uts_ns)",
    "SYMBOL(prb)",
    "SYMBOL(kallsyms_names)",
    "SYMBOL(kallsyms_num_syms)",
    "SYMBOL(kallsyms_token_table)",
    "SYMBOL(kallsyms_token_index)",
    "SYMBOL(kallsyms_offsets)",
    "SYMBOL(kallsyms_relative_base)",
    "SYMBOL(kallsyms_markers)",
    "SYMBOL(swapper_pg_dir)",
    "NUMBER(kimage_voffset)",
    "OSRELEASE",
};

static struct vmci parsed;

static int setup(void **state)
{
    kfix_reset();
    return 0;
}

/* Parses text (len bytes, NULs included) and returns the result. */
static const struct vmci *parse_n(const char *text, size_t len)
{
    struct vmci_parser p;

    vmci_parse_start(&p, &parsed);
    for (size_t i = 0; i < len; i++)
        if (!vmci_parse_byte(&p, (uint8_t)text[i]))
            break;
    return &parsed;
}

static const struct vmci *parse(const char *text)
{
    return parse_n(text, strlen(text) + 1);
}

static int key(const char *name)
{
    for (int k = 0; k <= VMCI_KEYS; k++)
        if (strcmp(key_names[k], name) == 0)
            return k;
    fail_msg("no key %s", name);
    return -1;
}

#define EXPECT_VALUE(v, name, want)                                                                \
    do {                                                                                           \
        int k_ = key(name);                                                                        \
        EXPECT_TRUE((v)->have &VMCI_BIT(k_), "%s was not parsed", name);                           \
        EXPECT_EQ((v)->value[k_], want);                                                           \
    } while (0)
#define EXPECT_ABSENT(v, name)                                                                     \
    EXPECT_TRUE(!((v)->have & VMCI_BIT(key(name))), "%s was parsed (0x%x)", name,                  \
                (unsigned)(v)->value[key(name)])

/* --- the parser ---------------------------------------------------------------------------- */

static void test_every_key_hash_is_fnv1a_of_its_name(void **state)
{
    for (int k = 0; k <= VMCI_KEYS; k++) {
        uint32_t h = VMCI_HASH_START;
        for (const char *c = key_names[k]; *c; c++)
            h = vmci_hash(h, (uint8_t)*c);
        EXPECT_TRUE(h == vmci_key_hash[k], "key %s: hash %08x, table has %08x", key_names[k],
                    (unsigned)h, (unsigned)vmci_key_hash[k]);
    }
}

static void test_debian_61_text_parses_completely(void **state)
{
    const struct vmci *v;

    kfix_kernel();
    v = parse(kfix_vmcoreinfo_text());
    EXPECT_STR_EQ(v->release, KFIX_RELEASE);
    EXPECT_VALUE(v, "PAGESIZE", 4096);
    EXPECT_VALUE(v, "SYMBOL(init_uts_ns)", KFIX_UTS);
    EXPECT_VALUE(v, "SYMBOL(prb)", KFIX_PRB_PTR);
    EXPECT_VALUE(v, "SIZE(printk_info)", 88);
    EXPECT_VALUE(v, "OFFSET(printk_ringbuffer.text_data_ring)", 24);
    EXPECT_VALUE(v, "OFFSET(prb_desc.text_blk_lpos)", 4);
    EXPECT_VALUE(v, "OFFSET(uts_namespace.name)", 0);
    EXPECT_ABSENT(v, "SYMBOL(kallsyms_markers)");
    /* every printk key is there (kfix_kernel has no kallsyms yet) */
    for (int k = VMCI_PRB_DESC_RING; k <= VMCI_ATOMIC_COUNTER; k++)
        EXPECT_TRUE(v->have & VMCI_BIT(k), "%s missing", key_names[k]);
}

static void test_symbol_values_are_hex_and_others_decimal(void **state)
{
    const struct vmci *v = parse("SYMBOL(prb)=C142e878\nSIZE(prb_desc)=12\n"
                                 "OFFSET(printk_info.seq)=0\nSYMBOL(init_uts_ns)=ffffffff\n");
    EXPECT_VALUE(v, "SYMBOL(prb)", 0xc142e878);
    EXPECT_VALUE(v, "SIZE(prb_desc)", 12);
    EXPECT_VALUE(v, "OFFSET(printk_info.seq)", 0);
    EXPECT_VALUE(v, "SYMBOL(init_uts_ns)", 0xffffffffu);
}

/* arm64 prints kimage_voffset with 0x (and as a number); one 0x only, before the digits. */
static void test_a_hex_value_may_start_with_0x(void **state)
{
    const struct vmci *v = parse("NUMBER(kimage_voffset)=0x7fff0000\n"
                                 "SYMBOL(swapper_pg_dir)=0x0x1000\n"
                                 "SYMBOL(prb)=10x5\n"
                                 "SIZE(prb_desc)=0x18\n");
    EXPECT_VALUE(v, "NUMBER(kimage_voffset)", 0x7fff0000u);
    EXPECT_ABSENT(v, "SYMBOL(swapper_pg_dir)");
    EXPECT_ABSENT(v, "SYMBOL(prb)");
    EXPECT_ABSENT(v, "SIZE(prb_desc)"); /* decimal */
}

static void test_bad_values_are_ignored_not_guessed(void **state)
{
    const struct vmci *v = parse("SIZE(prb_desc)=1a\n"             /* hex digit in decimal */
                                 "SIZE(printk_info)=\n"            /* empty */
                                 "SYMBOL(prb)=c142e878x\n"         /* trailing junk */
                                 "SYMBOL(init_uts_ns)=100000000\n" /* 33 bits */
                                 "PAGESIZE=4294967296\n"           /* 2^32 */
                                 "OFFSET(printk_info.seq)=-1\n"    /* negative */
                                 "OFFSET(printk_info.ts_nsec)=4294967295\n"); /* fits */
    EXPECT_ABSENT(v, "SIZE(prb_desc)");
    EXPECT_ABSENT(v, "SIZE(printk_info)");
    EXPECT_ABSENT(v, "SYMBOL(prb)");
    EXPECT_ABSENT(v, "SYMBOL(init_uts_ns)");
    EXPECT_ABSENT(v, "PAGESIZE");
    EXPECT_ABSENT(v, "OFFSET(printk_info.seq)");
    EXPECT_VALUE(v, "OFFSET(printk_info.ts_nsec)", 4294967295u);
}

static void test_first_occurrence_wins(void **state)
{
    const struct vmci *v = parse("OSRELEASE=6.1.0-1\nSYMBOL(prb)=c0000001\nOSRELEASE=evil\n"
                                 "SYMBOL(prb)=c0000002\n");
    EXPECT_STR_EQ(v->release, "6.1.0-1");
    EXPECT_VALUE(v, "SYMBOL(prb)", 0xc0000001);
}

static void test_lines_without_equals_unknown_keys_and_long_lines_are_skipped(void **state)
{
    char text[3000];
    int n = snprintf(text, sizeof(text), "garbage line\n=\n==\nCRASHTIME=1234\nSYMBOL(");
    memset(text + n, 'x', 2000);
    n += 2000;
    snprintf(text + n, sizeof(text) - (size_t)n, ")=1\nSIZE(prb_desc)=12\n");
    const struct vmci *v = parse(text);
    EXPECT_EQ(v->have, VMCI_BIT(VMCI_DESC_SIZE));
    EXPECT_VALUE(v, "SIZE(prb_desc)", 12);
}

static void test_a_key_is_the_whole_text_before_equals(void **state)
{
    /* a wanted key as a suffix or prefix of another key is not that key */
    const struct vmci *v = parse("XSYMBOL(prb)=c0000001\nSYMBOL(prb)x=c0000002\n"
                                 "SYMBOL(prb) =c0000003\n");
    EXPECT_EQ(v->have, 0);
}

static void test_text_ends_at_nul_and_a_cut_last_line_is_dropped(void **state)
{
    static const char text[] = "SIZE(prb_desc)=12\nSIZE(printk_info)=88\0SYMBOL(prb)=c1\n";
    const struct vmci *v = parse_n(text, sizeof(text));
    EXPECT_VALUE(v, "SIZE(prb_desc)", 12);
    EXPECT_ABSENT(v, "SIZE(printk_info)"); /* no newline before the NUL: maybe cut short */
    EXPECT_ABSENT(v, "SYMBOL(prb)");       /* after the end */
    EXPECT_STR_EQ(parse("PAGESIZE=4096\nOSRELEASE=6.1.0-cut")->release, "");
}

static void test_osrelease_must_be_printable_and_fit_utsname(void **state)
{
    char text[200];

    EXPECT_STR_EQ(parse("OSRELEASE=6.1 x\n")->release, "");
    EXPECT_STR_EQ(parse("OSRELEASE=\n")->release, "");
    EXPECT_STR_EQ(parse("OSRELEASE=\x01\n")->release, "");
    memset(text, 0, sizeof(text));
    memcpy(text, "OSRELEASE=", 10);
    memset(text + 10, 'r', 64);
    text[74] = '\n';
    EXPECT_EQ(strlen(parse(text)->release), 64);
    text[74] = 'r';
    text[75] = '\n';
    EXPECT_STR_EQ(parse(text)->release, "");
}

/* --- finding the running kernel ------------------------------------------------------------ */

static void test_finds_the_page_and_reads_the_uts_version(void **state)
{
    const struct vmci *v;

    kfix_kernel();
    v = kernel_vmcoreinfo(true);
    EXPECT_TRUE(v != NULL, "no kernel found");
    EXPECT_STR_EQ(v->release, KFIX_RELEASE);
    EXPECT_STR_EQ(v->version, KFIX_VERSION);
    EXPECT_EQ(fake.space, PORT_MEM_VIRTUAL);
    EXPECT_TRUE(fake.space_accesses[PORT_MEM_PHYSICAL] > 0, "the page was not read physically");
}

static void test_no_page_no_kernel_and_nothing_left_physical(void **state)
{
    kfix_uts(KFIX_RELEASE, KFIX_VERSION);
    EXPECT_TRUE(kernel_vmcoreinfo(true) == NULL, "found a kernel in empty RAM");
    EXPECT_EQ(fake.space, PORT_MEM_VIRTUAL);
    /* one or two reads a page: bounded by the RAM size */
    EXPECT_TRUE(fake.space_accesses[PORT_MEM_PHYSICAL] <= 2 * FAKE_RAM_SIZE / 4096,
                "%u physical reads", fake.space_accesses[PORT_MEM_PHYSICAL]);
}

static void test_a_stale_page_from_another_kernel_is_passed_over(void **state)
{
    char stale[4096];

    kfix_kernel();
    /* an earlier boot's page, lower in RAM, naming another release */
    snprintf(stale, sizeof(stale),
             "OSRELEASE=5.10.0-old\nPAGESIZE=4096\n"
             "SYMBOL(init_uts_ns)=%x\n",
             KFIX_UTS);
    kfix_vmcoreinfo_write(FAKE_RAM_BASE + 0x1000, stale);
    const struct vmci *v = kernel_vmcoreinfo(true);
    EXPECT_TRUE(v != NULL, "no kernel found");
    EXPECT_STR_EQ(v->release, KFIX_RELEASE);
}

static void test_unaligned_or_faulting_pages_do_not_stop_the_search(void **state)
{
    kfix_kernel();
    /* a copy that is not page aligned does not count; faulting pages are skipped */
    kfix_vmcoreinfo_write(FAKE_RAM_BASE + 0x2010, kfix_vmcoreinfo_text());
    fake_mem_add_fault(FAKE_RAM_BASE, 0x2000);
    const struct vmci *v = kernel_vmcoreinfo(true);
    EXPECT_TRUE(v != NULL, "no kernel found");
}

static void test_a_kernel_without_init_uts_ns_is_not_believed(void **state)
{
    kfix_kernel();
    fake_mem_add_fault(KFIX_UTS, 6 * 65);
    EXPECT_TRUE(kernel_vmcoreinfo(true) == NULL, "a kernel whose init_uts_ns faults");
}

static void test_the_cache_is_used_and_revalidated(void **state)
{
    kfix_kernel();
    uint32_t gen = kernel_generation;
    EXPECT_TRUE(kernel_vmcoreinfo(true) != NULL, "no kernel found");
    EXPECT_EQ(kernel_generation, gen + 1);
    unsigned before = fake.space_accesses[PORT_MEM_PHYSICAL];
    EXPECT_TRUE(kernel_vmcoreinfo(false) != NULL, "the cached kernel was dropped");
    EXPECT_TRUE(fake.space_accesses[PORT_MEM_PHYSICAL] - before <= 2,
                "revalidation read %u physical words",
                fake.space_accesses[PORT_MEM_PHYSICAL] - before);
    EXPECT_EQ(kernel_generation, gen + 1);
    /* another build boots: same release, other version: the cache is not trusted */
    kfix_uts(KFIX_RELEASE, "#2 SMP Debian 6.1.999-2 (2099-01-02)");
    EXPECT_TRUE(kernel_vmcoreinfo(false) == NULL, "a changed kernel passed revalidation");
    const struct vmci *v = kernel_vmcoreinfo(true);
    EXPECT_TRUE(v != NULL, "the new kernel was not found");
    EXPECT_STR_EQ(v->version, "#2 SMP Debian 6.1.999-2 (2099-01-02)");
    EXPECT_EQ(kernel_generation, gen + 2);
    /* the page is gone (the kernel overwrote it): search again */
    memset(fake_mem(KFIX_VMCI_PA), 0, 16);
    EXPECT_TRUE(kernel_vmcoreinfo(false) == NULL, "a vanished page passed revalidation");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_every_key_hash_is_fnv1a_of_its_name, setup),
        cmocka_unit_test_setup(test_debian_61_text_parses_completely, setup),
        cmocka_unit_test_setup(test_symbol_values_are_hex_and_others_decimal, setup),
        cmocka_unit_test_setup(test_a_hex_value_may_start_with_0x, setup),
        cmocka_unit_test_setup(test_bad_values_are_ignored_not_guessed, setup),
        cmocka_unit_test_setup(test_first_occurrence_wins, setup),
        cmocka_unit_test_setup(test_lines_without_equals_unknown_keys_and_long_lines_are_skipped,
                               setup),
        cmocka_unit_test_setup(test_a_key_is_the_whole_text_before_equals, setup),
        cmocka_unit_test_setup(test_text_ends_at_nul_and_a_cut_last_line_is_dropped, setup),
        cmocka_unit_test_setup(test_osrelease_must_be_printable_and_fit_utsname, setup),
        cmocka_unit_test_setup(test_finds_the_page_and_reads_the_uts_version, setup),
        cmocka_unit_test_setup(test_no_page_no_kernel_and_nothing_left_physical, setup),
        cmocka_unit_test_setup(test_a_stale_page_from_another_kernel_is_passed_over, setup),
        cmocka_unit_test_setup(test_unaligned_or_faulting_pages_do_not_stop_the_search, setup),
        cmocka_unit_test_setup(test_a_kernel_without_init_uts_ns_is_not_believed, setup),
        cmocka_unit_test_setup(test_the_cache_is_used_and_revalidated, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
