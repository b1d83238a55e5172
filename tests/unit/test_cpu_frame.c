/* SPDX-License-Identifier: MIT */
/* The saved frame: which bank each register of the interrupted mode lives in, mode names,
 * and the flags text. */
#include "expect.h"

#include "cpu_frame.h"

#define NO_FIELD SIZE_MAX

struct mode_view {
    const char *name;
    uint32_t mode;
    size_t sp, lr, spsr; /* offsets in struct cpu_frame; spsr NO_FIELD when the mode has none */
    bool fiq_bank;       /* r8-r12 come from fiq_r8_r12 */
};

#define BANK(b)                                                                                    \
    offsetof(struct cpu_frame, b.sp), offsetof(struct cpu_frame, b.lr),                            \
        offsetof(struct cpu_frame, b.spsr)

static const struct mode_view views[] = {
    {"usr", ARM_MODE_USR, offsetof(struct cpu_frame, sp_usr), offsetof(struct cpu_frame, lr_usr),
     NO_FIELD, false},
    {"sys", ARM_MODE_SYS, offsetof(struct cpu_frame, sp_usr), offsetof(struct cpu_frame, lr_usr),
     NO_FIELD, false},
    {"svc", ARM_MODE_SVC, BANK(svc), false},
    {"abt", ARM_MODE_ABT, BANK(abt), false},
    {"und", ARM_MODE_UND, BANK(und), false},
    {"irq", ARM_MODE_IRQ, BANK(irq), false},
    {"fiq", ARM_MODE_FIQ, BANK(fiq), true},
    {"mon", ARM_MODE_MON, BANK(mon), false},
};

/* Every word of the frame holds its own offset, so a pointer's value says where it points. */
static void fill(struct cpu_frame *f, uint32_t cpsr_mode_bits)
{
    uint32_t *w = (uint32_t *)f;

    for (size_t i = 0; i < sizeof(*f) / 4; i++)
        w[i] = 0xf0000000u | (uint32_t)(i * 4);
    f->cpsr = 0x60000000u | cpsr_mode_bits;
}

static size_t offset_of(const struct cpu_frame *f, const uint32_t *p)
{
    return (size_t)((const char *)p - (const char *)f);
}

static void test_frame_reg_views_the_interrupted_modes_registers(void **state)
{
    for (size_t v = 0; v < sizeof(views) / sizeof(views[0]); v++) {
        const struct mode_view *m = &views[v];
        struct cpu_frame f;

        fill(&f, m->mode);
        for (unsigned n = 0; n < 16; n++) {
            size_t want;
            if (n < 8)
                want = offsetof(struct cpu_frame, r) + 4 * n;
            else if (n < 13)
                want = m->fiq_bank ? offsetof(struct cpu_frame, fiq_r8_r12) + 4 * (n - 8)
                                   : offsetof(struct cpu_frame, r) + 4 * n;
            else if (n == 13)
                want = m->sp;
            else if (n == 14)
                want = m->lr;
            else
                want = offsetof(struct cpu_frame, pc);
            size_t got = offset_of(&f, frame_reg(&f, n));
            EXPECT_TRUE(got == want, "%s mode, r%u: frame offset %zu, want %zu", m->name, n, got,
                        want);
        }
    }
}

static void test_frame_spsr_is_the_modes_bank_or_null_in_usr_and_sys(void **state)
{
    for (size_t v = 0; v < sizeof(views) / sizeof(views[0]); v++) {
        const struct mode_view *m = &views[v];
        struct cpu_frame f;

        fill(&f, m->mode);
        uint32_t *spsr = frame_spsr(&f);
        if (m->spsr == NO_FIELD)
            EXPECT_TRUE(spsr == NULL, "%s mode has no spsr, got frame offset %zu", m->name,
                        offset_of(&f, spsr));
        else
            EXPECT_TRUE(spsr && offset_of(&f, spsr) == m->spsr,
                        "%s mode: spsr at frame offset %zu, want %zu", m->name,
                        spsr ? offset_of(&f, spsr) : (size_t)-1, m->spsr);
    }
}

static void test_only_the_mode_bits_of_cpsr_choose_the_view(void **state)
{
    struct cpu_frame f;

    fill(&f, ARM_MODE_FIQ);
    f.cpsr |= 0xf80001e0u; /* flags, A, I, F, T */
    EXPECT_EQ(offset_of(&f, frame_reg(&f, 8)), offsetof(struct cpu_frame, fiq_r8_r12));
    EXPECT_EQ(offset_of(&f, frame_reg(&f, 13)), offsetof(struct cpu_frame, fiq.sp));
}

static void test_writing_through_frame_reg_changes_only_that_bank(void **state)
{
    for (size_t v = 0; v < sizeof(views) / sizeof(views[0]); v++) {
        const struct mode_view *m = &views[v];
        for (unsigned n = 0; n < 16; n++) {
            struct cpu_frame f, want;
            fill(&f, m->mode);
            want = f;
            *frame_reg(&f, n) = 0x12345678u;
            /* the same store, made by offset */
            size_t off = offset_of(&f, frame_reg(&f, n));
            *(uint32_t *)((char *)&want + off) = 0x12345678u;
            EXPECT_TRUE(memcmp(&f, &want, sizeof(f)) == 0, "%s r%u: more than one word changed",
                        m->name, n);
        }
    }
    /* and the bank is where the exit code reloads it */
    struct cpu_frame f;
    fill(&f, ARM_MODE_IRQ);
    *frame_reg(&f, 13) = 0xcafe0000u;
    *frame_reg(&f, 14) = 0xcafe0004u;
    EXPECT_EQ(f.irq.sp, 0xcafe0000u);
    EXPECT_EQ(f.irq.lr, 0xcafe0004u);
    fill(&f, ARM_MODE_FIQ);
    *frame_reg(&f, 12) = 0xbeef000cu;
    EXPECT_EQ(f.fiq_r8_r12[4], 0xbeef000cu);
    EXPECT_EQ(f.r[12], 0xf0000000u | 48u);
}

static void test_mode_names(void **state)
{
    static const char *const names[32] = {
        [ARM_MODE_USR] = "usr", [ARM_MODE_FIQ] = "fiq", [ARM_MODE_IRQ] = "irq",
        [ARM_MODE_SVC] = "svc", [ARM_MODE_MON] = "mon", [ARM_MODE_ABT] = "abt",
        [ARM_MODE_HYP] = "hyp", [ARM_MODE_UND] = "und", [ARM_MODE_SYS] = "sys",
    };

    for (uint32_t m = 0; m < 32; m++) {
        const char *want = names[m] ? names[m] : "???";
        EXPECT_TRUE(strcmp(arm_mode_name(m), want) == 0, "mode 0x%02x: \"%s\", want \"%s\"",
                    (unsigned)m, arm_mode_name(m), want);
        /* the other psr bits do not matter */
        EXPECT_STR_EQ(arm_mode_name(0xffffffe0u | m), want);
    }
}

static void test_psr_description(void **state)
{
    static const struct {
        uint32_t psr;
        const char *text;
    } t[] = {
        {0x00000013, "nzcv"},   {0x600000d3, "nZCv IF"}, {0xf00001f0, "NZCV AIFT"},
        {0x80000030, "Nzcv T"}, {0x10000193, "nzcV AI"}, {0x40000040, "nZcv F"},
        {0x0f0ffe1f, "nzcv"}, /* bits other than NZCV AIFT show nothing */
    };

    for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
        char out[32];
        memset(out, 0x55, sizeof(out));
        arm_psr_describe(t[i].psr, out);
        EXPECT_TRUE(strcmp(out, t[i].text) == 0, "psr 0x%08x: \"%s\", want \"%s\"",
                    (unsigned)t[i].psr, out, t[i].text);
        EXPECT_TRUE(strlen(out) < 16, "psr 0x%08x: longer than the 16 bytes promised",
                    (unsigned)t[i].psr);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_frame_reg_views_the_interrupted_modes_registers),
        cmocka_unit_test(test_frame_spsr_is_the_modes_bank_or_null_in_usr_and_sys),
        cmocka_unit_test(test_only_the_mode_bits_of_cpsr_choose_the_view),
        cmocka_unit_test(test_writing_through_frame_reg_changes_only_that_bank),
        cmocka_unit_test(test_mode_names),
        cmocka_unit_test(test_psr_description),
    };

    return cmocka_run_group_tests_name("cpu_frame", tests, NULL, NULL);
}
