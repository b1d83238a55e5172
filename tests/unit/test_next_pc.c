/* SPDX-License-Identifier: MIT */
/* next_pc: the successors a step arms breakpoints on. The code below was assembled and
 * linked at 0 with arm-none-eabi-as/ld; each row names what objdump said it is and where
 * it branches, so the expected targets are the assembler's, not this decoder's. */
#include "expect.h"

#include <string.h>

#include "cpu_frame.h"
#include "next_pc.h"

static uint8_t mem[0x1000];
static uint32_t unreadable_from = 0x1000;

static void put32(uint32_t a, uint32_t v)
{
    memcpy(&mem[a], &v, 4);
}

static void put16(uint32_t a, uint16_t v)
{
    memcpy(&mem[a], &v, 2);
}

static bool reader(uint32_t addr, unsigned width, uint32_t *value)
{
    if (addr & (width - 1u) || addr + width > unreadable_from)
        return false;
    *value = 0;
    memcpy(value, &mem[addr], width);
    return true;
}

static const uint32_t arm_code[] = {
    0xea00003e, /* 00: b 100 */
    0x1b000005, /* 04: blne 20 */
    0xe12fff1e, /* 08: bx lr */
    0xe12fff33, /* 0c: blx r3 */
    0xe49df004, /* 10: ldr pc, [sp], #4 */
    0xe791f102, /* 14: ldr pc, [r1, r2, lsl #2] */
    0xe8bd8030, /* 18: pop {r4, r5, pc} */
    0xe9908002, /* 1c: ldmib r0, {r1, pc} */
    0xe1b0f00e, /* 20: movs pc, lr */
    0xe25ef004, /* 24: subs pc, lr, #4 */
    0x908ff100, /* 28: addls pc, pc, r0, lsl #2 */
    0xef000000, /* 2c: svc 0 */
    0xe7f001f2, /* 30: udf #18 */
    0xe2800001, /* 34: add r0, r0, #1 */
    0xfa000070, /* 38: blx 200 */
    0xe8108002, /* 3c: ldmda r0, {r1, pc} */
    0xe51ff004, /* 40: ldr pc, [pc, #-4] (the word at 44) */
};

static const uint16_t thumb_code[] = {
    0xe001,         /* 100: b.n 106 */
    0xf47f, 0xafff, /* 102: bne.w 104 */
    0x4710,         /* 106: bx r2 */
    0xb148,         /* 108: cbz r0, 11e */
    0xbd10,         /* 10a: pop {r4, pc} */
    0x469f,         /* 10c: mov pc, r3 */
    0xf000, 0xbf77, /* 10e: b.w 1000 */
    0xf001, 0xff75, /* 112: bl 2000 */
    0xf002, 0xef74, /* 116: blx 3000 */
    0xf000, 0x8031, /* 11a: beq.w 180 */
    0xf85d, 0xfb04, /* 11e: ldr.w pc, [sp], #4 */
    0xe911, 0x8004, /* 122: ldmdb r1, {r2, pc} */
    0xe8df, 0xf000, /* 126: tbb [pc, r0] */
    0xdf01,         /* 12a: svc 1 */
    0xde01,         /* 12c: udf #1 */
    0x3001,         /* 12e: adds r0, #1 */
    0xf3de, 0x8f04, /* 130: subs pc, lr, #4 */
    0xf8df, 0xf008, /* 134: ldr.w pc, [pc, #8] (the word at 140) */
    0xbf08,         /* 138: it eq */
    0x4608,         /* 13a: moveq r0, r1 */
    0xe8bd, 0x8030, /* 13c: ldmia.w sp!, {r4, r5, pc} */
    0xe8d1, 0xf010, /* 140: tbh [r1, r0, lsl #1] */
};

static struct cpu_frame frame;

static int setup(void **state)
{
    (void)state;
    memset(mem, 0, sizeof(mem));
    unreadable_from = sizeof(mem);
    for (unsigned i = 0; i < sizeof(arm_code) / 4; i++)
        put32(4 * i, arm_code[i]);
    for (unsigned i = 0; i < sizeof(thumb_code) / 2; i++)
        put16(0x100 + 2 * i, thumb_code[i]);
    memset(&frame, 0, sizeof(frame));
    frame.cpsr = ARM_MODE_SVC | ARM_PSR_I;
    frame.svc.sp = 0x800;
    put32(0x800, 0xc0001000);
    put32(0x804, 0x00005101);
    put32(0x808, 0x00005001);
    put32(0x90c, 0x00004000);
    put32(0x908, 0x00007000);
    put16(0x902, 0x0030);
    return 0;
}

struct want {
    uint32_t pc;
    bool thumb;
    uint32_t r0, r1, r2, r3, lr;
    unsigned n;
    uint32_t addr[2];
    enum next_pc_vector vector;
};

static void check(const struct want *w)
{
    struct next_pc np;

    frame.pc = w->pc;
    frame.cpsr = (frame.cpsr & ~ARM_PSR_T) | (w->thumb ? ARM_PSR_T : 0);
    frame.r[0] = w->r0;
    frame.r[1] = w->r1;
    frame.r[2] = w->r2;
    frame.r[3] = w->r3;
    frame.svc.lr = w->lr;
    EXPECT_TRUE(next_pc(&frame, reader, &np), "pc %x: decoded", (unsigned)w->pc);
    EXPECT_TRUE(np.n == w->n, "pc %x: %u successors, want %u", (unsigned)w->pc, np.n, w->n);
    for (unsigned i = 0; i < w->n; i++)
        EXPECT_TRUE(np.addr[i] == w->addr[i], "pc %x: successor %u is %x, want %x",
                    (unsigned)w->pc, i, (unsigned)np.addr[i], (unsigned)w->addr[i]);
    EXPECT_TRUE(np.vector == w->vector, "pc %x: vector %x, want %x", (unsigned)w->pc,
                (unsigned)np.vector, (unsigned)w->vector);
}

static void test_arm_branches_and_pc_loads(void **state)
{
    static const struct want arm[] = {
        {.pc = 0x00, .n = 1, .addr = {0x100}},
        {.pc = 0x04, .n = 2, .addr = {0x08, 0x20}},                 /* blne: both ways */
        {.pc = 0x08, .lr = 0x1235, .n = 1, .addr = {0x1235}},       /* bx to Thumb */
        {.pc = 0x0c, .r3 = 0x2000, .n = 1, .addr = {0x2000}},
        {.pc = 0x10, .n = 1, .addr = {0xc0001000}},                 /* ldr pc, [sp], #4 */
        {.pc = 0x14, .r1 = 0x900, .r2 = 3, .n = 1, .addr = {0x4000}},
        {.pc = 0x18, .n = 1, .addr = {0x5001}},                     /* pop: the third word */
        {.pc = 0x1c, .r0 = 0x900, .n = 1, .addr = {0x7000}},        /* ldmib: at r0 + 8 */
        {.pc = 0x28, .r0 = 2, .n = 2, .addr = {0x2c, 0x38}},        /* addls pc, pc, r0, lsl #2 */
        {.pc = 0x2c, .n = 1, .addr = {0x30}, .vector = NEXT_PC_SVC},
        {.pc = 0x30, .n = 1, .addr = {0x34}, .vector = NEXT_PC_UNDEF},
        {.pc = 0x34, .n = 1, .addr = {0x38}},
        {.pc = 0x38, .n = 1, .addr = {0x201}},                      /* blx: to Thumb */
        {.pc = 0x3c, .r0 = 0x90c, .n = 1, .addr = {0x4000}},        /* ldmda: pc at r0 */
        {.pc = 0x40, .n = 1, .addr = {0xe51ff004}},                 /* literal: the word at 44 */
    };
    (void)state;
    put32(0x44, 0xe51ff004);
    for (size_t i = 0; i < sizeof(arm) / sizeof(arm[0]); i++)
        check(&arm[i]);
}

static void test_arm_exception_returns_take_the_state_from_spsr(void **state)
{
    (void)state;
    frame.svc.spsr = ARM_MODE_USR;
    check(&(struct want){.pc = 0x20, .lr = 0x6000, .n = 1, .addr = {0x6000}});
    check(&(struct want){.pc = 0x24, .lr = 0x6004, .n = 1, .addr = {0x6000}});
    frame.svc.spsr = ARM_MODE_USR | ARM_PSR_T;
    check(&(struct want){.pc = 0x24, .lr = 0x6006, .n = 1, .addr = {0x6003}});
}

static void test_thumb_branches_and_pc_loads(void **state)
{
    static const struct want thumb[] = {
        {.pc = 0x100, .thumb = true, .n = 1, .addr = {0x107}},
        {.pc = 0x102, .thumb = true, .n = 2, .addr = {0x107, 0x105}},  /* bne.w */
        {.pc = 0x106, .thumb = true, .r2 = 0x700, .n = 1, .addr = {0x700}}, /* bx to ARM */
        {.pc = 0x108, .thumb = true, .n = 2, .addr = {0x10b, 0x11f}},  /* cbz */
        {.pc = 0x10a, .thumb = true, .n = 1, .addr = {0x5101}},        /* pop {r4, pc} */
        {.pc = 0x10c, .thumb = true, .r3 = 0x3000, .n = 1, .addr = {0x3001}},
        {.pc = 0x10e, .thumb = true, .n = 1, .addr = {0x1001}},
        {.pc = 0x112, .thumb = true, .n = 1, .addr = {0x2001}},
        {.pc = 0x116, .thumb = true, .n = 1, .addr = {0x3000}},        /* blx: to ARM */
        {.pc = 0x11a, .thumb = true, .n = 2, .addr = {0x11f, 0x181}},
        {.pc = 0x11e, .thumb = true, .n = 1, .addr = {0xc0001000}},
        {.pc = 0x122, .thumb = true, .r1 = 0x910, .n = 1, .addr = {0x4000}}, /* ldmdb */
        {.pc = 0x126, .thumb = true, .r0 = 1, .n = 1, .addr = {0x12a + 2 * 0xdf + 1}}, /* tbb */
        {.pc = 0x12a, .thumb = true, .n = 1, .addr = {0x12d}, .vector = NEXT_PC_SVC},
        {.pc = 0x12c, .thumb = true, .n = 1, .addr = {0x12f}, .vector = NEXT_PC_UNDEF},
        {.pc = 0x12e, .thumb = true, .n = 1, .addr = {0x131}},
        {.pc = 0x134, .thumb = true, .n = 1, .addr = {0xf010e8d1}},    /* the word at 140 */
        {.pc = 0x13c, .thumb = true, .n = 1, .addr = {0x5001}},        /* ldmia.w sp! */
        {.pc = 0x140, .thumb = true, .r0 = 1, .r1 = 0x900, .n = 1, .addr = {0x144 + 0x60 + 1}},
    };
    (void)state;
    for (size_t i = 0; i < sizeof(thumb) / sizeof(thumb[0]); i++)
        check(&thumb[i]);
    frame.svc.spsr = ARM_MODE_USR | ARM_PSR_T; /* subs pc, lr, #4: to the Thumb caller */
    check(&(struct want){.pc = 0x130, .thumb = true, .lr = 0x8004, .n = 1, .addr = {0x8001}});
}

/* In an IT block every instruction is conditional: not taken, the next one runs. */
static void test_an_instruction_in_an_it_block_may_fall_through(void **state)
{
    (void)state;
    frame.cpsr |= 0x0c00u; /* ITSTATE: one more conditional instruction (EQ) */
    check(&(struct want){.pc = 0x100, .thumb = true, .n = 2, .addr = {0x107, 0x103}});
    check(&(struct want){.pc = 0x13a, .thumb = true, .n = 1, .addr = {0x13d}});
    frame.cpsr &= ~0x0c00u;
}

static void test_an_unreadable_instruction_or_pc_load_is_not_stepped(void **state)
{
    struct next_pc np;
    (void)state;

    unreadable_from = 0x10;
    frame.pc = 0x10;
    EXPECT_TRUE(!next_pc(&frame, reader, &np), "the instruction does not read");
    unreadable_from = 0x800; /* ldr pc, [sp]: the stack does not read */
    EXPECT_TRUE(!next_pc(&frame, reader, &np), "the loaded pc does not read");
    frame.pc = 0x102;
    frame.cpsr |= ARM_PSR_T;
    unreadable_from = 0x104; /* the second halfword of bne.w */
    EXPECT_TRUE(!next_pc(&frame, reader, &np), "half an instruction does not read");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_arm_branches_and_pc_loads, setup),
        cmocka_unit_test_setup(test_arm_exception_returns_take_the_state_from_spsr, setup),
        cmocka_unit_test_setup(test_thumb_branches_and_pc_loads, setup),
        cmocka_unit_test_setup(test_an_instruction_in_an_it_block_may_fall_through, setup),
        cmocka_unit_test_setup(test_an_unreadable_instruction_or_pc_load_is_not_stepped, setup),
    };

    return cmocka_run_group_tests_name("next_pc", tests, NULL, NULL);
}
