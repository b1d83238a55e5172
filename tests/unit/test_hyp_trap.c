/* SPDX-License-Identifier: MIT */
/* The Hyp shim's trap decode: every path of an HSR EC 0x24 stage-2 data abort (size,
 * direction, sign extension, target register including the banked sp and lr, the window,
 * undecodable accesses) and the other exception classes. */
#include "expect.h"

#include <string.h>

#include "hyp_abi.h"
#include "hyp_trap.h"

#define BASE 0x09000000u

/* A fake device: remembers the last access, answers reads with a fixed pattern. */
static struct {
    unsigned reads, writes;
    uint32_t offset, value;
    unsigned width;
    uint32_t answer;
} dev;

static uint32_t dev_read(uint32_t offset, unsigned width)
{
    dev.reads++;
    dev.offset = offset;
    dev.width = width;
    return dev.answer;
}

static void dev_write(uint32_t offset, unsigned width, uint32_t value)
{
    dev.writes++;
    dev.offset = offset;
    dev.width = width;
    dev.value = value;
}

static const struct hyp_mmio mmio = {BASE, 0x1000, dev_read, dev_write};

static struct hyp_regs regs;
static struct hyp_stats stats;

static int setup(void **state)
{
    memset(&dev, 0, sizeof(dev));
    memset(&stats, 0, sizeof(stats));
    for (unsigned i = 0; i < 15; i++)
        regs.r[i] = 0x11111111u * i + 0x01020304u;
    return 0;
}

/* An ISV=1 data abort syndrome. */
static uint32_t hsr(unsigned sas, bool sse, unsigned srt, bool write, bool il32)
{
    return HSR_EC_DABT_LOWER << HSR_EC_SHIFT | (il32 ? HSR_IL : 0) | HSR_ISV |
           sas << HSR_SAS_SHIFT | (sse ? HSR_SSE : 0) | srt << HSR_SRT_SHIFT |
           (write ? HSR_WNR : 0) | 0x07u /* translation fault, level 3 */;
}

/* HDFAR (the VA) has only its page offset in common with the IPA. */
static uint32_t trap(uint32_t ipa, uint32_t syndrome)
{
    return hyp_trap(&regs, syndrome, 0xf8000000u | (ipa & 0xfffu), (ipa >> 12) << 4, &mmio, NULL,
                    &stats);
}

static void test_ipa_is_hpfar_shifted_with_the_page_offset_of_hdfar(void **state)
{
    EXPECT_EQ(hyp_fault_ipa(0xc0851018u, 0x00090000u), 0x09000018u);
    EXPECT_EQ(hyp_fault_ipa(0x00000ffcu, 0x0007fff0u), 0x07fffffcu);
    /* the low 4 bits of HPFAR are reserved: ignored */
    EXPECT_EQ(hyp_fault_ipa(0x4u, 0x0009000fu), 0x09000004u);
}

static void test_word_read_lands_in_the_target_register(void **state)
{
    dev.answer = 0xdeadbeefu;
    EXPECT_EQ(trap(BASE + 0x18, hsr(2, false, 3, false, true)), 4);
    EXPECT_EQ(dev.reads, 1);
    EXPECT_EQ(dev.offset, 0x18);
    EXPECT_EQ(dev.width, 4);
    EXPECT_EQ(regs.r[3], 0xdeadbeefu);
    EXPECT_EQ(regs.r[2], 0x11111111u * 2 + 0x01020304u); /* nothing else moved */
    EXPECT_EQ(stats.emulated, 1);
}

static void test_word_write_passes_the_source_register(void **state)
{
    regs.r[7] = 0x12345678u;
    EXPECT_EQ(trap(BASE + 0x0, hsr(2, false, 7, true, true)), 4);
    EXPECT_EQ(dev.writes, 1);
    EXPECT_EQ(dev.reads, 0);
    EXPECT_EQ(dev.value, 0x12345678u);
    EXPECT_EQ(regs.r[7], 0x12345678u);
}

static void test_byte_and_halfword_writes_pass_only_their_width(void **state)
{
    regs.r[1] = 0xabcdef41u;
    trap(BASE + 0x0, hsr(0, false, 1, true, true));
    EXPECT_EQ(dev.width, 1);
    EXPECT_EQ(dev.value, 0x41u);
    trap(BASE + 0x2c, hsr(1, false, 1, true, true));
    EXPECT_EQ(dev.width, 2);
    EXPECT_EQ(dev.value, 0xef41u);
    EXPECT_EQ(dev.offset, 0x2c);
}

static void test_narrow_reads_zero_extend_without_sse(void **state)
{
    dev.answer = 0xffffff90u; /* a device returning more than asked: only width counts */
    trap(BASE + 0x18, hsr(1, false, 0, false, true));
    EXPECT_EQ(regs.r[0], 0xff90u);
    trap(BASE + 0x18, hsr(0, false, 0, false, true));
    EXPECT_EQ(regs.r[0], 0x90u);
}

static void test_narrow_reads_sign_extend_with_sse(void **state)
{
    dev.answer = 0x8090u;
    trap(BASE + 0x18, hsr(1, true, 4, false, true));
    EXPECT_EQ(regs.r[4], 0xffff8090u);
    trap(BASE + 0x18, hsr(0, true, 4, false, true));
    EXPECT_EQ(regs.r[4], 0xffffff90u);
    dev.answer = 0x7f;
    trap(BASE + 0x18, hsr(0, true, 4, false, true));
    EXPECT_EQ(regs.r[4], 0x7fu); /* positive stays positive */
}

static void test_banked_sp_and_lr_are_targets_like_any_other(void **state)
{
    dev.answer = 0x55aa55aau;
    trap(BASE + 0x4, hsr(2, false, 13, false, true));
    EXPECT_EQ(regs.r[13], 0x55aa55aau);
    regs.r[14] = 0xc0801234u;
    trap(BASE + 0x4, hsr(2, false, 14, true, true));
    EXPECT_EQ(dev.value, 0xc0801234u);
    trap(BASE + 0x4, hsr(2, false, 14, false, true));
    EXPECT_EQ(regs.r[14], 0x55aa55aau);
}

static void test_thumb_16_bit_access_advances_by_two(void **state)
{
    EXPECT_EQ(trap(BASE + 0x18, hsr(2, false, 0, false, false)), 2);
    EXPECT_EQ(trap(BASE + 0x18, hsr(2, false, 0, true, false)), 2);
    EXPECT_EQ(stats.emulated, 2);
}

static void test_pc_target_is_ignored_not_branched_to(void **state)
{
    EXPECT_EQ(trap(BASE + 0x18, hsr(2, false, 15, false, true)), 4);
    EXPECT_EQ(dev.reads, 0);
    EXPECT_EQ(stats.ignored, 1);
}

static void test_without_isv_the_access_is_skipped_and_nothing_written(void **state)
{
    struct hyp_regs before = regs;

    EXPECT_EQ(trap(BASE + 0x18, hsr(2, false, 5, false, true) & ~HSR_ISV), 4);
    EXPECT_EQ(dev.reads + dev.writes, 0);
    EXPECT_EQ(memcmp(&before, &regs, sizeof(regs)), 0);
    EXPECT_EQ(stats.ignored, 1);
}

static void test_outside_the_window_reads_as_zero_and_writes_are_dropped(void **state)
{
    regs.r[2] = 0x1234u;
    EXPECT_EQ(trap(0x0e000010u, hsr(2, false, 2, false, true)), 4); /* Secure RAM */
    EXPECT_EQ(regs.r[2], 0);
    EXPECT_EQ(trap(BASE + 0x1000, hsr(2, false, 2, true, true)), 4); /* the next page */
    EXPECT_EQ(trap(BASE - 4, hsr(2, false, 2, true, true)), 4);
    EXPECT_EQ(dev.reads + dev.writes, 0);
    EXPECT_EQ(stats.ignored, 3);
    EXPECT_EQ(stats.emulated, 0);
}

static void test_misaligned_access_is_not_given_to_the_device(void **state)
{
    EXPECT_EQ(trap(BASE + 0x19, hsr(2, false, 2, false, true)), 4);
    EXPECT_EQ(regs.r[2], 0);
    EXPECT_EQ(dev.reads, 0);
}

static void test_hvc_answers_not_supported_without_moving_elr(void **state)
{
    EXPECT_EQ(hyp_trap(&regs, HSR_EC_HVC << HSR_EC_SHIFT | HSR_IL, 0, 0, &mmio, NULL, &stats), 0);
    EXPECT_EQ(regs.r[0], 0xffffffffu);
    EXPECT_EQ(stats.other, 1);
}

static void test_other_classes_are_stepped_over(void **state)
{
    struct hyp_regs before = regs;

    EXPECT_EQ(hyp_trap(&regs, 0x20u << HSR_EC_SHIFT | HSR_IL, 0, 0, &mmio, NULL, &stats), 4);
    EXPECT_EQ(hyp_trap(&regs, 0x01u << HSR_EC_SHIFT, 0, 0, &mmio, NULL, &stats), 2);
    EXPECT_EQ(memcmp(&before, &regs, sizeof(regs)), 0);
    EXPECT_EQ(stats.other, 2);
    EXPECT_EQ(dev.reads + dev.writes, 0);
}

/* --- the debug unit (HDCR.TDE) ------------------------------------------------------ */

static struct {
    unsigned calls;
    uint32_t kind, addr;
    struct hyp_regs *regs;
} seen;

static void debug_event(struct hyp_regs *r, uint32_t kind, uint32_t addr)
{
    seen.calls++;
    seen.kind = kind;
    seen.addr = addr;
    seen.regs = r;
    r->r[0] = 0xfeedf00du; /* fiqmon may rewrite the context */
}

static const struct hyp_debug debug = {debug_event};

static uint32_t debug_trap(uint32_t syndrome, uint32_t hdfar)
{
    memset(&seen, 0, sizeof(seen));
    return hyp_trap(&regs, syndrome, hdfar, 0, &mmio, &debug, &stats);
}

/* A breakpoint or BKPT (prefetch abort, debug event) goes to fiqmon with the context,
 * ELR unmoved (fiqmon sets the pc); the device is not touched. */
static void test_a_breakpoint_is_fiqmons_debug_event(void **state)
{
    (void)state;
    EXPECT_EQ(debug_trap(HSR_EC_PABT_LOWER << HSR_EC_SHIFT | HSR_IL | HSR_FSC_DEBUG, 0), 0u);
    EXPECT_TRUE(seen.calls == 1 && seen.kind == HYP_DEBUG_BREAKPOINT && seen.regs == &regs,
                "one breakpoint event with the context");
    EXPECT_EQ(regs.r[0], 0xfeedf00du);
    EXPECT_TRUE(stats.debug == 1 && stats.emulated == 0 && stats.other == 0, "counted");
    EXPECT_TRUE(dev.reads == 0 && dev.writes == 0, "the device untouched");
}

/* A watchpoint (data abort, debug event) carries the address: never the device's, even
 * inside the emulated window. */
static void test_a_watchpoint_is_fiqmons_with_the_address(void **state)
{
    (void)state;
    uint32_t syndrome = HSR_EC_DABT_LOWER << HSR_EC_SHIFT | HSR_IL | HSR_ISV | HSR_WNR |
                        2u << HSR_SAS_SHIFT | 3u << HSR_SRT_SHIFT | HSR_FSC_DEBUG;
    EXPECT_EQ(debug_trap(syndrome, BASE + 0x18), 0u);
    EXPECT_TRUE(seen.calls == 1 && seen.kind == HYP_DEBUG_WATCHPOINT && seen.addr == BASE + 0x18,
                "a watchpoint event at the address");
    EXPECT_TRUE(dev.reads == 0 && dev.writes == 0 && stats.emulated == 0, "no access made");
}

/* Without the debug hook (a shim built for the console only), a debug-event abort is not
 * an access either: it is stepped over like any other class it does not handle. */
static void test_debug_events_without_a_hook_are_stepped_over(void **state)
{
    (void)state;
    EXPECT_EQ(hyp_trap(&regs, HSR_EC_PABT_LOWER << HSR_EC_SHIFT | HSR_IL | HSR_FSC_DEBUG, 0, 0,
                       &mmio, NULL, &stats),
              4u);
    EXPECT_TRUE(stats.debug == 0 && stats.other == 1, "counted as other");
}

/* The kernel's cp14 accesses: MRC reads 0 into Rt, MRRC into Rt and Rt2, MCR and LDC/STC
 * change nothing; each moves ELR past the instruction (4, or 2 for a 16-bit one: none in
 * cp14, but the length is the syndrome's) and is counted. Rt = 15 (APSR_nzcv) writes
 * nothing. */
static void test_the_kernels_cp14_reads_are_zero_and_writes_dropped(void **state)
{
    struct hyp_regs before;
    (void)state;

    EXPECT_EQ(debug_trap(HSR_EC_CP14_MR << HSR_EC_SHIFT | HSR_IL | HSR_CP_READ |
                             4u << HSR_CP_RT_SHIFT, 0),
              4u);
    EXPECT_EQ(regs.r[4], 0u);
    before = regs;
    EXPECT_EQ(debug_trap(HSR_EC_CP14_MR << HSR_EC_SHIFT | HSR_IL | 5u << HSR_CP_RT_SHIFT, 0),
              4u); /* MCR: dropped */
    EXPECT_TRUE(memcmp(&before, &regs, sizeof(regs)) == 0, "a write changes nothing");
    EXPECT_EQ(debug_trap(HSR_EC_CP14_RR << HSR_EC_SHIFT | HSR_IL | HSR_CP_READ |
                             6u << HSR_CP_RT_SHIFT | 7u << HSR_CP_RT2_SHIFT, 0),
              4u);
    EXPECT_TRUE(regs.r[6] == 0 && regs.r[7] == 0, "MRRC: both zero");
    before = regs;
    EXPECT_EQ(debug_trap(HSR_EC_CP14_MR << HSR_EC_SHIFT | HSR_IL | HSR_CP_READ |
                             15u << HSR_CP_RT_SHIFT, 0),
              4u);
    EXPECT_EQ(debug_trap(HSR_EC_CP14_LS << HSR_EC_SHIFT | HSR_IL | HSR_CP_READ, 0), 4u);
    EXPECT_TRUE(memcmp(&before, &regs, sizeof(regs)) == 0, "APSR_nzcv and LDC: nothing");
    EXPECT_TRUE(stats.cp14 == 5 && seen.calls == 0 && stats.debug == 0, "counted, not events");
}

int main(void)
{
#define T(f) cmocka_unit_test_setup(f, setup)
    const struct CMUnitTest tests[] = {
        T(test_ipa_is_hpfar_shifted_with_the_page_offset_of_hdfar),
        T(test_word_read_lands_in_the_target_register),
        T(test_word_write_passes_the_source_register),
        T(test_byte_and_halfword_writes_pass_only_their_width),
        T(test_narrow_reads_zero_extend_without_sse),
        T(test_narrow_reads_sign_extend_with_sse),
        T(test_banked_sp_and_lr_are_targets_like_any_other),
        T(test_thumb_16_bit_access_advances_by_two),
        T(test_pc_target_is_ignored_not_branched_to),
        T(test_without_isv_the_access_is_skipped_and_nothing_written),
        T(test_outside_the_window_reads_as_zero_and_writes_are_dropped),
        T(test_misaligned_access_is_not_given_to_the_device),
        T(test_hvc_answers_not_supported_without_moving_elr),
        T(test_other_classes_are_stepped_over),
        T(test_a_breakpoint_is_fiqmons_debug_event),
        T(test_a_watchpoint_is_fiqmons_with_the_address),
        T(test_debug_events_without_a_hook_are_stepped_over),
        T(test_the_kernels_cp14_reads_are_zero_and_writes_dropped),
    };

    return cmocka_run_group_tests_name("hyp_trap", tests, NULL, NULL);
}
