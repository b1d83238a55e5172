/* SPDX-License-Identifier: MIT */
/* The task and module layouts read from a kernel's BTF (monitor/linux/ktask_btf.c), on
 * the fixture kernel as arm64 shows it (btf_fixture.h): every offset the kernel's own,
 * init_task found from the running task or from show_state_filter's code, the walks of
 * ktask.h and kmodule.h on that layout, and each thing that can be missing named. */
#include "expect.h"

#include <stdio.h>

#include "btf.h"
#include "btf_fixture.h"
#include "fake_port.h"
#include "kallsyms.h"
#include "kernel_fixture.h"
#include "kmodule.h"
#include "ktask.h"
#include "ktask_btf.h"
#include "task_fixture.h"
#include "vmcoreinfo.h"

static void kernel(enum bfix_code code, const char *const rename[2])
{
    const struct vmci *v;

    bfix_build_kernel(code, rename);
    v = kernel_vmcoreinfo(true);
    EXPECT_TRUE(v && ksyms_ready(v), "fixture kernel with symbols");
}

static int setup(void **state)
{
    kernel(BFIX_CODE_GOT, NULL);
    return 0;
}

static void test_every_offset_is_the_kernels_own(void **state)
{
    EXPECT_EQ(ktask_btf_discover(tfix_task(5)), KT_STEPS);
    EXPECT_STR_EQ(ktask_btf_missing, "");
    EXPECT_EQ(ktl.at[KT_INIT_TASK], tfix_task(0));
    EXPECT_STR_EQ(ktask_btf_init_how, "real_parent chain from the running task");
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
    EXPECT_EQ(ktl.context_fp, 28);
    EXPECT_EQ(ktl.context_sp, 32);
    EXPECT_EQ(ktl.context_pc, 36);
    EXPECT_EQ(ktl.ring, 5);
}

static void test_init_task_is_found_from_any_task_or_from_the_code(void **state)
{
    /* from the thread (its parent init, then init_task) */
    EXPECT_EQ(ktask_btf_discover(tfix_task(6)), KT_STEPS);
    EXPECT_EQ(ktl.at[KT_INIT_TASK], tfix_task(0));
    /* from init_task itself (the idle task runs) */
    kernel_vmcoreinfo_forget();
    kernel(BFIX_CODE_GOT, NULL);
    EXPECT_EQ(ktask_btf_discover(tfix_task(0)), KT_STEPS);
    EXPECT_EQ(ktl.at[KT_INIT_TASK], tfix_task(0));
    /* nothing running in the kernel (user mode), or SP_EL0 a user stack pointer: the
     * code's address (after its decoy) */
    static const uint32_t not_tasks[] = {0, 0x0000fffcu, TFIX_STACKS + 0x100};
    for (unsigned i = 0; i < 3; i++) {
        kernel_vmcoreinfo_forget();
        kernel(BFIX_CODE_GOT, NULL);
        EXPECT_EQ(ktask_btf_discover(not_tasks[i]), KT_STEPS);
        EXPECT_EQ(ktl.at[KT_INIT_TASK], tfix_task(0));
        EXPECT_STR_EQ(ktask_btf_init_how, "show_state_filter");
    }
}

static bool line(const struct ktask *t, void *arg)
{
    char *out = arg;
    size_t n = strlen(out);

    snprintf(out + n, 512 - n, "%u %u %c %s%s|", (unsigned)t->pid, (unsigned)t->ppid,
             ktask_state_letter(t->state), t->comm, t->on_cpu ? "*" : "");
    return true;
}

static void test_the_walks_read_the_tasks_with_that_layout(void **state)
{
    char out[512] = "";

    EXPECT_EQ(ktask_btf_discover(tfix_task(5)), KT_STEPS);
    EXPECT_EQ(ktask_walk(true, line, out), KT_WALK_DONE);
    EXPECT_STR_EQ(out, "0 0 R swapper/0|1 0 S init|2 0 S kthreadd|3 2 I kworker/0:1|"
                       "10 1 S sleepy|12 1 S sleepy|11 1 R spinner*|");
}

static bool module_line(const struct kmodule *m, void *arg)
{
    char *out = arg;
    size_t n = strlen(out);

    snprintf(out + n, 256 - n, "%s %u %s %x|", m->name, (unsigned)m->size,
             kmodule_state_name(m->state), (unsigned)m->base);
    return true;
}

static void test_modules_with_sizes_as_proc_modules_adds_them(void **state)
{
    char out[256] = "";
    uint32_t crc8 = TFIX_MODULE_CORE + 0x3000u;

    /* crc8 still loading: its init_layout is there too, and counts */
    kfix_w32(crc8, 1);
    kfix_w32(crc8 + BFIX_INIT_LAYOUT + 4, 0x1000);
    EXPECT_TRUE(kmodule_btf_discover(), "modules");
    EXPECT_STR_EQ(kmodule_btf_how, "module_get_kallsym");
    EXPECT_EQ(kml.head, TFIX_MODULES_HEAD);
    EXPECT_EQ(kml.count, 2);
    EXPECT_EQ(kml.list, 4);
    EXPECT_EQ(kml.name, 12);
    EXPECT_EQ(kml.name_len, 60);
    EXPECT_EQ(kml.core, TFIX_OFF_CORE);
    EXPECT_EQ(kml.sizes, 2);
    EXPECT_TRUE(kmodule_walk(module_line, out), "whole list");
    EXPECT_STR_EQ(out, "crc7 8192 Live c0340000|crc8 12288 Loading c0342000|");
}

static void test_what_is_missing_is_named(void **state)
{
    static const struct {
        const char *from, *to;
        unsigned found;
        const char *missing;
    } cases[] = {
        {"on_cpu", "on_cpX", KT_ON_CPU, "on_cpu"},
        {"tgid", "tgiX", KT_PID, "tgid"},
        {"pc", "lr", KT_CONTEXT, "thread.cpu_context.pc"},
        {"thread_node", "thread_nodX", KT_THREADS, "thread_node"},
        {"task_struct", "task_strucX", KT_STACK, "struct task_struct"},
    };

    for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const char *const rename[2] = {cases[i].from, cases[i].to};
        kernel_vmcoreinfo_forget();
        kernel(BFIX_CODE_GOT, rename);
        EXPECT_EQ(ktask_btf_discover(tfix_task(5)), cases[i].found);
        EXPECT_STR_EQ(ktask_btf_missing, cases[i].missing);
    }
    /* without the thread list the rest works (ps, bt; not ps -t) */
    kernel_vmcoreinfo_forget();
    {
        const char *const rename[2] = {"thread_node", "thread_nodX"};
        kernel(BFIX_CODE_GOT, rename);
    }
    EXPECT_EQ(ktask_btf_discover(tfix_task(5)), KT_THREADS);
    EXPECT_EQ(ktl.at[KT_INIT_TASK], tfix_task(0));
    /* init_task's name is not swapper's: not init_task, from the chain or the code */
    kernel_vmcoreinfo_forget();
    kernel(BFIX_CODE_GOT, NULL);
    fake_mem_write(tfix_task(0) + TFIX_OFF_COMM, "swapped", 7);
    EXPECT_EQ(ktask_btf_discover(tfix_task(5)), KT_INIT_TASK);
    EXPECT_STR_EQ(ktask_btf_missing, "init_task");
    /* no BTF at all */
    kernel_vmcoreinfo_forget();
    kernel(BFIX_CODE_GOT, NULL);
    kfix_w32(BFIX_BTF, 0);
    EXPECT_EQ(ktask_btf_discover(tfix_task(5)), KT_INIT_TASK);
    EXPECT_STR_EQ(ktask_btf_missing, "no BTF");
    EXPECT_TRUE(!kmodule_btf_discover(), "no modules without BTF");
}

static void test_a_modules_head_that_is_no_list_is_not_taken(void **state)
{
    /* the head's ring broken: neither candidate module_get_kallsym computes is a list */
    kfix_w32(TFIX_MODULES_HEAD + 4, 0x1234);
    EXPECT_TRUE(!kmodule_btf_discover(), "no head");
    EXPECT_STR_EQ(ktask_btf_missing, "the modules list");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_every_offset_is_the_kernels_own, setup),
        cmocka_unit_test_setup(test_init_task_is_found_from_any_task_or_from_the_code, setup),
        cmocka_unit_test_setup(test_the_walks_read_the_tasks_with_that_layout, setup),
        cmocka_unit_test_setup(test_modules_with_sizes_as_proc_modules_adds_them, setup),
        cmocka_unit_test_setup(test_what_is_missing_is_named, setup),
        cmocka_unit_test_setup(test_a_modules_head_that_is_no_list_is_not_taken, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
