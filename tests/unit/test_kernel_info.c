/* SPDX-License-Identifier: MIT */
/* kmsg, sym, bt and the Linux lines of version, pc and regs, as the shell runs them (knocked
 * monitor, saved frame), on the fixture kernel and on a machine without one. */
#include "expect.h"

#include <stdio.h>

#include "command.h"
#include "fake_port.h"
#include "kernel_fixture.h"
#include "knock.h"
#include "fiqmon_features.h"
#include "monitor.h"
#include "vmcoreinfo.h"

#define FN_A 0xc0009000u
#define FN_B 0xc0009100u
#define END 0xc000a000u

static struct cpu_frame frame;

static const struct kfix_sym syms[] = {
    {KFIX_STEXT, 'T', "_stext"},
    {FN_A, 'T', "kernel_init"},
    {FN_B, 't', "panic"},
    {END, 'T', "_einittext"},
};

/* One FIQ carrying these bytes. */
static void fiq(const char *bytes)
{
    for (const char *c = bytes; *c; c++)
        ring_put(&mon_rx, (uint8_t)*c);
    if (monitor_fiq_fast(true))
        monitor_fiq_full(&frame);
}

/* Runs a command line in the knocked shell; returns its output without echo and prompt. */
static const char *run(const char *line)
{
    static char out[16384];
    char cmd[128];
    const char *o, *start, *end;

    fake_output_reset();
    snprintf(cmd, sizeof(cmd), "%s\r", line);
    fiq(cmd);
    o = fake_output_text();
    start = strchr(o, '\n');
    start = start ? start + 1 : o;
    end = strstr(start, "fiqmon> ");
    snprintf(out, sizeof(out), "%.*s", (int)(end ? end - start : (long)strlen(start)), start);
    return out;
}

/* The build's features with a permission mask the test sets (lockdown's own states are
 * tested in test_lockdown.c). */
static uint32_t test_permissions = CMD_ALL_PERMISSIONS;

static uint32_t permissions(void)
{
    return test_permissions;
}

static struct monitor_features features;

static void enter(uint32_t world)
{
    features = fiqmon_features;
    features.permissions = permissions;
    monitor_init(KNOCK_MODE_RETURN, &features);
    memset(&frame, 0, sizeof(frame));
    frame.cpsr = ARM_MODE_SVC | ARM_PSR_I;
    frame.world = world;
    frame.pc = FN_B + 0x10;
    frame.svc.lr = FN_A + 0x24;
    frame.svc.sp = KFIX_STACK_BASE + 0x1f00;
    kfix_w32(FN_A + 0x20, 0xebfffff0); /* a call before the return address */
    fiq("\r");
    EXPECT_CONTAINS(fake_output_text(), "fiqmon> ");
}

static int setup_kernel(void **state)
{
    kfix_reset();
    kfix_kernel();
    kfix_kallsyms(syms, sizeof(syms) / sizeof(syms[0]), KFIX_MARKERS_BEFORE_SEQS);
    kfix_ring_add(1500000000ull, "Kernel panic - not syncing: VFS: Unable to mount root fs");
    kfix_ring_add(1600000000ull, "---[ end Kernel panic ]---");
    kfix_publish();
    enter(FRAME_WORLD_NORMAL);
    return 0;
}

static int setup_no_kernel(void **state)
{
    kfix_reset();
    enter(FRAME_WORLD_SECURE);
    return 0;
}

static void test_kmsg_prints_the_log(void **state)
{
    EXPECT_STR_EQ(run("kmsg"),
                  "[    1.500000] Kernel panic - not syncing: VFS: Unable to mount root fs\n"
                  "[    1.600000] ---[ end Kernel panic ]---\n");
    EXPECT_STR_EQ(run("kmsg 1"), "[    1.600000] ---[ end Kernel panic ]---\n");
    EXPECT_STR_EQ(run("kmsg x"), "error: bad count 'x': not a number\n");
    EXPECT_STR_EQ(run("kmsg 1 2"), "error: usage: kmsg [N]\n");
}

static void test_sym_goes_both_ways(void **state)
{
    EXPECT_STR_EQ(run("sym c0009124"), "c0009124 panic+0x24/0xf00\n");
    EXPECT_STR_EQ(run("sym panic"), "c0009100 panic+0x0/0xf00\n");
    EXPECT_STR_EQ(run("sym kernel_init"), "c0009000 kernel_init+0x0/0x100\n");
    EXPECT_STR_EQ(run("sym 0x1000"), "error: 00001000 is not in the kernel's code\n");
    EXPECT_STR_EQ(run("sym no_such_fn"), "error: no symbol 'no_such_fn'\n");
    EXPECT_STR_EQ(run("sym add"), "error: no symbol 'add'\n"); /* hex digits, still a name */
    EXPECT_STR_EQ(run("sym"), "error: usage: sym ADDR|NAME\n");
}

static void test_bt_unwinds_or_says_how_it_guessed(void **state)
{
    /* no unwind tables in this fixture: the labelled scan */
    EXPECT_STR_EQ(run("bt"), "bt: heuristic stack scan (no unwind tables found): return "
                             "addresses found on the stack, stale ones too\n"
                             "#0  c0009110 panic+0x10/0xf00 (pc)\n"
                             "#1  c0009024 kernel_init+0x24/0x100 (lr)\n");
    EXPECT_STR_EQ(run("bt -x"), "error: usage: bt [-s|-t|-a|PID]\n");
    /* this fixture kernel has no tasks to find */
    EXPECT_STR_EQ(run("bt 1"), "error: cannot find task_struct layout (init_task)\n");
}

static void test_version_names_the_kernel(void **state)
{
    EXPECT_TRUE(ends_with(run("version"), "linux " KFIX_RELEASE " " KFIX_VERSION "\n"), "%s",
                run("version"));
}

static void test_pc_and_regs_add_symbols_and_keep_their_tokens(void **state)
{
    const char *pc = run("pc");
    EXPECT_TRUE(starts_with(pc, "pc=c0009110 cpsr="), "%s", pc);
    EXPECT_TRUE(ends_with(pc, "\npc: panic+0x10/0xf00\n"), "%s", pc);
    const char *regs = run("regs");
    EXPECT_CONTAINS(regs, "lr=c0009024 pc=c0009110\n");
    EXPECT_TRUE(ends_with(regs, "\npc: panic+0x10/0xf00\nlr: kernel_init+0x24/0x100\n"), "%s",
                regs);
}

static void test_without_a_kernel_each_command_is_one_error(void **state)
{
    EXPECT_STR_EQ(run("kmsg"), "error: no Linux kernel found\n");
    EXPECT_STR_EQ(run("sym panic"), "error: no Linux kernel found\n");
    EXPECT_STR_EQ(run("sym c0009000"), "error: no Linux kernel found\n");
    EXPECT_STR_EQ(run("bt"), "error: no Linux kernel found\n");
    EXPECT_TRUE(ends_with(run("version"), "\nlinux: none found\n"), "%s", run("version"));
}

static void test_without_a_kernel_pc_and_regs_do_not_search(void **state)
{
    unsigned before = fake.space_accesses[PORT_MEM_PHYSICAL];
    EXPECT_NOT_CONTAINS(run("pc"), "pc: ");
    EXPECT_NOT_CONTAINS(run("regs"), "lr: ");
    EXPECT_EQ(fake.space_accesses[PORT_MEM_PHYSICAL] - before, 0);
}

static void test_a_locked_shell_reads_nothing_of_the_kernel(void **state)
{
    test_permissions = CMD_READS_REGS;
    EXPECT_STR_EQ(run("kmsg"), "error: 'kmsg' is not permitted now\n");
    EXPECT_NOT_CONTAINS(run("version"), "linux");
    EXPECT_NOT_CONTAINS(run("pc"), "pc: ");
    test_permissions = CMD_ALL_PERMISSIONS;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_kmsg_prints_the_log, setup_kernel),
        cmocka_unit_test_setup(test_sym_goes_both_ways, setup_kernel),
        cmocka_unit_test_setup(test_bt_unwinds_or_says_how_it_guessed, setup_kernel),
        cmocka_unit_test_setup(test_version_names_the_kernel, setup_kernel),
        cmocka_unit_test_setup(test_pc_and_regs_add_symbols_and_keep_their_tokens, setup_kernel),
        cmocka_unit_test_setup(test_without_a_kernel_each_command_is_one_error, setup_no_kernel),
        cmocka_unit_test_setup(test_without_a_kernel_pc_and_regs_do_not_search, setup_no_kernel),
        cmocka_unit_test_setup(test_a_locked_shell_reads_nothing_of_the_kernel, setup_kernel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
