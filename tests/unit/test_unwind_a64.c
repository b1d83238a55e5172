// SPDX-License-Identifier: MIT
/* AArch64 return addresses lose their pointer-authentication code (unwind_a64.c; the
 * helper is portable: the 32-bit host build has it too). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "unwind_a64.h"

static void test_pac_bits_are_stripped_from_kernel_addresses_only(void **state)
{
    (void)state;
    /* a signed return address into the kernel: PAC in bits 63-56 and 54-48 (48-bit VAs,
     * no top-byte ignore for kernel addresses), bit 55 kept */
    assert_true(unwind_a64_strip_pac(0x3aa5d7dc6166cc00ull, 48) == 0xffffd7dc6166cc00ull);
    assert_true(unwind_a64_strip_pac(0xffffb9d7dd2fd3acull, 48) == 0xffffb9d7dd2fd3acull);
    /* 52-bit VAs keep bits 51-48 */
    assert_true(unwind_a64_strip_pac(0x00abcd123456789aull, 52) == 0xfffbcd123456789aull);
    assert_true(unwind_a64_strip_pac(0x00abcd123456789aull, 48) == 0xffffcd123456789aull);
    /* a user address (bit 55 clear) is left alone */
    assert_true(unwind_a64_strip_pac(0x0012000000401000ull, 48) == 0x0012000000401000ull);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pac_bits_are_stripped_from_kernel_addresses_only),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
