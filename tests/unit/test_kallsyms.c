/* SPDX-License-Identifier: MIT */
/* kallsyms read in place: address to symbol+offset/size, name to address, the markers
 * found in every layout scripts/kallsyms produces, long names, aliases, and tables that
 * are missing, lying or unreadable. */
#include "expect.h"

#include <stdio.h>

#include "fake_port.h"
#include "kallsyms.h"
#include "kernel_fixture.h"
#include "vmcoreinfo.h"

#define FILLERS 600u
#define MBR 0xc0010000u  /* mount_block_root */
#define GAP 0xc0080000u  /* _etext: data follows, no code */
#define INIT 0xc0100000u /* init text */

static struct kfix_sym syms[FILLERS + 16];
static unsigned nsyms;
static char filler_names[FILLERS][16];
static char long_name[201];

static void add(uint32_t addr, char type, const char *name)
{
    syms[nsyms++] = (struct kfix_sym){addr, type, name};
}

/* _stext, aliases, mount_block_root, a long name, fillers (three markers' worth),
 * _etext (data), a static name twice, init text, and the end. */
static void build(enum kfix_markers where)
{
    nsyms = 0;
    memset(long_name, 'L', 200);
    add(KFIX_STEXT, 'T', "_stext");
    add(KFIX_STEXT, 'T', "__turn_mmu_on");
    add(KFIX_STEXT + 0x20, 't', "cpu_resume_mmu");
    add(KFIX_STEXT + 0x20, 't', "__turn_mmu_on_end");
    add(KFIX_STEXT + 0x40, 't', "init_once");
    add(KFIX_STEXT + 0x80, 't', long_name);
    add(KFIX_STEXT + 0xc0, 't', "after_long");
    add(MBR, 'T', "mount_block_root");
    add(MBR + 0x1f4, 'T', "prepare_namespace");
    for (unsigned i = 0; i < FILLERS; i++) {
        snprintf(filler_names[i], sizeof(filler_names[i]), "filler_%03u", i);
        add(MBR + 0x1000 + 0x40 * i, i % 3 ? 't' : 'T', filler_names[i]);
    }
    add(GAP, 'D', "_etext");
    add(INIT, 'T', "_sinittext");
    add(INIT + 0x40, 't', "init_once");
    add(INIT + 0x100, 'T', "_einittext");
    kfix_kallsyms(syms, nsyms, where);
    kfix_publish();
}

static int setup(void **state)
{
    kfix_reset();
    kfix_kernel();
    build(KFIX_MARKERS_BEFORE_SEQS);
    return 0;
}

static bool ready(void)
{
    kernel_vmcoreinfo_forget();
    const struct vmci *v = kernel_vmcoreinfo(true);
    EXPECT_TRUE(v != NULL, "the fixture kernel was not found");
    return ksyms_ready(v);
}

static const char *lookup(uint32_t addr)
{
    struct ksym s;

    if (!ksym_lookup(addr, &s))
        return "-";
    return tfmt("%s+0x%x/0x%x %c", s.name, (unsigned)(addr - s.addr), (unsigned)s.size, s.type);
}

static void test_address_to_symbol_offset_and_size(void **state)
{
    EXPECT_TRUE(ready(), "tables not ready");
    EXPECT_STR_EQ(lookup(MBR + 0x1ec), "mount_block_root+0x1ec/0x1f4 T");
    EXPECT_STR_EQ(lookup(MBR), "mount_block_root+0x0/0x1f4 T");
    EXPECT_STR_EQ(lookup(MBR + 0x1f3), "mount_block_root+0x1f3/0x1f4 T");
    EXPECT_STR_EQ(lookup(MBR + 0x1f4), "prepare_namespace+0x0/0xe0c T");
    EXPECT_STR_EQ(lookup(MBR + 0x1000 + 0x40 * 599 + 4),
                  tfmt("filler_599+0x4/0x%x t", GAP - (MBR + 0x1000 + 0x40 * 599)));
}

static void test_several_names_at_one_address_report_the_first(void **state)
{
    EXPECT_TRUE(ready(), "tables not ready");
    EXPECT_STR_EQ(lookup(KFIX_STEXT + 4), "_stext+0x4/0x20 T");
    EXPECT_STR_EQ(lookup(KFIX_STEXT + 0x20), "cpu_resume_mmu+0x0/0x20 t");
}

static void test_outside_the_code_there_is_no_symbol(void **state)
{
    EXPECT_TRUE(ready(), "tables not ready");
    EXPECT_STR_EQ(lookup(KFIX_STEXT - 4), "-");
    EXPECT_STR_EQ(lookup(GAP + 0x1234), "-"); /* after _etext: a 'D' symbol */
    EXPECT_STR_EQ(lookup(INIT + 0x100), "-"); /* the last symbol has no size */
    EXPECT_STR_EQ(lookup(0xffff0000u), "-");
    EXPECT_STR_EQ(lookup(INIT + 0x44), "init_once+0x4/0xc0 t");
}

static void test_a_long_name_is_cut_and_the_next_one_is_intact(void **state)
{
    char want[KSYM_NAME_MAX];

    EXPECT_TRUE(ready(), "tables not ready");
    memset(want, 'L', KSYM_NAME_MAX - 1);
    want[KSYM_NAME_MAX - 1] = '\0';
    EXPECT_STR_EQ(lookup(KFIX_STEXT + 0x80), tfmt("%s+0x0/0x40 t", want));
    EXPECT_STR_EQ(lookup(KFIX_STEXT + 0xc0), "after_long+0x0/0x7f40 t");
}

static char found[8][96];
static int nfound;

static void collect(const struct ksym *s)
{
    snprintf(found[nfound++ % 8], sizeof(found[0]), "%08x %s/0x%x", (unsigned)s->addr, s->name,
             (unsigned)s->size);
}

static int find(const char *name)
{
    nfound = 0;
    return ksym_find(name, 8, collect);
}

static void test_name_to_address_and_size(void **state)
{
    EXPECT_TRUE(ready(), "tables not ready");
    EXPECT_EQ(find("mount_block_root"), 1);
    EXPECT_STR_EQ(found[0], tfmt("%08x mount_block_root/0x1f4", MBR));
    EXPECT_EQ(find("filler_457"), 1);
    EXPECT_STR_EQ(found[0], tfmt("%08x filler_457/0x40", MBR + 0x1000 + 0x40 * 457));
    EXPECT_EQ(find("__turn_mmu_on"), 1); /* an alias: its own name, the shared size */
    EXPECT_STR_EQ(found[0], tfmt("%08x __turn_mmu_on/0x20", KFIX_STEXT));
}

static void test_a_name_defined_twice_is_found_twice(void **state)
{
    EXPECT_TRUE(ready(), "tables not ready");
    EXPECT_EQ(find("init_once"), 2);
    EXPECT_STR_EQ(found[0], tfmt("%08x init_once/0x40", KFIX_STEXT + 0x40));
    EXPECT_STR_EQ(found[1], tfmt("%08x init_once/0xc0", INIT + 0x40));
}

static void test_only_whole_names_match(void **state)
{
    EXPECT_TRUE(ready(), "tables not ready");
    EXPECT_EQ(find("mount_block"), 0);
    EXPECT_EQ(find("mount_block_root2"), 0);
    EXPECT_EQ(find("tmount_block_root"), 0); /* the type letter is not part of the name */
    EXPECT_EQ(find(""), 0);
    EXPECT_EQ(find(long_name), 1); /* compared in full, although shown cut */
}

static void test_markers_are_found_in_every_layout(void **state)
{
    static const enum kfix_markers layouts[] = {KFIX_MARKERS_BEFORE_TOKENS,
                                                KFIX_MARKERS_BEFORE_SEQS, KFIX_MARKERS_ELSEWHERE,
                                                KFIX_MARKERS_PUBLISHED};
    for (unsigned i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++) {
        kfix_reset();
        kfix_kernel();
        build(layouts[i]);
        EXPECT_TRUE(ready(), "layout %u: tables not ready", i);
        EXPECT_STR_EQ(lookup(MBR + 0x1000 + 0x40 * 590 + 8), "filler_590+0x8/0x40 t");
        EXPECT_STR_EQ(lookup(MBR + 0x1000 + 0x40 * 250), "filler_250+0x0/0x40 t");
    }
}

static void test_a_lookup_costs_a_bounded_number_of_reads(void **state)
{
    EXPECT_TRUE(ready(), "tables not ready");
    unsigned before = fake.reads[1] + fake.reads[2] + fake.reads[4];
    lookup(MBR + 0x1000 + 0x40 * 511);
    unsigned cost = fake.reads[1] + fake.reads[2] + fake.reads[4] - before;
    EXPECT_TRUE(cost < 600, "one lookup took %u reads", cost);
}

static void test_tables_that_lie_are_refused(void **state)
{
    EXPECT_TRUE(ready(), "tables not ready");
    kfix_w32(kfix_ks.num_syms, 0x7fffffff);
    EXPECT_TRUE(!ready(), "a count of 0x7fffffff symbols was believed");
    kfix_w32(kfix_ks.num_syms, 1);
    EXPECT_TRUE(!ready(), "a table of one symbol was believed");
    kfix_w32(kfix_ks.num_syms, nsyms);
    EXPECT_TRUE(ready(), "the repaired table was refused");
    *(uint16_t *)fake_mem(kfix_ks.token_index) = 2;
    EXPECT_TRUE(!ready(), "a token index not starting at 0 was believed");
    *(uint16_t *)fake_mem(kfix_ks.token_index) = 0;
    kfix_w32(kfix_ks.offsets, 0x01000000); /* the first symbol after the last */
    EXPECT_TRUE(!ready(), "unsorted offsets were believed");
}

static void test_missing_tables_or_faults_make_no_symbols_and_no_hang(void **state)
{
    struct ksym s;

    kfix_reset();
    kfix_kernel(); /* VMCOREINFO without the kallsyms lines */
    EXPECT_TRUE(!ready(), "symbols without kallsyms");
    EXPECT_TRUE(!ksym_lookup(MBR, &s), "lookup without tables");
    EXPECT_EQ(ksym_find("mount_block_root", 8, collect), 0);

    kfix_reset();
    kfix_kernel();
    build(KFIX_MARKERS_ELSEWHERE);
    fake_mem_add_fault(kfix_ks.names + 0x300, 4); /* the slow markers search hits a fault */
    EXPECT_TRUE(!ready(), "tables whose names fault were believed");

    kfix_reset();
    kfix_kernel();
    build(KFIX_MARKERS_BEFORE_SEQS);
    EXPECT_TRUE(ready(), "tables not ready");
    fake_mem_add_fault(kfix_ks.names + 0x1000, 0x100);
    EXPECT_EQ(find("filler_599"), -1);
    EXPECT_TRUE(!ksym_lookup(MBR + 0x1000 + 0x40 * 320, &s), "a name that faults resolved");
    EXPECT_STR_EQ(lookup(MBR + 4), "mount_block_root+0x4/0x1f4 T"); /* before the fault */
}

static void test_a_new_kernel_reloads_the_tables(void **state)
{
    EXPECT_TRUE(ready(), "tables not ready");
    EXPECT_STR_EQ(lookup(MBR), "mount_block_root+0x0/0x1f4 T");
    /* the same addresses now say something else: a rebuilt kernel */
    syms[7].name = "do_mounts";
    kfix_kallsyms(syms, nsyms, KFIX_MARKERS_BEFORE_SEQS);
    kfix_uts(KFIX_RELEASE, "#2 rebuilt");
    kfix_publish();
    EXPECT_TRUE(ready(), "tables not ready");
    EXPECT_STR_EQ(lookup(MBR), "do_mounts+0x0/0x1f4 T");
    syms[7].name = "mount_block_root";
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_address_to_symbol_offset_and_size, setup),
        cmocka_unit_test_setup(test_several_names_at_one_address_report_the_first, setup),
        cmocka_unit_test_setup(test_outside_the_code_there_is_no_symbol, setup),
        cmocka_unit_test_setup(test_a_long_name_is_cut_and_the_next_one_is_intact, setup),
        cmocka_unit_test_setup(test_name_to_address_and_size, setup),
        cmocka_unit_test_setup(test_a_name_defined_twice_is_found_twice, setup),
        cmocka_unit_test_setup(test_only_whole_names_match, setup),
        cmocka_unit_test_setup(test_markers_are_found_in_every_layout, setup),
        cmocka_unit_test_setup(test_a_lookup_costs_a_bounded_number_of_reads, setup),
        cmocka_unit_test_setup(test_tables_that_lie_are_refused, setup),
        cmocka_unit_test_setup(test_missing_tables_or_faults_make_no_symbols_and_no_hang, setup),
        cmocka_unit_test_setup(test_a_new_kernel_reloads_the_tables, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
