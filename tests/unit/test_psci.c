/* SPDX-License-Identifier: MIT */
/* The PSCI state machine (monitor/psci): every call's answer, including the error
 * returns, and the parked CPU's side of CPU_ON, with recording ops instead of hardware. */
#include "expect.h"

#include <setjmp.h>

#include "psci.h"

#define RAM 0x40000000u
#define ENTRY 0x40100000u

static unsigned woken[PSCI_MAX_CPUS], standbys, offs, resets;
static int parked = -1;
static jmp_buf off_jump;

static void wake(unsigned cpu)
{
    woken[cpu]++;
}

static void standby(void)
{
    standbys++;
}

static void cpu_off(unsigned cpu)
{
    parked = (int)cpu;
    longjmp(off_jump, 1); /* it never returns: neither does the real one */
}

static void system_off(void)
{
    offs++;
}

static void system_reset(void)
{
    resets++;
}

static const struct psci_ops ops = {wake, standby, cpu_off, system_off, system_reset, false};
/* an AArch64 kernel's firmware: the SMC64 calls too */
static const struct psci_ops ops64 = {wake, standby, cpu_off, system_off, system_reset, true};

static int setup(void **state)
{
    (void)state;
    memset(woken, 0, sizeof(woken));
    standbys = offs = resets = 0;
    parked = -1;
    psci_init(4, 0, RAM, 0x40000000u, &ops);
    return 0;
}

/* An AArch64 kernel turns CPUs on with the SMC64 calls: 64-bit entry points, checked
 * whole; SMC32 calls see only the low halves of the registers. */
/* An AArch32 kernel cannot make SMC64 calls: the firmware has none (PSCI over SMC32). */
static void test_an_aarch32_kernels_firmware_has_no_smc64_calls(void **state)
{
    (void)state;
    assert_int_equal(psci_call(0, PSCI_FEATURES, PSCI_CPU_ON | PSCI_FID_SMC64, 0, 0),
                     PSCI_NOT_SUPPORTED);
    assert_int_equal(psci_call(0, PSCI_CPU_ON | PSCI_FID_SMC64, 1, ENTRY, 0), PSCI_NOT_SUPPORTED);
    assert_int_equal(psci_call(0, PSCI_AFFINITY_INFO, 1, 0, 0), 1); /* still off */
}

static void test_smc64_cpu_on_takes_64_bit_arguments_and_smc32_the_low_halves(void **state)
{
    uint64_t entry = 0, context = 0;
    (void)state;
    psci_init(4, 0, RAM, 0x40000000u, &ops64);
    assert_int_equal(psci_call(0, PSCI_FEATURES, PSCI_CPU_ON | PSCI_FID_SMC64, 0, 0),
                     PSCI_SUCCESS);
    assert_int_equal(psci_call(0, PSCI_FEATURES, PSCI_SYSTEM_OFF | PSCI_FID_SMC64, 0, 0),
                     PSCI_NOT_SUPPORTED);
    assert_int_equal(psci_call(0, PSCI_VERSION | PSCI_FID_SMC64, 0, 0, 0), PSCI_NOT_SUPPORTED);
    /* an entry point 4 GiB above RAM: not RAM, though its low half is */
    assert_int_equal(psci_call(0, PSCI_CPU_ON | PSCI_FID_SMC64, 1, 0x100000000ull + ENTRY, 0),
                     PSCI_INVALID_ADDRESS);
    assert_int_equal(psci_call(0, PSCI_CPU_ON | PSCI_FID_SMC64, 0x100000001ull, ENTRY, 0),
                     PSCI_INVALID_PARAMETERS);
    assert_int_equal(psci_call(0, PSCI_CPU_ON | PSCI_FID_SMC64, 1, ENTRY, 0x123456789abcull),
                     PSCI_SUCCESS);
    assert_int_equal(psci_call(0, PSCI_AFFINITY_INFO | PSCI_FID_SMC64, 1, 0, 0), 2);
    assert_true(psci_take_on(1, &entry, &context));
    assert_int_equal(entry, ENTRY);
    assert_true(context == 0x123456789abcull);
    /* SMC32: garbage in the upper halves is not the caller's */
    assert_int_equal(psci_call(0, PSCI_CPU_ON, 0xffffffff00000002ull, 0xffffffff00000000ull | ENTRY,
                               0xdead00000001ull),
                     PSCI_SUCCESS);
    assert_true(psci_take_on(2, &entry, &context));
    assert_int_equal(entry, ENTRY);
    assert_true(context == 1);
}

static void test_version_is_1_0_and_migration_is_not_needed(void **state)
{
    (void)state;
    assert_int_equal(psci_call(0, PSCI_VERSION, 0, 0, 0), 0x00010000);
    assert_int_equal(psci_call(0, PSCI_MIGRATE_INFO_TYPE, 0, 0, 0), 2);
}

static void test_features_knows_what_is_implemented_only(void **state)
{
    static const uint32_t have[] = {PSCI_VERSION, PSCI_CPU_SUSPEND, PSCI_CPU_OFF, PSCI_CPU_ON,
                                    PSCI_AFFINITY_INFO, PSCI_MIGRATE_INFO_TYPE,
                                    PSCI_SYSTEM_OFF, PSCI_SYSTEM_RESET, PSCI_FEATURES};
    (void)state;
    for (unsigned i = 0; i < sizeof(have) / sizeof(have[0]); i++)
        assert_int_equal(psci_call(0, PSCI_FEATURES, have[i], 0, 0), PSCI_SUCCESS);
    assert_int_equal(psci_call(0, PSCI_FEATURES, 0x80000000u, 0, 0), PSCI_NOT_SUPPORTED);
    assert_int_equal(psci_call(0, PSCI_FEATURES, 0x84000005u, 0, 0), PSCI_NOT_SUPPORTED);
}

static void test_unknown_function_ids_are_not_supported(void **state)
{
    (void)state;
    assert_true(psci_is_call(0x84000005u) && psci_is_call(0x8400001fu));
    assert_false(psci_is_call(0x84000020u) || psci_is_call(0x83ffffffu));
    assert_int_equal(psci_call(0, 0x84000005u, 0, 0, 0), PSCI_NOT_SUPPORTED); /* MIGRATE */
    assert_int_equal(psci_call(0, 0x8400001fu, 0, 0, 0), PSCI_NOT_SUPPORTED);
}

static void test_cpu_on_wakes_an_off_cpu_which_then_takes_its_entry(void **state)
{
    uint64_t entry = 0, context = 0;
    (void)state;
    assert_int_equal(psci_call(0, PSCI_AFFINITY_INFO, 2, 0, 0), 1); /* OFF */
    assert_false(psci_take_on(2, &entry, &context));
    assert_int_equal(psci_call(0, PSCI_CPU_ON, 2, ENTRY, 0x1234), PSCI_SUCCESS);
    assert_int_equal(woken[2], 1);
    assert_int_equal(psci_call(0, PSCI_AFFINITY_INFO, 2, 0, 0), 2); /* ON_PENDING */
    assert_true(psci_take_on(2, &entry, &context));
    assert_int_equal(entry, ENTRY);
    assert_int_equal(context, 0x1234);
    assert_int_equal(psci_call(0, PSCI_AFFINITY_INFO, 2, 0, 0), 0); /* ON */
    assert_false(psci_take_on(2, &entry, &context));
}

static void test_cpu_on_of_an_on_cpu_is_already_on(void **state)
{
    (void)state;
    assert_int_equal(psci_call(1, PSCI_CPU_ON, 0, ENTRY, 0), PSCI_ALREADY_ON);
    assert_int_equal(psci_call(0, PSCI_CPU_ON, 0, ENTRY, 0), PSCI_ALREADY_ON); /* itself */
    assert_int_equal(woken[0], 0);
}

static void test_cpu_on_twice_before_the_target_runs_is_on_pending(void **state)
{
    (void)state;
    assert_int_equal(psci_call(0, PSCI_CPU_ON, 3, ENTRY, 0), PSCI_SUCCESS);
    assert_int_equal(psci_call(1, PSCI_CPU_ON, 3, ENTRY + 4, 0), PSCI_ON_PENDING);
    assert_int_equal(woken[3], 1);
}

static void test_cpu_on_refuses_bad_targets_and_entry_points(void **state)
{
    (void)state;
    assert_int_equal(psci_call(0, PSCI_CPU_ON, 4, ENTRY, 0), PSCI_INVALID_PARAMETERS);
    assert_int_equal(psci_call(0, PSCI_CPU_ON, 0x101, ENTRY, 0), PSCI_INVALID_PARAMETERS);
    assert_int_equal(psci_call(0, PSCI_CPU_ON, 0x80000001u, ENTRY, 0), PSCI_INVALID_PARAMETERS);
    assert_int_equal(psci_call(0, PSCI_CPU_ON, 1, 0x0e000000u, 0), PSCI_INVALID_ADDRESS);
    assert_int_equal(psci_call(0, PSCI_AFFINITY_INFO, 1, 0, 0), 1); /* still off */
    assert_int_equal(psci_call(0, PSCI_AFFINITY_INFO, 9, 0, 0), PSCI_INVALID_PARAMETERS);
    assert_int_equal(psci_call(0, PSCI_AFFINITY_INFO, 1, 1, 0), PSCI_INVALID_PARAMETERS);
}

static void test_cpu_off_parks_the_caller_and_it_can_come_back(void **state)
{
    uint64_t entry, context;
    (void)state;
    assert_int_equal(psci_call(0, PSCI_CPU_ON, 1, ENTRY, 0), PSCI_SUCCESS);
    assert_true(psci_take_on(1, &entry, &context));
    if (!setjmp(off_jump)) {
        psci_call(1, PSCI_CPU_OFF, 0, 0, 0);
        fail_msg("CPU_OFF returned");
    }
    assert_int_equal(parked, 1);
    assert_int_equal(psci_call(0, PSCI_AFFINITY_INFO, 1, 0, 0), 1);
    assert_int_equal(psci_call(0, PSCI_CPU_ON, 1, ENTRY, 7), PSCI_SUCCESS);
    assert_true(psci_take_on(1, &entry, &context));
    assert_int_equal(context, 7);
}

static void test_cpu_off_of_the_monitors_cpu_is_denied_and_it_stays_on(void **state)
{
    (void)state;
    if (!setjmp(off_jump))
        assert_int_equal(psci_call(0, PSCI_CPU_OFF, 0, 0, 0), PSCI_DENIED);
    assert_int_equal(parked, -1);
    assert_int_equal(psci_call(1, PSCI_AFFINITY_INFO, 0, 0, 0), 0); /* ON */
    assert_int_equal(psci_call(1, PSCI_CPU_ON, 0, ENTRY, 0), PSCI_ALREADY_ON);
}

static void test_cpu_suspend_does_standby_only(void **state)
{
    (void)state;
    assert_int_equal(psci_call(0, PSCI_CPU_SUSPEND, 0, 0, 0), PSCI_SUCCESS);
    assert_int_equal(standbys, 1);
    assert_int_equal(psci_call(0, PSCI_CPU_SUSPEND, 1u << 16, ENTRY, 0), PSCI_INVALID_PARAMETERS);
    assert_int_equal(psci_call(0, PSCI_CPU_SUSPEND, 1u << 24, 0, 0), PSCI_INVALID_PARAMETERS);
    assert_int_equal(standbys, 1);
}

static void test_system_off_and_reset_reach_the_platform(void **state)
{
    (void)state;
    psci_call(0, PSCI_SYSTEM_OFF, 0, 0, 0);
    psci_call(2, PSCI_SYSTEM_RESET, 0, 0, 0);
    assert_int_equal(offs, 1);
    assert_int_equal(resets, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_version_is_1_0_and_migration_is_not_needed, setup),
        cmocka_unit_test_setup(test_features_knows_what_is_implemented_only, setup),
        cmocka_unit_test_setup(test_unknown_function_ids_are_not_supported, setup),
        cmocka_unit_test_setup(test_cpu_on_wakes_an_off_cpu_which_then_takes_its_entry, setup),
        cmocka_unit_test_setup(test_cpu_on_of_an_on_cpu_is_already_on, setup),
        cmocka_unit_test_setup(test_cpu_on_twice_before_the_target_runs_is_on_pending, setup),
        cmocka_unit_test_setup(test_cpu_on_refuses_bad_targets_and_entry_points, setup),
        cmocka_unit_test_setup(test_cpu_off_parks_the_caller_and_it_can_come_back, setup),
        cmocka_unit_test_setup(test_cpu_off_of_the_monitors_cpu_is_denied_and_it_stays_on, setup),
        cmocka_unit_test_setup(test_cpu_suspend_does_standby_only, setup),
        cmocka_unit_test_setup(test_system_off_and_reset_reach_the_platform, setup),
        cmocka_unit_test_setup(test_smc64_cpu_on_takes_64_bit_arguments_and_smc32_the_low_halves,
                               setup),
        cmocka_unit_test_setup(test_an_aarch32_kernels_firmware_has_no_smc64_calls, setup),
    };
    return cmocka_run_group_tests_name("psci", tests, NULL, NULL);
}
