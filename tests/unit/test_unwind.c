/* SPDX-License-Identifier: MIT */
/* Backtraces: the .ARM.exidx found among decoys, every unwind instruction the kernel's
 * unwinder executes, inline and .ARM.extab entries, the end of the chain, and traces that
 * must stop (refusals, faults, loops); frame #0 stopped before or inside its prologue
 * (also where the linker merged its table entry into a neighbour's), and in an exception
 * entry; the heuristic stack scan. */
#include "expect.h"

#include <stdio.h>

#include "fake_port.h"
#include "kallsyms.h"
#include "kernel_fixture.h"
#include "unwind.h"
#include "vmcoreinfo.h"

#define ROOT 0xc0009000u    /* cannot unwind (like ret_from_fork) */
#define BIG 0xc0009100u     /* .ARM.extab: pop r0-r1, vsp += 0x408, vsp -= 4, pop r4, lr */
#define FP 0xc0009200u      /* vsp = r11; pop {r11, lr} */
#define MID 0xc0009300u     /* vsp += 8; pop {r4, r5, lr} */
#define LEAF 0xc0009400u    /* finish: pc = lr */
#define REFUSE 0xc0009500u  /* "refuse to unwind" */
#define VFP 0xc0009600u     /* a VFP pop: not in kernel code */
#define LOOP 0xc0009700u    /* pop {r4, lr}, returning into itself */
#define FILLERS 0xc0009800u /* 1200 more functions, 4 bytes each */
#define NFILL 1200u
/* after the fillers: prologues as Debian's kernel has them (ftrace's push {lr} and its
 * nop, add sp, sp, #4) */
#define PUSHY 0xc000ac00u  /* push {r4-r11, lr}; sub sp, #12; push {lr}; add sp, #4 */
#define MERGED 0xc000ac80u /* the same, and so no table entry of its own (ld merges it) */
#define SHRINK 0xc000ad00u /* pop {lr}, pushed only after an early return (shrink-wrap) */
#define SPIN 0xc000ad80u   /* pop {lr} too, a loop before the push */
#define MRS 0xc000adc0u    /* pop {r4, lr}: irqs_disabled() and an early return first */
#define EXC 0xc000ae00u    /* pops r0-pc: an exception entry like __irq_svc */
#define LAST 0xc000b000u /* _einittext */
#define NFNS (8 + NFILL + 5)

#define SP0 0xf0803400u /* the interrupted sp (second stack, top 0xf0804000) */

static uint32_t regs[16];

static const struct kfix_sym syms[] = {
    {KFIX_STEXT, 'T', "_stext"}, {ROOT, 'T', "ret_from_fork"}, {BIG, 't', "big_fn"},
    {FP, 't', "fp_fn"},          {MID, 't', "mid_fn"},         {LEAF, 't', "leaf_fn"},
    {REFUSE, 't', "refuse_fn"},  {VFP, 't', "vfp_fn"},         {LOOP, 't', "loop_fn"},
    {FILLERS, 't', "fillers"},   {0xc000a000u, 'D', "_etext"}, {PUSHY, 't', "pushy_fn"},
    {MERGED, 't', "merged_fn"},  {SHRINK, 't', "shrink_fn"},   {SPIN, 't', "spin_fn"},
    {MRS, 't', "mrs_fn"},
    {EXC, 't', "exc_entry"},     {LAST, 'T', "_einittext"},
};

static uint32_t exidx_end;

static void build_exidx(uint32_t at)
{
    static struct kfix_fn fns[NFNS];
    unsigned n = 0;

    fns[n++] = (struct kfix_fn){ROOT, NULL, 0, true};
    fns[n++] = (struct kfix_fn){BIG, "\xb1\x03\xb2\x81\x01\x40\xa8\xb0", 8, false};
    fns[n++] = (struct kfix_fn){FP, "\x9b\x84\x80", 3, false};
    fns[n++] = (struct kfix_fn){MID, "\x01\xa9", 2, false};
    fns[n++] = (struct kfix_fn){LEAF, "\xb0", 1, false};
    fns[n++] = (struct kfix_fn){REFUSE, "\x80\x00", 2, false};
    fns[n++] = (struct kfix_fn){VFP, "\xc8\x01", 2, false};
    fns[n++] = (struct kfix_fn){LOOP, "\xa8", 1, false};
    for (unsigned i = 0; i < NFILL; i++)
        fns[n++] = (struct kfix_fn){FILLERS + 4 * i, "\xb0", 1, false};
    fns[n++] = (struct kfix_fn){PUSHY, "\x02\xaf", 2, false}; /* vsp += 12; pop r4-r11, lr */
    fns[n++] = (struct kfix_fn){SHRINK, "\x84\x00", 2, false}; /* pop {lr} */
    fns[n++] = (struct kfix_fn){SPIN, "\x84\x00", 2, false};
    fns[n++] = (struct kfix_fn){MRS, "\xa8", 1, false}; /* pop {r4, lr} */
    fns[n++] = (struct kfix_fn){EXC, "\xb1\x0f\x8f\xff", 4, false}; /* pop r0-r3, r4-pc */
    exidx_end = kfix_exidx(at, fns, n);
}

/* The stack of the chain LEAF <- MID <- FP <- BIG <- ROOT, and BL instructions before
 * each return address (for the heuristic scan). */
static void build_chain(void)
{
    uint32_t sp = SP0, f;

    for (unsigned i = 0; i < 16; i++)
        regs[i] = 0x1000 * i + i;
    regs[15] = LEAF + 0x10;
    regs[14] = MID + 0x24;
    regs[13] = sp;
    /* MID: 8 bytes, then r4, r5, lr */
    kfix_w32(sp + 0, 0x11111111);
    kfix_w32(sp + 4, LEAF + 0x8); /* a code address, but no call before it: not a frame */
    kfix_w32(sp + 8, 0x44440001);
    kfix_w32(sp + 12, 0x55550001);
    kfix_w32(sp + 16, FP + 0x30);
    sp += 20;
    /* FP: vsp = r11 -> {r11, lr} */
    f = sp + 0x20;
    regs[11] = f;
    kfix_w32(f, 0xbbbb0001);
    kfix_w32(f + 4, BIG + 0x44);
    sp = f + 8;
    /* BIG: r0, r1; vsp += 0x408; vsp -= 4; r4, lr */
    kfix_w32(sp, 0x00000a00);
    kfix_w32(sp + 4, 0x00000a01);
    sp += 8 + 0x408 - 4;
    kfix_w32(sp, 0x44440002);
    kfix_w32(sp + 4, ROOT + 0x14);
    /* calls before every return address */
    kfix_w32(MID + 0x20, 0xebfffff0);
    kfix_w32(FP + 0x2c, 0xeb000010);
    kfix_w32(BIG + 0x40, 0xe12fff33);  /* blx r3 */
    kfix_w32(ROOT + 0x10, 0xfa000001); /* blx to Thumb */
    /* the prologues the tables describe */
    kfix_w32(MID, 0xe92d4030);     /* push {r4, r5, lr} */
    kfix_w32(MID + 4, 0xe24dd008); /* sub sp, sp, #8 */
    kfix_w32(LOOP, 0xe92d4010);    /* push {r4, lr} */
    for (uint32_t fn = PUSHY; fn <= MERGED; fn += MERGED - PUSHY) {
        kfix_w32(fn, 0xe92d4ff0);      /* push {r4-r11, lr} */
        kfix_w32(fn + 4, 0xe24dd00c);  /* sub sp, sp, #12 */
        kfix_w32(fn + 8, 0xe52de004);  /* push {lr} */
        kfix_w32(fn + 12, 0xe28dd004); /* add sp, sp, #4 (ftrace's nop) */
        kfix_w32(fn + 16, 0xe3003000); /* movw r3, #0 */
        kfix_w32(fn + 20, 0xe1a04000); /* mov r4, r0 */
        kfix_w32(fn + 24, 0xe0c1e007); /* sbc lr, r1, r7 (lr as scratch, once saved) */
    }
    kfix_w32(SHRINK, 0xe5903000);      /* ldr r3, [r0] */
    kfix_w32(SHRINK + 4, 0xe3530000);  /* cmp r3, #0 */
    kfix_w32(SHRINK + 8, 0x0a00000e);  /* beq SHRINK + 0x48 */
    kfix_w32(SHRINK + 12, 0xe5932000); /* ldr r2, [r3] */
    kfix_w32(SHRINK + 16, 0x112fff1e); /* bxne lr */
    kfix_w32(SHRINK + 20, 0xe52de004); /* push {lr} */
    kfix_w32(SPIN, 0xe5903000);        /* ldr r3, [r0] */
    kfix_w32(SPIN + 4, 0xe3530000);    /* cmp r3, #0 */
    kfix_w32(SPIN + 8, 0x1afffffc);    /* bne SPIN */
    /* irq_work_run_list in Debian's 6.1 kernel: the halt that found the old hole */
    kfix_w32(MRS, 0xe10f3000);      /* mrs r3, cpsr */
    kfix_w32(MRS + 4, 0xe3130080);  /* tst r3, #0x80 */
    kfix_w32(MRS + 8, 0x0a000013);  /* beq MRS + 0x5c (the WARN) */
    kfix_w32(MRS + 12, 0xe5903000); /* ldr r3, [r0] */
    kfix_w32(MRS + 16, 0xe1c020d8); /* ldrd r2, r3, [r0, #8] */
    kfix_w32(MRS + 20, 0xe0030392); /* mul r3, r2, r3 */
    kfix_w32(MRS + 24, 0xe1902f9f); /* ldrex r2, [r0] */
    kfix_w32(MRS + 28, 0x012fff1e); /* bxeq lr */
    kfix_w32(MRS + 32, 0xe92d4010); /* push {r4, lr} */
    kfix_w32(EXC, 0xe24dd04c);         /* sub sp, sp, #76 */
    kfix_w32(EXC + 4, 0xe98d1ffe);     /* stmib sp, {r1-r12} */
    kfix_w32(EXC + 8, 0xe58d3000);     /* str r3, [sp] */
    kfix_w32(EXC + 12, 0xeb000010);    /* bl the handler */
}

static int setup(void **state)
{
    kfix_reset();
    kfix_kernel();
    kfix_kallsyms(syms, sizeof(syms) / sizeof(syms[0]), KFIX_MARKERS_BEFORE_SEQS);
    kfix_publish();
    build_exidx(KFIX_EXIDX);
    build_chain();
    return 0;
}

static void symbols(void)
{
    const struct vmci *v;

    kernel_vmcoreinfo_forget();
    v = kernel_vmcoreinfo(true);
    EXPECT_TRUE(v && ksyms_ready(v), "the fixture kernel or its symbols were not found");
}

static const char *bt(bool scan)
{
    uint32_t r[16];

    symbols();
    memcpy(r, regs, sizeof(r));
    fake_output_reset();
    unwind_backtrace(r, scan);
    return fake_output_text();
}

static const char *header(void)
{
    return tfmt("bt: unwind tables (.ARM.exidx at %08x, %u entries)\n", KFIX_EXIDX, NFNS);
}

static void test_the_chain_unwinds_to_the_end(void **state)
{
    EXPECT_STR_EQ(bt(false), tfmt("%s"
                                  "#0  c0009410 leaf_fn+0x10/0x100\n"
                                  "#1  c0009324 mid_fn+0x24/0x100\n"
                                  "#2  c0009230 fp_fn+0x30/0x100\n"
                                  "#3  c0009144 big_fn+0x44/0x100\n"
                                  "#4  c0009014 ret_from_fork+0x14/0x100\n",
                                  header()));
}

static void test_each_step_restores_the_registers_the_kernel_would(void **state)
{
    uint32_t r[16];

    symbols();
    EXPECT_TRUE(unwind_ready(), "no unwind tables");
    memcpy(r, regs, sizeof(r));
    EXPECT_EQ(unwind_step(r), UNWIND_OK); /* LEAF: finish */
    EXPECT_EQ(r[15], MID + 0x24);
    EXPECT_EQ(r[13], SP0);
    EXPECT_EQ(unwind_step(r), UNWIND_OK); /* MID */
    EXPECT_EQ(r[4], 0x44440001);
    EXPECT_EQ(r[5], 0x55550001);
    EXPECT_EQ(r[15], FP + 0x30);
    EXPECT_EQ(r[13], SP0 + 20);
    EXPECT_EQ(unwind_step(r), UNWIND_OK); /* FP */
    EXPECT_EQ(r[11], 0xbbbb0001);
    EXPECT_EQ(r[13], SP0 + 20 + 0x20 + 8);
    EXPECT_EQ(unwind_step(r), UNWIND_OK); /* BIG, from .ARM.extab */
    EXPECT_EQ(r[0], 0x00000a00);
    EXPECT_EQ(r[1], 0x00000a01);
    EXPECT_EQ(r[4], 0x44440002);
    EXPECT_EQ(r[15], ROOT + 0x14);
    EXPECT_EQ(r[13], SP0 + 20 + 0x20 + 8 + 8 + 0x408 - 4 + 8);
    EXPECT_EQ(r[2], regs[2]); /* untouched */
    EXPECT_EQ(unwind_step(r), UNWIND_END);
}

static void test_the_index_is_found_among_decoys(void **state)
{
    /* a zero page, and a run of sorted small numbers (like kallsyms_offsets) pointing into
     * the code, before the table */
    for (uint32_t i = 0; i < 1024; i++)
        kfix_w32(0xc0090000u + 4 * i, (FILLERS - (0xc0090000u + 4 * i) + 4 * i) & 0x7fffffffu);
    EXPECT_TRUE(starts_with(bt(false), header()), "found: %s", bt(false));
    EXPECT_CONTAINS(bt(false), "#4  c0009014 ret_from_fork+0x14/0x100\n");
}

static void test_an_index_starting_on_a_page_boundary_is_found_whole(void **state)
{
    kfix_reset();
    kfix_kernel();
    kfix_kallsyms(syms, sizeof(syms) / sizeof(syms[0]), KFIX_MARKERS_BEFORE_SEQS);
    kfix_publish();
    build_exidx(0xc00a1000u);
    build_chain();
    EXPECT_TRUE(starts_with(bt(false), tfmt("bt: unwind tables (.ARM.exidx at c00a1000, %u "
                                            "entries)\n",
                                            NFNS)),
                "found: %s", bt(false));
}

static void test_pc_before_the_first_function_stops_with_a_reason(void **state)
{
    regs[15] = KFIX_STEXT + 4;
    EXPECT_STR_EQ(bt(false), tfmt("%s#0  c0008004 _stext+0x4/0x1000\n"
                                  "bt: stopped: no unwind entry\n",
                                  header()));
}

static void test_an_assembly_leaf_at_frame_0_continues_from_lr(void **state)
{
    regs[15] = ROOT + 8; /* only a "cannot unwind" entry, as the linker gives asm code */
    EXPECT_TRUE(ends_with(bt(false), "#0  c0009008 ret_from_fork+0x8/0x100\n"
                                     "bt: #0 has no unwind entry: its caller from lr\n"
                                     "#1  c0009324 mid_fn+0x24/0x100\n"
                                     "#2  c0009230 fp_fn+0x30/0x100\n"
                                     "#3  c0009144 big_fn+0x44/0x100\n"
                                     "#4  c0009014 ret_from_fork+0x14/0x100\n"),
                "%s", bt(false));
    regs[14] = LEAF + 8; /* no call before it: lr is not a return address */
    EXPECT_TRUE(ends_with(bt(false), "#0  c0009008 ret_from_fork+0x8/0x100\n"), "%s",
                bt(false));
}

static void test_a_pc_in_the_vector_page_says_where_the_context_is(void **state)
{
    regs[15] = 0xffff1040u; /* the IRQ stub, before it has switched to svc */
    EXPECT_TRUE(ends_with(bt(false), "#0  ffff1040 ?\n"
                                     "bt: stopped: no unwind entry\n"
                                     "bt: #0 is in the kernel's exception vectors: the "
                                     "interrupted context is in that mode's lr and spsr "
                                     "(allregs)\n"),
                "%s", bt(false));
}

static void test_refusals_and_unsupported_instructions_stop_the_trace(void **state)
{
    regs[15] = REFUSE + 8;
    EXPECT_TRUE(ends_with(bt(false), "#0  c0009508 refuse_fn+0x8/0x100\n"
                                     "bt: stopped: cannot unwind further\n"),
                "%s", bt(false));
    regs[15] = VFP + 8;
    EXPECT_TRUE(ends_with(bt(false), "bt: stopped: cannot unwind further\n"), "%s", bt(false));
}

static void test_a_stack_that_faults_stops_the_trace(void **state)
{
    fake_mem_add_fault(SP0 + 16, 4); /* MID's saved lr */
    EXPECT_STR_EQ(bt(false), tfmt("%s#0  c0009410 leaf_fn+0x10/0x100\n"
                                  "#1  c0009324 mid_fn+0x24/0x100\n"
                                  "bt: stopped: cannot unwind further\n",
                                  header()));
}

static void test_a_frame_that_makes_no_progress_stops_the_trace(void **state)
{
    regs[15] = LEAF + 4;
    regs[14] = LEAF + 4; /* finish: pc = lr, sp unchanged: the same frame again */
    EXPECT_TRUE(ends_with(bt(false), "#0  c0009404 leaf_fn+0x4/0x100\n"
                                     "bt: stopped: cannot unwind further\n"),
                "%s", bt(false));
}

/* (a real chain can be 33 deep: an IRQ in a softirq in an IRQ in panic's delay) */
static void test_an_endless_chain_is_cut_at_64_frames(void **state)
{
    for (uint32_t a = SP0; a < KFIX_STACK_BASE + KFIX_STACK_SIZE; a += 8) {
        kfix_w32(a, 0x44);
        kfix_w32(a + 4, LOOP + 0x10);
    }
    regs[15] = LOOP + 0x10;
    const char *out = bt(false);
    EXPECT_EQ(count_substr(out, "loop_fn+0x10/0x100"), 64);
    EXPECT_TRUE(ends_with(out, "bt: stopped after 64 frames (fiqmon's limit)\n"), "%s", out);
}

static void test_the_heuristic_scan_lists_return_addresses_and_says_so(void **state)
{
    EXPECT_STR_EQ(bt(true), "bt: heuristic stack scan: return addresses found on the stack, "
                            "stale ones too\n"
                            "#0  c0009410 leaf_fn+0x10/0x100 (pc)\n"
                            "#1  c0009324 mid_fn+0x24/0x100 (lr)\n"
                            "#2  c0009230 fp_fn+0x30/0x100 (sp+0x10)\n"
                            "#3  c0009144 big_fn+0x44/0x100 (sp+0x38)\n"
                            "#4  c0009014 ret_from_fork+0x14/0x100 (sp+0x44c)\n");
}

static void test_without_tables_the_heuristic_scan_is_used_and_labelled(void **state)
{
    memset(fake_mem(KFIX_EXIDX), 0, exidx_end - KFIX_EXIDX);
    const char *out = bt(false);
    EXPECT_TRUE(starts_with(out, "bt: heuristic stack scan (no unwind tables found): "), "%s", out);
    EXPECT_CONTAINS(out, "#4  c0009014 ret_from_fork+0x14/0x100 (sp+0x44c)\n");
}

static void test_the_heuristic_scan_stays_on_its_stack(void **state)
{
    /* sp near the top of its 8 KiB stack: the scan ends at the top, not in the next one */
    regs[13] = KFIX_STACK_BASE + 0x2000 - 8;
    kfix_w32(KFIX_STACK_BASE + 0x2000 + 8, ROOT + 0x14);
    const char *out = bt(true);
    EXPECT_NOT_CONTAINS(out, "ret_from_fork");
}

/* The chain below MID, with frame #0 a function called by MID (its entry sp is SP0, lr
 * MID + 0x24) stopped off instructions into the prologue at f (PUSHY or MERGED). The
 * words below SP0 are stale (0x37acbd06, like an old timer count) except what the
 * prologue has pushed by then. */
static void stop_in_prologue(uint32_t f, uint32_t off)
{
    static const uint32_t sp_after[] = {0, 36, 48, 52, 48, 48, 48, 48}; /* below SP0 */
    uint32_t sp = SP0 - sp_after[off / 4];

    for (uint32_t a = SP0 - 0x100; a < SP0; a += 4)
        kfix_w32(a, 0x37acbd06);
    if (off >= 4) { /* push {r4-r11, lr} */
        for (unsigned i = 4; i <= 11; i++)
            kfix_w32(SP0 - 36 + 4 * (i - 4), regs[i]);
        kfix_w32(SP0 - 4, MID + 0x24);
    }
    if (off >= 12) /* push {lr}, then dropped again */
        kfix_w32(SP0 - 52, MID + 0x24);
    regs[13] = sp;
    regs[14] = off >= 28 ? 0x0000dead : MID + 0x24; /* past the sbc */
    regs[15] = f + off;
}

static const char *chain_below_mid(void)
{
    return "#1  c0009324 mid_fn+0x24/0x100\n"
           "#2  c0009230 fp_fn+0x30/0x100\n"
           "#3  c0009144 big_fn+0x44/0x100\n"
           "#4  c0009014 ret_from_fork+0x14/0x100\n";
}

static void test_frame_0_anywhere_in_its_prologue_unwinds_exactly(void **state)
{
    for (uint32_t off = 0; off <= 28; off += 4) {
        setup(state);
        stop_in_prologue(PUSHY, off);
        EXPECT_STR_EQ(bt(false), tfmt("%s#0  %08x pushy_fn+0x%x/0x80\n%s", header(),
                                      PUSHY + off, off, chain_below_mid()));
    }
}

static void test_a_function_whose_table_entry_was_merged_unwinds_from_its_first_insn(void **state)
{
    /* merged_fn has no entry: pushy_fn's (vsp += 12; pop r4-r11, lr) covers it. On its
     * first instruction nothing is pushed: the table would read stale words */
    for (uint32_t off = 0; off <= 20; off += 4) {
        setup(state);
        stop_in_prologue(MERGED, off);
        EXPECT_STR_EQ(bt(false), tfmt("%s#0  %08x merged_fn+0x%x/0x80\n%s", header(),
                                      MERGED + off, off, chain_below_mid()));
    }
}

static void test_before_a_shrink_wrapped_prologue_the_caller_is_lr(void **state)
{
    kfix_w32(SP0, 0xef6e0f00); /* stale: what pop {lr} would read */
    regs[14] = MID + 0x24;
    regs[15] = SHRINK + 12;
    EXPECT_STR_EQ(bt(false), tfmt("%s#0  c000ad0c shrink_fn+0xc/0x80\n%s", header(),
                                  chain_below_mid()));
}

static void test_a_table_caller_after_no_call_stops_the_trace(void **state)
{
    /* a loop before the push: the walk gives up, and the table reads a stale word */
    kfix_w32(SP0, 0xef6e0f00);
    regs[14] = MID + 0x24;
    regs[15] = SPIN + 12;
    EXPECT_STR_EQ(bt(false), tfmt("%s#0  c000ad8c spin_fn+0xc/0x40\n"
                                  "bt: stopped: the table gives #0's caller as ef6e0f00, "
                                  "which follows no call: #0 has not run the prologue the "
                                  "table describes\n",
                                  header()));
}

/* The stale words a stopped-early function's table would pop: a caller-looking
 * return address (after fp_fn's bl) */
static void stale_return_address_on_the_stack(void)
{
    kfix_w32(SP0, 0x44440009);
    kfix_w32(SP0 + 4, FP + 0x30);
    regs[14] = MID + 0x24;
}

static void test_before_the_push_status_multiply_and_exclusive_reads_keep_lr(void **state)
{
    stale_return_address_on_the_stack();
    for (uint32_t off = 0; off <= 32; off += 4) {
        regs[15] = MRS + off;
        EXPECT_STR_EQ(bt(false), tfmt("%s#0  %08x mrs_fn+0x%x/0x40\n%s", header(), MRS + off,
                                      off, chain_below_mid()));
    }
}

static void test_a_caller_after_a_call_is_no_proof_before_the_frame_is_stored(void **state)
{
    /* an instruction the walk does not know before the push: the stale word follows a
     * call, but the frame is not stored yet, so it is not trusted */
    stale_return_address_on_the_stack();
    kfix_w32(MRS + 12, 0xe590e000); /* ldr lr, [r0] */
    regs[15] = MRS + 16;
    EXPECT_STR_EQ(bt(false), tfmt("%s#0  c000add0 mrs_fn+0x10/0x40\n"
                                  "bt: stopped: the table gives #0's caller as c0009230, "
                                  "a stale word: #0 has not run the prologue the "
                                  "table describes\n",
                                  header()));
}

static void test_an_exception_entry_before_its_frame_is_stored_says_so(void **state)
{
    for (uint32_t off = 0; off <= 8; off += 4) { /* up to its last store */
        regs[15] = EXC + off;
        EXPECT_STR_EQ(bt(false), tfmt("%s#0  %08x exc_entry+0x%x/0x200\n"
                                      "bt: stopped: in an exception entry that has not "
                                      "saved the interrupted context yet\n",
                                      header(), EXC + off, off));
    }
}

/* exc_entry past its stores: its frame (r0-pc) below SP0 holds a context stopped at pc
 * with lr MID + 0x24 (mid_fn's call) and the chain's sp and r11 */
static void stopped_by_an_exception_at(uint32_t pc)
{
    uint32_t f = SP0 - 0x200;

    for (unsigned i = 0; i < 13; i++)
        kfix_w32(f + 4 * i, i == 11 ? regs[11] : 0x100 + i); /* fp_fn's frame needs r11 */
    kfix_w32(f + 52, SP0);        /* sp */
    kfix_w32(f + 56, MID + 0x24); /* lr */
    kfix_w32(f + 60, pc);
    regs[13] = f;
    regs[15] = EXC + 12;
}

static void test_a_context_an_exception_frame_saved_is_an_interrupted_one(void **state)
{
    /* a context stopped on merged_fn's first instruction (an IRQ right after the call),
     * whose caller is lr; stale words above it */
    stopped_by_an_exception_at(MERGED);
    for (uint32_t a = SP0 - 0x100; a < SP0; a += 4)
        kfix_w32(a, 0x37acbd06);
    EXPECT_STR_EQ(bt(false), tfmt("%s#0  c000ae0c exc_entry+0xc/0x200\n"
                                  "#1  c000ac80 merged_fn+0x0/0x80\n"
                                  "#2  c0009324 mid_fn+0x24/0x100\n"
                                  "#3  c0009230 fp_fn+0x30/0x100\n"
                                  "#4  c0009144 big_fn+0x44/0x100\n"
                                  "#5  c0009014 ret_from_fork+0x14/0x100\n",
                                  header()));
}

/* The context an IRQ saved stopped in an assembly leaf (find_next_bit: only a "cannot
 * unwind" entry): as at #0, its caller is its lr (the QEMU test's halt 143: the trace
 * ended there, short of ret_from_fork). */
static void test_an_assembly_leaf_an_irq_stopped_continues_from_lr(void **state)
{
    stopped_by_an_exception_at(ROOT + 8); /* asm: "cannot unwind" */
    EXPECT_STR_EQ(bt(false), tfmt("%s#0  c000ae0c exc_entry+0xc/0x200\n"
                                  "#1  c0009008 ret_from_fork+0x8/0x100\n"
                                  "bt: #1 has no unwind entry: its caller from lr\n"
                                  "#2  c0009324 mid_fn+0x24/0x100\n"
                                  "#3  c0009230 fp_fn+0x30/0x100\n"
                                  "#4  c0009144 big_fn+0x44/0x100\n"
                                  "#5  c0009014 ret_from_fork+0x14/0x100\n",
                                  header()));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_the_chain_unwinds_to_the_end, setup),
        cmocka_unit_test_setup(test_each_step_restores_the_registers_the_kernel_would, setup),
        cmocka_unit_test_setup(test_the_index_is_found_among_decoys, setup),
        cmocka_unit_test_setup(test_an_index_starting_on_a_page_boundary_is_found_whole, setup),
        cmocka_unit_test_setup(test_pc_before_the_first_function_stops_with_a_reason, setup),
        cmocka_unit_test_setup(test_an_assembly_leaf_at_frame_0_continues_from_lr, setup),
        cmocka_unit_test_setup(test_an_assembly_leaf_an_irq_stopped_continues_from_lr, setup),
        cmocka_unit_test_setup(test_a_pc_in_the_vector_page_says_where_the_context_is, setup),
        cmocka_unit_test_setup(test_refusals_and_unsupported_instructions_stop_the_trace, setup),
        cmocka_unit_test_setup(test_a_stack_that_faults_stops_the_trace, setup),
        cmocka_unit_test_setup(test_a_frame_that_makes_no_progress_stops_the_trace, setup),
        cmocka_unit_test_setup(test_an_endless_chain_is_cut_at_64_frames, setup),
        cmocka_unit_test_setup(test_the_heuristic_scan_lists_return_addresses_and_says_so, setup),
        cmocka_unit_test_setup(test_without_tables_the_heuristic_scan_is_used_and_labelled, setup),
        cmocka_unit_test_setup(test_the_heuristic_scan_stays_on_its_stack, setup),
        cmocka_unit_test_setup(test_frame_0_anywhere_in_its_prologue_unwinds_exactly, setup),
        cmocka_unit_test_setup(
            test_a_function_whose_table_entry_was_merged_unwinds_from_its_first_insn, setup),
        cmocka_unit_test_setup(test_before_a_shrink_wrapped_prologue_the_caller_is_lr, setup),
        cmocka_unit_test_setup(test_a_table_caller_after_no_call_stops_the_trace, setup),
        cmocka_unit_test_setup(test_before_the_push_status_multiply_and_exclusive_reads_keep_lr,
                               setup),
        cmocka_unit_test_setup(
            test_a_caller_after_a_call_is_no_proof_before_the_frame_is_stored, setup),
        cmocka_unit_test_setup(test_an_exception_entry_before_its_frame_is_stored_says_so, setup),
        cmocka_unit_test_setup(test_a_context_an_exception_frame_saved_is_an_interrupted_one,
                               setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
