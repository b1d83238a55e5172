// SPDX-License-Identifier: MIT
/* virt64's answer to the kernel's traps to EL3 (platforms/common/aarch64_el3_trap.c): its
 * accesses to the GIC's Group 0 CPU-interface registers, trapped by SCR_EL3.FIQ, read as 0
 * (the acknowledge registers as 1023) into the right register, and writes do nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "aarch64_el3_trap.h"

/* The syndrome of MRS/MSR (EC 0x18) of (op0, op1, CRn, CRm, op2) with Rt, read or write:
 * the layout of ESR_ELx.ISS for EC 0x18 (Arm ARM D19), built here field by field. */
static uint64_t sysreg_esr(unsigned op0, unsigned op1, unsigned crn, unsigned crm, unsigned op2,
                           unsigned rt, int read)
{
    return (uint64_t)0x18 << 26 | 1u << 25 /* IL: 32-bit instruction */ | (uint64_t)op0 << 20 |
           (uint64_t)op2 << 17 | (uint64_t)op1 << 14 | (uint64_t)crn << 10 | (uint64_t)rt << 5 |
           (uint64_t)crm << 1 | (unsigned)read;
}

static void test_reading_iar0_gets_spurious_in_its_register(void **state)
{
    (void)state;
    for (unsigned rt = 0; rt < 31; rt++) {
        struct el3_trap_answer a = el3_trap_answer(sysreg_esr(3, 0, 12, 8, 0, rt, 1));
        assert_true(a.write_rt);
        assert_int_equal(a.rt, rt);
        assert_int_equal(a.value, 1023); /* ICC_IAR0_EL1 */
    }
    struct el3_trap_answer h = el3_trap_answer(sysreg_esr(3, 0, 12, 8, 2, 7, 1));
    assert_true(h.write_rt && h.rt == 7 && h.value == 1023); /* ICC_HPPIR0_EL1 */
}

static void test_other_group0_reads_are_zero(void **state)
{
    (void)state;
    /* ICC_IGRPEN0_EL1, ICC_BPR0_EL1, ICC_AP0R0_EL1 */
    static const unsigned regs[][5] = {{3, 0, 12, 12, 6}, {3, 0, 12, 8, 3}, {3, 0, 12, 8, 4}};
    for (unsigned i = 0; i < 3; i++) {
        struct el3_trap_answer a =
            el3_trap_answer(sysreg_esr(regs[i][0], regs[i][1], regs[i][2], regs[i][3], regs[i][4], 3, 1));
        assert_true(a.write_rt);
        assert_int_equal(a.rt, 3);
        assert_int_equal(a.value, 0);
    }
}

static void test_writes_xzr_and_other_traps_change_no_register(void **state)
{
    (void)state;
    assert_false(el3_trap_answer(sysreg_esr(3, 0, 12, 12, 6, 4, 0)).write_rt); /* msr IGRPEN0 */
    assert_false(el3_trap_answer(sysreg_esr(3, 0, 12, 8, 1, 9, 0)).write_rt);  /* msr EOIR0 */
    assert_false(el3_trap_answer(sysreg_esr(3, 0, 12, 8, 0, 31, 1)).write_rt); /* mrs xzr */
    assert_false(el3_trap_answer((uint64_t)0x07 << 26 | 1u << 25).write_rt);    /* FP trap */
    assert_false(el3_trap_answer(0).write_rt);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reading_iar0_gets_spurious_in_its_register),
        cmocka_unit_test(test_other_group0_reads_are_zero),
        cmocka_unit_test(test_writes_xzr_and_other_traps_change_no_register),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
