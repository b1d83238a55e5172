/* SPDX-License-Identifier: MIT */
/* ps, lsmod and the task_struct discovery behind them, on the fixture kernel's tasks in a
 * layout of its own (task_fixture.h): every offset found, the listing, a list torn under
 * the walk, and a kernel where a step cannot be validated (the error names the step). */
#include "expect.h"

#include <stdio.h>

#include "cmd_tasks.h"
#include "fake_port.h"
#include "kallsyms.h"
#include "kernel_fixture.h"
#include "kmodule.h"
#include "ktask.h"
#include "task_fixture.h"
#include "vmcoreinfo.h"

static int setup(void **state)
{
    tfix_build();
    return 0;
}

static const char *run(int (*cmd)(int, char **), const char *arg)
{
    char a0[] = "cmd", a1[16];
    char *argv[] = {a0, a1, NULL};

    snprintf(a1, sizeof(a1), "%s", arg ? arg : "");
    fake_output_reset();
    cmd(arg ? 2 : 1, argv);
    return fake_output_text();
}

static void test_discovery_finds_every_field(void **state)
{
    const struct vmci *v = kernel_vmcoreinfo(true);

    EXPECT_TRUE(v && ksyms_ready(v), "fixture kernel");
    EXPECT_EQ(ktask_discover(), KT_STEPS);
    EXPECT_EQ(ktl.at[KT_INIT_TASK], tfix_task(0)); /* not the decoy loaded first */
    EXPECT_EQ(ktl.at[KT_STACK], TFIX_OFF_STACK);
    EXPECT_EQ(ktl.at[KT_COMM], TFIX_OFF_COMM);
    EXPECT_EQ(ktl.at[KT_TASKS], TFIX_OFF_TASKS);
    EXPECT_EQ(ktl.at[KT_PID], TFIX_OFF_PID);
    EXPECT_EQ(ktl.at[KT_PARENT], TFIX_OFF_PARENT);
    EXPECT_EQ(ktl.at[KT_MM], TFIX_OFF_MM);
    EXPECT_EQ(ktl.at[KT_STATE], TFIX_OFF_STATE);
    EXPECT_EQ(ktl.at[KT_ON_CPU], TFIX_OFF_ON_CPU);
    EXPECT_EQ(ktl.at[KT_CONTEXT], TFIX_OFF_CONTEXT);
    EXPECT_EQ(ktl.at[KT_THREADS], TFIX_OFF_THREADS);
    EXPECT_EQ(ktl.ring, 5);
    EXPECT_TRUE(kmodule_discover(), "modules head");
    EXPECT_EQ(kml.head, TFIX_MODULES_HEAD);
    EXPECT_EQ(kml.core, TFIX_OFF_CORE);
    EXPECT_EQ(kml.count, 2);
}

static void test_ps_lists_tasks_and_threads(void **state)
{
    static const char leaders[] = "  PID  PPID S C COMMAND\n"
                                  "    0     0 R   [swapper/0]\n"
                                  "    1     0 S   init\n"
                                  "    2     0 S   [kthreadd]\n"
                                  "    3     2 I   [kworker/0:1]\n"
                                  "   10     1 S   sleepy\n"
                                  "   11     1 R * spinner\n";

    EXPECT_STR_EQ(run(cmd_ps, NULL), leaders);
    EXPECT_CONTAINS(run(cmd_ps, "-t"), "   10     1 S   sleepy\n   12     1 S   sleepy\n"
                                       "   11     1 R * spinner\n");
    EXPECT_CONTAINS(run(cmd_ps, "-l"), "thread_node +600  ");
    EXPECT_STR_EQ(run(cmd_ps, "-x"), "error: usage: ps [-t|-l]\n");
    EXPECT_STR_EQ(run(cmd_lsmod, NULL), "Module                   Size State     Address\n"
                                        "crc7                     8192 Live      c0340000\n"
                                        "crc8                     8192 Live      c0342000\n");
}

static void test_a_torn_list_gives_a_partial_result(void **state)
{
    EXPECT_CONTAINS(run(cmd_ps, NULL), "spinner"); /* found and kept */
    /* sleepy's next link no longer comes back: the list changed under the walk */
    kfix_w32(tfix_task(5) + TFIX_OFF_TASKS + 4, 0xc0300000u);
    EXPECT_STR_EQ(run(cmd_ps, NULL), "  PID  PPID S C COMMAND\n"
                                     "    0     0 R   [swapper/0]\n"
                                     "    1     0 S   init\n"
                                     "    2     0 S   [kthreadd]\n"
                                     "    3     2 I   [kworker/0:1]\n"
                                     "   10     1 S   sleepy\n"
                                     "ps: partial list: a link failed its check: the list "
                                     "changed under us\n");
    /* a module whose name is not a name: after discovery, a partial list; before, no list */
    EXPECT_CONTAINS(run(cmd_lsmod, NULL), "crc8 ");
    fake_mem_write(TFIX_MODULE_CORE + 0x100c, "\x01", 1);
    EXPECT_CONTAINS(run(cmd_lsmod, NULL), "lsmod: partial list");
    kernel_vmcoreinfo_forget();
    EXPECT_STR_EQ(run(cmd_lsmod, NULL), "error: cannot find the module list (module_get_kallsym)\n");
}

static void test_a_step_that_cannot_be_validated_is_named(void **state)
{
    /* init_task's name is not swapper: no candidate passes */
    fake_mem_write(tfix_task(0) + TFIX_OFF_COMM, "swapped", 7);
    EXPECT_STR_EQ(run(cmd_ps, NULL), "error: cannot find task_struct layout (init_task)\n");
    tfix_build();
    /* kthreadd's pid is not 2: pids are no longer 0, 1, 2... */
    kfix_w32(tfix_task(2) + TFIX_OFF_PID, 7);
    EXPECT_STR_EQ(run(cmd_ps, NULL), "error: cannot find task_struct layout (pid)\n");
    tfix_build();
    /* no task is on a CPU */
    kfix_w32(tfix_task(5) + TFIX_OFF_ON_CPU, 0);
    EXPECT_STR_EQ(run(cmd_ps, NULL), "error: cannot find task_struct layout (on_cpu)\n");
    tfix_build();
    /* a thread in sleepy's group with another tgid: thread_node fails, ps still works */
    kfix_w32(tfix_task(6) + TFIX_OFF_PID + 4, 11);
    EXPECT_CONTAINS(run(cmd_ps, NULL), "   11     1 R * spinner\n");
    EXPECT_STR_EQ(run(cmd_ps, "-t"), "error: cannot find task_struct layout (thread_node)\n");
}

static void test_state_letters_follow_the_kernel(void **state)
{
    EXPECT_EQ(ktask_state_letter(0), 'R');
    EXPECT_EQ(ktask_state_letter(1), 'S');
    EXPECT_EQ(ktask_state_letter(2), 'D');
    EXPECT_EQ(ktask_state_letter(0x402), 'I');
    EXPECT_EQ(ktask_state_letter(4), 'T');
    EXPECT_EQ(ktask_state_letter(8), 't');
    EXPECT_EQ(ktask_state_letter(0x40), 'P');
    EXPECT_EQ(ktask_state_letter(0x80), 'Z');
    EXPECT_EQ(ktask_state_letter(0x102), 'D'); /* TASK_KILLABLE */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_discovery_finds_every_field, setup),
        cmocka_unit_test_setup(test_ps_lists_tasks_and_threads, setup),
        cmocka_unit_test_setup(test_a_torn_list_gives_a_partial_result, setup),
        cmocka_unit_test_setup(test_a_step_that_cannot_be_validated_is_named, setup),
        cmocka_unit_test(test_state_letters_follow_the_kernel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
