// SPDX-License-Identifier: MIT
/* The AArch64 parts of the monitor core, built on the host for a 64-bit target
 * (-DFIQMON_AARCH64=1: the Makefile's UNIT64 build of monitor/): the
 * context frame's stack pointer per EL, mode names and flags of PSTATE, the hand-off's
 * entry frame, and 64-bit addresses parsed and refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cpu_frame.h"
#include "parse.h"

_Static_assert(FIQMON_AARCH64 && sizeof(target_addr_t) == 8, "built for a 64-bit target");

static void test_the_stack_pointer_is_the_interrupted_els(void **state)
{
    struct cpu_frame f;
    (void)state;
    memset(&f, 0, sizeof(f));
    f.sp_el0 = 0x1000;
    f.sp_el1 = 0xffff800008013f20ull;
    f.sp_el2 = 0x40eec000;
    f.pstate = A64_PSTATE_EL1H;
    assert_true(frame_sp(&f) == &f.sp_el1);
    f.pstate = A64_PSTATE_EL2H | A64_PSTATE_F;
    assert_true(frame_sp(&f) == &f.sp_el2);
    for (unsigned m = 0; m < 16; m += 4) { /* EL0t, EL1t, EL2t, EL3t: SP_EL0 */
        f.pstate = m;
        assert_true(frame_sp(&f) == &f.sp_el0);
    }
    assert_true(frame_lr(&f) == &f.x[30]);
    assert_int_equal(frame_psr(&f), 12);
}

static void test_pstate_names_and_flags(void **state)
{
    char flags[16];
    (void)state;
    assert_string_equal(arm_mode_name(0x600000c5), "el1h");
    assert_string_equal(arm_mode_name(0x3c9), "el2h");
    assert_string_equal(arm_mode_name(0x38c), "el3t");
    assert_string_equal(arm_mode_name(0x0), "el0t");
    assert_string_equal(arm_mode_name(0x2), "???");
    assert_string_equal(arm_mode_name(0x10 | 0x13), "aarch32"); /* nRW: AArch32 state */
    arm_psr_describe(0x600003c5, flags);
    assert_string_equal(flags, "nZCv DAIF");
    arm_psr_describe(0xa000038c, flags);
    assert_string_equal(flags, "NzCv DAI");
    arm_psr_describe(0x00000005, flags);
    assert_string_equal(flags, "nzcv");
}

static void test_the_hand_off_frame_is_the_arm64_boot_protocols(void **state)
{
    struct cpu_frame f;
    (void)state;
    memset(&f, 0xa5, sizeof(f));
    frame_set_entry(&f, A64_PSTATE_EL2H | 0x3c0, FRAME_WORLD_NORMAL, 0x40200000, 0x40000000, 0,
                    0);
    assert_int_equal(f.pc, 0x40200000);
    assert_int_equal(f.x[0], 0x40000000);
    for (unsigned i = 1; i < 31; i++)
        assert_int_equal(f.x[i], 0);
    assert_int_equal(f.sp_el0 | f.sp_el1 | f.sp_el2 | f.elr_el1 | f.elr_el2, 0);
    assert_int_equal(f.pstate, 0x3c9);
    assert_int_equal(f.world, FRAME_WORLD_NORMAL);
}

static void test_addresses_are_64_bits(void **state)
{
    target_addr_t a = 0;
    (void)state;
    assert_int_equal(parse_addr("ffff800008000000", &a), PARSE_OK);
    assert_true(a == 0xffff800008000000ull);
    assert_int_equal(parse_addr("0xffffffffffffffff", &a), PARSE_OK);
    assert_true(a == ~0ull);
    assert_int_equal(parse_addr("10000000000000000", &a), PARSE_OVERFLOW);
    assert_int_equal(parse_addr("#18446744073709551615", &a), PARSE_OK);
    assert_int_equal(parse_addr("#18446744073709551616", &a), PARSE_OVERFLOW);
    uint32_t w;
    assert_int_equal(parse_u32("100000000", &w), PARSE_OVERFLOW); /* values stay 32-bit */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_stack_pointer_is_the_interrupted_els),
        cmocka_unit_test(test_pstate_names_and_flags),
        cmocka_unit_test(test_the_hand_off_frame_is_the_arm64_boot_protocols),
        cmocka_unit_test(test_addresses_are_64_bits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
