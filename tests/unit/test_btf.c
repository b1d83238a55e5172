/* SPDX-License-Identifier: MIT */
/* The BTF reader (monitor/linux/btf.c) on blobs the test writes (btf_fixture.h): the
 * header's checks, the type index (records of every kind, checkpoints thinned as the
 * blob grows), structs by name, members by path through anonymous members, qualifiers,
 * arrays and bitfields; and where the running kernel's blob is found: from the code that
 * loads it (AArch64 ADRP/LDR, kcode_a64.c), else by a scan of its rodata. */
#include "expect.h"

#include "btf.h"
#include "btf_fixture.h"
#include "fake_port.h"
#include "kallsyms.h"
#include "kcode_a64.h"
#include "kernel_fixture.h"
#include "kmem.h"
#include "task_fixture.h"
#include "vmcoreinfo.h"

#define BLOB 0xc0100000u

static struct btf b;

static int setup(void **state)
{
    kfix_reset();
    kfix_kernel();
    return 0;
}

/* A blob of the fixture kernel's layouts (bfix_build_kernel's), written at BLOB. */
static uint32_t small_blob(void)
{
    bfix_build_kernel(BFIX_CODE_GOT, NULL);
    return bfix_write(BLOB);
}

static void test_a_consistent_header_is_accepted_and_anything_else_refused(void **state)
{
    uint32_t size = small_blob(), w;

    EXPECT_TRUE(btf_header_at(BLOB, &b), "the blob");
    EXPECT_EQ(b.types, BLOB + 24);
    EXPECT_EQ(b.types_len, bfix_types_len());
    EXPECT_EQ(b.strings, BLOB + 24 + bfix_types_len());
    EXPECT_EQ(b.strings_len, bfix_strings_len());
    EXPECT_TRUE(!btf_header_at(BLOB + 4, &b), "not a header");
    EXPECT_TRUE(!btf_header_at(BLOB + 2, &b), "misaligned");
    /* each header word made inconsistent in turn: refused */
    static const struct {
        unsigned word;
        uint32_t value;
    } bad[] = {
        {0, 0x0002eb9fu},             /* version 2 */
        {0, 0x0101eb9fu},             /* flags */
        {1, 20},                      /* header shorter than version 1's */
        {1, 26},                      /* not a word multiple */
        {3, 13},                      /* types not whole words */
        {3, 8},                       /* fewer bytes than one record */
        {4, 4},                       /* strings overlap the types */
        {5, 0},                       /* no strings */
        {5, 0x10000000u},             /* more strings than there can be */
    };
    for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        uint32_t at = BLOB + 4 * bad[i].word, was = kfix_r32(at);
        kfix_w32(at, bad[i].value);
        EXPECT_TRUE(!btf_header_at(BLOB, &b), "a bad header word");
        kfix_w32(at, was);
    }
    /* the strings must begin and end with a NUL */
    w = kfix_r32(BLOB + size - 4);
    kfix_w32(BLOB + size - 4, w | 0xff000000u);
    kmem_begin(); /* (as every command begins: kr8 keeps words it read) */
    EXPECT_TRUE(!btf_header_at(BLOB, &b), "last string unterminated");
    kfix_w32(BLOB + size - 4, w);
    kmem_begin();
    EXPECT_TRUE(btf_header_at(BLOB, &b), "restored");
    /* a fault anywhere in the header is a refusal, not a crash */
    fake_mem_add_fault(BLOB + 12, 4);
    EXPECT_TRUE(!btf_header_at(BLOB, &b), "faulting header");
}

static void test_the_index_walks_every_kind_and_refuses_a_bad_record(void **state)
{
    uint32_t types, kinds;

    small_blob();
    EXPECT_TRUE(btf_header_at(BLOB, &b) && btf_index(&b), "indexed");
    EXPECT_EQ(b.count, bfix_next_id() - 1);
    EXPECT_EQ(b.shift, 0); /* fewer types than checkpoints */
    /* an unknown kind (20) in the first record: the walk cannot go on */
    types = b.types;
    kinds = kfix_r32(types + 4);
    kfix_w32(types + 4, 20u << 24);
    EXPECT_TRUE(!btf_index(&b), "unknown kind");
    kfix_w32(types + 4, kinds);
    /* a struct whose members run past the end of the section */
    kfix_w32(BLOB + 12, kfix_r32(BLOB + 12) - 4);
    EXPECT_TRUE(btf_header_at(BLOB, &b), "header still consistent");
    EXPECT_TRUE(!btf_index(&b), "records do not end with the section");
}

/* Many types between the ones looked up: the checkpoints thin out, and every id is still
 * found from its checkpoint. */
static void test_checkpoints_thin_out_and_every_id_resolves(void **state)
{
    uint32_t t_int, s, n = 5000;
    struct btf_member m;

    bfix_start();
    t_int = bfix_int("int", 4);
    for (uint32_t i = 0; i < n; i++)
        bfix_ref(BFIX_TYPEDEF, "", t_int); /* typedefs of int */
    s = bfix_struct(BFIX_STRUCT, "late", 8, 2, false);
    bfix_member("a", t_int, 0);
    bfix_member("b", t_int + 3000, 32); /* a typedef in the middle of the run */
    bfix_write(BLOB);
    EXPECT_TRUE(btf_header_at(BLOB, &b) && btf_index(&b), "indexed");
    EXPECT_EQ(b.count, n + 2);
    EXPECT_EQ(b.shift, 5); /* 5002 ids, 256 checkpoints: every 32nd */
    const char *names[] = {"late"};
    uint32_t id;
    EXPECT_EQ(btf_find_structs(&b, names, &id, 1), 1);
    EXPECT_EQ(id, s);
    EXPECT_TRUE(btf_member(&b, s, "b", &m), "member b");
    EXPECT_EQ(m.offset, 4);
    EXPECT_EQ(m.type, t_int); /* its typedef (id 3001, between checkpoints) looked through */
    EXPECT_TRUE(!btf_member(&b, s, "nothing", &m), "no such member");
}

/* A typedef chain longer than fiqmon follows, and one that loops: refused, not followed
 * for ever. */
static void test_type_chains_are_bounded(void **state)
{
    uint32_t t_int, first, s;
    struct btf_member m;

    bfix_start();
    t_int = bfix_int("int", 4);
    first = bfix_next_id();
    for (uint32_t i = 0; i < 40; i++)
        bfix_ref(BFIX_CONST, "", first + i + 1 < first + 40 ? first + i + 1 : t_int);
    bfix_ref(BFIX_VOLATILE, "", bfix_next_id()); /* a loop: a qualifier of itself */
    s = bfix_struct(BFIX_STRUCT, "s", 8, 2, false);
    bfix_member("long_chain", first, 0);
    bfix_member("loop", s - 1, 32);
    bfix_write(BLOB);
    EXPECT_TRUE(btf_header_at(BLOB, &b) && btf_index(&b), "indexed");
    EXPECT_TRUE(!btf_member(&b, s, "long_chain", &m), "40 qualifiers");
    EXPECT_TRUE(!btf_member(&b, s, "loop", &m), "a loop");
}

/* A struct of 3000 anonymous members, each that struct again: looking for a name it does
 * not have visits a bounded number of members, not 3000^4. */
static void test_anonymous_members_are_searched_within_a_budget(void **state)
{
    uint32_t s, n = 3000;
    struct btf_member m;

    bfix_start();
    bfix_int("int", 4);
    s = bfix_struct(BFIX_STRUCT, "nest", 4, n, false);
    for (uint32_t i = 0; i < n; i++)
        bfix_member("", s, 0);
    bfix_write(BLOB);
    EXPECT_TRUE(btf_header_at(BLOB, &b) && btf_index(&b), "indexed");
    EXPECT_TRUE(!btf_member(&b, s, "x", &m), "no x, found out in bounded time");
}

static uint32_t task_struct(void)
{
    const char *names[] = {"task_struct", "module", "thread_struct", "nothing"};
    uint32_t ids[4];

    EXPECT_TRUE(btf_header_at(BFIX_BTF, &b) && btf_index(&b), "the kernel's blob");
    EXPECT_EQ(btf_find_structs(&b, names, ids, 4), 3);
    EXPECT_TRUE(ids[0] && ids[1] && ids[2] && !ids[3], "found what is there");
    return ids[0];
}

static void test_structs_by_name_skip_declarations_unions_and_longer_names(void **state)
{
    struct btf_member m;
    uint32_t t;

    bfix_build_kernel(BFIX_CODE_GOT, NULL);
    t = task_struct();
    /* it is the task_struct with 15 members (its pid is at TFIX_OFF_PID, not 0) */
    EXPECT_TRUE(btf_member(&b, t, "pid", &m), "pid");
    EXPECT_EQ(m.offset, TFIX_OFF_PID);
}

static void test_members_resolve_through_qualifiers_anonymous_members_and_paths(void **state)
{
    struct btf_member m;
    uint32_t t;

    bfix_build_kernel(BFIX_CODE_GOT, NULL);
    t = task_struct();
    EXPECT_TRUE(btf_member(&b, t, "pid", &m), "pid (a typedef of int)");
    EXPECT_EQ(m.kind, BTF_KIND_INT);
    EXPECT_EQ(m.size, 4);
    EXPECT_TRUE(btf_member(&b, t, "__state", &m), "__state (volatile)");
    EXPECT_EQ(m.offset, TFIX_OFF_STATE);
    EXPECT_EQ(m.kind, BTF_KIND_INT);
    EXPECT_TRUE(btf_member(&b, t, "stack", &m), "stack (a const pointer)");
    EXPECT_EQ(m.offset, TFIX_OFF_STACK);
    EXPECT_EQ(m.kind, BTF_KIND_PTR);
    EXPECT_EQ(m.size, 4);
    EXPECT_TRUE(btf_member(&b, t, "active_mm", &m), "in an anonymous struct");
    EXPECT_EQ(m.offset, TFIX_OFF_MM + 4);
    EXPECT_TRUE(btf_member(&b, t, "comm", &m), "comm");
    EXPECT_EQ(m.offset, TFIX_OFF_COMM);
    EXPECT_EQ(m.kind, BTF_KIND_ARRAY);
    EXPECT_EQ(m.nelems, 16);
    EXPECT_EQ(m.elem_size, 1);
    EXPECT_EQ(m.size, 16);
    EXPECT_TRUE(btf_member(&b, t, "tasks", &m), "tasks");
    EXPECT_EQ(m.kind, BTF_KIND_STRUCT);
    EXPECT_EQ(m.size, 8);
    EXPECT_TRUE(btf_member(&b, t, "thread.cpu_context.pc", &m), "a path");
    EXPECT_EQ(m.offset, TFIX_OFF_CONTEXT + 36);
    EXPECT_TRUE(btf_member(&b, t, "thread.cpu_context", &m), "the struct on the way");
    EXPECT_EQ(m.offset, TFIX_OFF_CONTEXT);
    EXPECT_EQ(m.size, 40);
    /* not there, not a struct on the way, a bitfield off a byte, an empty step */
    EXPECT_TRUE(!btf_member(&b, t, "thread.cpu_context.lr", &m), "no lr");
    EXPECT_TRUE(!btf_member(&b, t, "pid.x", &m), "pid is no struct");
    EXPECT_TRUE(!btf_member(&b, t, "in_execve", &m), "a bitfield");
    EXPECT_TRUE(!btf_member(&b, t, "thread..pc", &m), "an empty name");
    EXPECT_TRUE(!btf_member(&b, t, "pi", &m), "a prefix of a name");
    EXPECT_TRUE(!btf_member(&b, 0, "pid", &m), "void");
    EXPECT_TRUE(!btf_member(&b, b.count + 1, "pid", &m), "no such id");
}

static void test_a_member_of_an_array_element(void **state)
{
    uint32_t t_int, t_uint, t_voidp, t_mem, t_arr, mod;
    struct btf_member m;

    bfix_start();
    t_int = bfix_int("int", 4);
    t_uint = bfix_int("unsigned int", 4);
    t_voidp = bfix_ref(BFIX_PTR, "", 0);
    t_mem = bfix_struct(BFIX_STRUCT, "module_memory", 16, 2, false); /* 6.4's */
    bfix_member("base", t_voidp, 0);
    bfix_member("size", t_uint, 32);
    t_arr = bfix_array(t_mem, 7);
    mod = bfix_struct(BFIX_STRUCT, "module", 200, 2, false);
    bfix_member("state", t_int, 0);
    bfix_member("mem", t_arr, 8 * 64);
    bfix_write(BLOB);
    EXPECT_TRUE(btf_header_at(BLOB, &b) && btf_index(&b), "indexed");
    EXPECT_TRUE(btf_member(&b, mod, "mem", &m), "mem");
    EXPECT_EQ(m.nelems, 7);
    EXPECT_EQ(m.elem_size, 16);
    EXPECT_EQ(m.size, 112);
    EXPECT_TRUE(btf_member(&b, mod, "mem.size", &m), "mem[0].size");
    EXPECT_EQ(m.offset, 68);
}

/* --- the running kernel's ------------------------------------------------------------ */
static const struct btf *kernel(void)
{
    const struct vmci *v = kernel_vmcoreinfo(true);

    EXPECT_TRUE(v && ksyms_ready(v), "fixture kernel with symbols");
    return kernel_btf();
}

static void test_the_kernels_blob_is_found_where_its_code_loads_it(void **state)
{
    const struct btf *k;

    bfix_build_kernel(BFIX_CODE_GOT, NULL);
    k = kernel();
    EXPECT_TRUE(k != NULL, "found");
    EXPECT_EQ(k->hdr, BFIX_BTF);
    EXPECT_STR_EQ(kernel_btf_how(), "adrp in btf_parse_vmlinux");
    EXPECT_EQ(k->count, bfix_next_id() - 1);
    /* kept for the kernel it was found in: a blob gone is not noticed until a new kernel */
    kfix_w32(BFIX_BTF, 0);
    EXPECT_TRUE(kernel_btf() == k, "cached");
    kernel_vmcoreinfo_forget();
    EXPECT_TRUE(kernel() == NULL, "a new kernel without it");
    EXPECT_STR_EQ(kernel_btf_how(), "");
}

static void test_without_code_that_loads_it_a_scan_of_the_rodata_finds_it(void **state)
{
    const struct btf *k;

    bfix_build_kernel(BFIX_CODE_NONE, NULL);
    /* a page that faults on the way, and a decoy header word that is no header */
    fake_mem_add_fault(BFIX_ETEXT + 0x3000, 0x1000);
    kfix_w32(BFIX_ETEXT + 0x8000, 0x0001eb9fu);
    k = kernel();
    EXPECT_TRUE(k != NULL, "found");
    EXPECT_EQ(k->hdr, BFIX_BTF);
    EXPECT_STR_EQ(kernel_btf_how(), "a scan of the rodata");
}

static void test_a_blob_after_the_init_text_is_not_searched_for(void **state)
{
    bfix_build_kernel(BFIX_CODE_NONE, NULL);
    kfix_w32(BFIX_BTF, 0); /* none where it was */
    bfix_write(BFIX_SINITTEXT + 0x2000u); /* past the rodata */
    EXPECT_TRUE(kernel() == NULL, "not found");
}

/* --- the AArch64 decoder ------------------------------------------------------------- */
static void test_adrp_add_and_ldr_are_decoded(void **state)
{
    uint64_t page[31] = {0}, addr;
    bool slot;

    /* adrp x0, .+0x1000 at 0xffff800008001234; adrp x5, .-4 GiB (the most negative) */
    EXPECT_EQ(kcode_a64_adrp(0xb0000000u, 0xffff800008001234ull), 0xffff800008002000ull);
    EXPECT_EQ(kcode_a64_adrp(0x90800005u, 0xffff800108000000ull), 0xffff800008000000ull);
    EXPECT_EQ(kcode_a64_adrp(0xf0ffffe1u, 0xffff800008000000ull), 0xffff800007fff000ull);
    page[3] = 0xffff800009000000ull;
    /* add x3, x3, #0x75c */
    EXPECT_TRUE(kcode_a64_pair(0x911d7063u, page, 1u << 3, &addr, &slot), "add");
    EXPECT_EQ(addr, 0xffff80000900075cull);
    EXPECT_TRUE(!slot, "an address");
    /* ldr x1, [x3, #0x988] */
    EXPECT_TRUE(kcode_a64_pair(0xf944c461u, page, 1u << 3, &addr, &slot), "ldr");
    EXPECT_EQ(addr, 0xffff800009000988ull);
    EXPECT_TRUE(slot, "a slot");
    /* on a register without a page, a shifted add, a 32-bit ldr, sp: nothing */
    EXPECT_TRUE(!kcode_a64_pair(0x911d7063u, page, 1u << 4, &addr, &slot), "no page");
    EXPECT_TRUE(!kcode_a64_pair(0x915d7063u, page, 1u << 3, &addr, &slot), "add lsl 12");
    EXPECT_TRUE(!kcode_a64_pair(0xb944c461u, page, 1u << 3, &addr, &slot), "ldr w");
    EXPECT_TRUE(!kcode_a64_pair(0x910003e0u, page, ~0u, &addr, &slot), "mov x0, sp");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_a_consistent_header_is_accepted_and_anything_else_refused,
                               setup),
        cmocka_unit_test_setup(test_the_index_walks_every_kind_and_refuses_a_bad_record, setup),
        cmocka_unit_test_setup(test_checkpoints_thin_out_and_every_id_resolves, setup),
        cmocka_unit_test_setup(test_type_chains_are_bounded, setup),
        cmocka_unit_test_setup(test_anonymous_members_are_searched_within_a_budget, setup),
        cmocka_unit_test_setup(test_structs_by_name_skip_declarations_unions_and_longer_names,
                               setup),
        cmocka_unit_test_setup(
            test_members_resolve_through_qualifiers_anonymous_members_and_paths, setup),
        cmocka_unit_test_setup(test_a_member_of_an_array_element, setup),
        cmocka_unit_test_setup(test_the_kernels_blob_is_found_where_its_code_loads_it, setup),
        cmocka_unit_test_setup(test_without_code_that_loads_it_a_scan_of_the_rodata_finds_it,
                               setup),
        cmocka_unit_test_setup(test_a_blob_after_the_init_text_is_not_searched_for, setup),
        cmocka_unit_test(test_adrp_add_and_ldr_are_decoded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
