/* SPDX-License-Identifier: MIT */
/* The monitor session end to end on the fake port: bytes arrive as FIQs (handled the way
 * the platform's hot path handles them), the fast path decides, the full path runs the
 * shell against a saved frame and the fake memory.
 *
 * The whole suite runs twice: once with bytes arriving a FIFO load (16 bytes) per FIQ, once
 * with one FIQ per byte. */
#include "expect.h"

#include <stdio.h>
#include <stdlib.h>

#include "command.h"
#include "fake_port.h"
#include "knock.h"
#include "line_editor.h"
#include "fiqmon_features.h"
#include "monitor.h"
#include "noise_gate.h"
#include "service.h"

#define PROMPT "fiqmon> "
#define KNOCK_PROMPT_1 "Type $3#33 to enter the debugger>"
#define KNOCK_PROMPT_0 "Hit <return> to enter the debugger>"
#define BASE FAKE_RAM_BASE
#define FIFO_DEPTH 16u

static struct cpu_frame frame;
static size_t fifo_load = FIFO_DEPTH; /* bytes per FIQ */

/* --- the FIQ, as the platform takes it ----------------------------------------------------- */

/* One FIQ from the debug UART with these bytes in its receive FIFO. While the noise gate
 * is open, the platform's noise path drops plain bytes at the head of the FIFO, counting
 * them in the gate, and a FIQ it drains whole ends there; otherwise everything from the
 * first other byte on is queued, the fast path runs, and the full path when the fast path
 * asks. Returns true if the full path ran. */
static bool fiq(const void *bytes, size_t n)
{
    const uint8_t *b = bytes;
    size_t i = 0;

    fake.fiqs_taken++;
    if (noise_gate.open) {
        for (; i < n && knock_quiet_byte(b[i]); i++)
            noise_gate.noise++;
        if (n && i == n) {
            noise_gate.fiqs++;
            return false;
        }
    }
    for (; i < n; i++)
        ring_put(&mon_rx, b[i]);
    if (!monitor_fiq_fast(true))
        return false;
    monitor_fiq_full(&frame);
    return true;
}

/* Bytes arriving on the debug port, fifo_load bytes per FIQ. */
static void send_bytes(const void *bytes, size_t n)
{
    const uint8_t *b = bytes;

    for (size_t i = 0; i < n; i += fifo_load)
        fiq(b + i, n - i < fifo_load ? n - i : fifo_load);
}

static void send(const char *s)
{
    send_bytes(s, strlen(s));
}

/* --- fixtures ------------------------------------------------------------------------------ */

/* Every word of the frame distinct; svc mode, N and C set, IRQs masked. */
static void frame_init(void)
{
    uint32_t *w = (uint32_t *)&frame;

    for (size_t i = 0; i < sizeof(frame) / 4; i++)
        w[i] = 0x0a000000u | (uint32_t)(i << 16) | (uint32_t)(i * 0x11);
    frame.pc = 0x00008a4cu;
    frame.cpsr = 0xa0000093u;
}

static int setup(void **state)
{
    fake_port_reset();
    memset(&mon_stats, 0, sizeof(mon_stats));
    frame_init();
    monitor_init(KNOCK_MODE_MAGIC, &fiqmon_features);
    return 0;
}

static const char *entry_message(const char *reason)
{
    return tfmt("\r\nfiqmon: entered by %s at pc=%08x (svc)\r\n" PROMPT, reason,
                (unsigned)frame.pc);
}

/* Knock and check the session opened; the output is cleared afterwards. */
static void enter(void)
{
    fake_output_reset();
    send(KNOCK_MAGIC);
    EXPECT_EQ(monitor_state(), MON_ACTIVE);
    EXPECT_STR_EQ(fake_output(), entry_message("knock"));
    fake_output_reset();
}

/* Type a command line at the prompt (ended with CR). Checks the echo, the CR LF after it
 * and the next prompt; returns what the command printed in between, CRs removed. */
static const char *cmd(const char *line)
{
    static char out[64 * 1024];
    const char *echo = tfmt("%s\r\n", line);

    fake_output_reset();
    send(line);
    send("\r");
    const char *raw = fake_output();
    EXPECT_TRUE(starts_with(raw, echo) && ends_with(raw, PROMPT),
                "'%s': expected the echo, CR LF, output and \"" PROMPT "\"; got %s", line,
                expect_escape(raw));
    EXPECT_TRUE(count_substr(raw, "\n") == count_substr(raw, "\r\n"), "'%s': a bare LF in %s", line,
                expect_escape(raw));
    size_t n = 0;
    for (const char *p = raw + strlen(echo); p < raw + strlen(raw) - strlen(PROMPT); p++)
        if (*p != '\r')
            out[n++] = *p;
    out[n] = '\0';
    return out;
}

/* out is exactly one line, "error: ..." containing detail. */
static void expect_one_error(const char *what, const char *out, const char *detail)
{
    EXPECT_TRUE(starts_with(out, "error: ") && count_lines(out) == 1 && ends_with(out, "\n"),
                "'%s': expected one \"error: ...\" line, got %s", what, expect_escape(out));
    EXPECT_TRUE(strstr(out, detail) != NULL, "'%s': expected the error to say \"%s\", got %s", what,
                detail, expect_escape(out));
}

/* name=XXXXXXXX (hex) as a word of out. */
static bool hex_token(const char *out, const char *name, uint32_t *value)
{
    size_t n = strlen(name);

    for (const char *p = out; (p = strstr(p, name)) != NULL; p++) {
        bool word_start = p == out || p[-1] == ' ' || p[-1] == '\n' || p[-1] == '(';
        char *end;
        if (!word_start || p[n] != '=')
            continue;
        unsigned long v = strtoul(p + n + 1, &end, 16);
        if (end == p + n + 1 + 8) {
            *value = (uint32_t)v;
            return true;
        }
    }
    return false;
}

#define EXPECT_REG(out, name, want)                                                                \
    do {                                                                                           \
        uint32_t reg_got_ = 0;                                                                     \
        uint32_t reg_want_ = (want);                                                               \
        EXPECT_TRUE(hex_token((out), (name), &reg_got_), "no %s=XXXXXXXX in %s", (name),           \
                    expect_escape(out));                                                           \
        EXPECT_TRUE(reg_got_ == reg_want_, "%s: expected %08x, got %08x", (name),                  \
                    (unsigned)reg_want_, (unsigned)reg_got_);                                      \
    } while (0)

/* name=decimal from stats */
static unsigned long stat_of(const char *out, const char *name)
{
    const char *p = strstr(out, tfmt("%s=", name));

    EXPECT_TRUE(p != NULL, "no %s= in %s", name, expect_escape(out));
    return strtoul(p + strlen(name) + 1, NULL, 10);
}

/* What a bad command must not change. */
struct snapshot {
    uint8_t memory[FAKE_RAM_SIZE];
    struct cpu_frame frame;
    int knock_mode;
    enum monitor_state state;
    bool halted;
};

static void take_snapshot(struct snapshot *s)
{
    memcpy(s->memory, fake_mem(BASE), FAKE_RAM_SIZE);
    s->frame = frame;
    s->knock_mode = monitor_knock_mode();
    s->state = monitor_state();
    s->halted = monitor_halted();
}

static void expect_unchanged(const char *what, const struct snapshot *s)
{
    EXPECT_TRUE(memcmp(s->memory, fake_mem(BASE), FAKE_RAM_SIZE) == 0, "'%s' changed memory", what);
    EXPECT_TRUE(memcmp(&s->frame, &frame, sizeof(frame)) == 0, "'%s' changed the frame", what);
    EXPECT_TRUE(s->knock_mode == monitor_knock_mode(), "'%s' changed the knock mode", what);
    EXPECT_TRUE(s->state == monitor_state(), "'%s' changed the state", what);
    EXPECT_TRUE(s->halted == monitor_halted(), "'%s' changed halted", what);
}

/* --- waiting for a knock ------------------------------------------------------------------- */

static void test_noise_never_enters_and_prompts_once_per_line(void **state)
{
    send("hello there\r\nsecond line\nthird\r");
    EXPECT_EQ(monitor_state(), MON_WAITING);
    EXPECT_STR_EQ(fake_output(), "\r\n" KNOCK_PROMPT_1 "\r\n" KNOCK_PROMPT_1 "\r\n" KNOCK_PROMPT_1);
}

static void test_random_noise_never_enters_debugger(void **state)
{
    static uint8_t noise[64 * 1024];
    uint32_t x = 0x0badf00du;
    size_t lines = 0;

    for (size_t i = 0; i < sizeof(noise); i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        noise[i] = (uint8_t)(x >> 24);
        if (i >= 4 && memcmp(noise + i - 4, KNOCK_MAGIC, 5) == 0)
            noise[i] ^= 0xff; /* no knock in the noise (checked below) */
        lines += noise[i] == '\r' || noise[i] == '\n';
    }
    for (size_t i = 0; i + 5 <= sizeof(noise); i++)
        EXPECT_TRUE(memcmp(noise + i, KNOCK_MAGIC, 5) != 0, "knock at %zu", i);
    send_bytes(noise, sizeof(noise));
    EXPECT_EQ(monitor_state(), MON_WAITING);
    EXPECT_NOT_CONTAINS(fake_output(), "fiqmon: entered");
    size_t prompts = count_substr(fake_output(), KNOCK_PROMPT_1);
    EXPECT_TRUE(prompts > 0 && prompts <= lines + 1, "%zu prompts for %zu lines", prompts, lines);
    EXPECT_EQ(monitor_noise_bytes() + mon_knock.matched, sizeof(noise));
    /* and a knock still gets through */
    enter();
}

static void test_fiq_without_a_byte_does_not_enter_in_mode_1(void **state)
{
    EXPECT_EQ(fiq(NULL, 0), false);
    EXPECT_EQ(monitor_state(), MON_WAITING);
    EXPECT_EQ(fake_output_len(), 0);
}

static void test_fast_path_asks_for_the_full_path_only_on_the_knocks_last_byte(void **state)
{
    static const char knock[] = KNOCK_MAGIC;

    /* byte by byte, by hand, whatever the delivery */
    for (size_t i = 0; i < 5; i++) {
        ring_put(&mon_rx, (uint8_t)knock[i]);
        int full = monitor_fiq_fast(true);
        EXPECT_TRUE(full == (i == 4), "byte %zu of the knock: fast path returned %d", i, full);
    }
    EXPECT_EQ(fake_output_len(), 0); /* the fast path prints nothing */
    monitor_fiq_full(&frame);
    EXPECT_STR_EQ(fake_output(), entry_message("knock"));
    EXPECT_EQ(monitor_state(), MON_ACTIVE);
    EXPECT_TRUE(monitor_frame() == NULL, "the frame pointer outlived the full path");
}

static void test_knock_and_a_command_in_one_burst_both_run(void **state)
{
    send(KNOCK_MAGIC "pc\r");
    EXPECT_CONTAINS(fake_output(), "fiqmon: entered by knock");
    EXPECT_CONTAINS(fake_output(), tfmt("pc=%08x", (unsigned)frame.pc));
    EXPECT_TRUE(ends_with(fake_output(), PROMPT), "%s", expect_escape(fake_output()));
}

static void test_return_knock_enters_once_and_its_lf_runs_nothing(void **state)
{
    monitor_init(KNOCK_MODE_RETURN, &fiqmon_features);
    send("$3#33");
    EXPECT_EQ(monitor_state(), MON_WAITING);
    EXPECT_STR_EQ(fake_output(), "\r\n" KNOCK_PROMPT_0);
    fake_output_reset();
    send("\r\n");
    EXPECT_STR_EQ(fake_output(), entry_message("knock"));
}

static void test_any_fiq_mode_enters_on_a_byte_and_drops_it(void **state)
{
    monitor_init(KNOCK_MODE_ANY_FIQ, &fiqmon_features);
    send("q");
    EXPECT_STR_EQ(fake_output(), entry_message("FIQ"));
    EXPECT_TRUE(starts_with(cmd("pc"), "pc="), "the doorbell byte reached the shell");
}

static void test_any_fiq_mode_enters_on_a_fiq_without_a_byte(void **state)
{
    monitor_init(KNOCK_MODE_ANY_FIQ, &fiqmon_features);
    EXPECT_EQ(fiq(NULL, 0), true);
    EXPECT_STR_EQ(fake_output(), entry_message("FIQ"));
}

/* The noise gate opens only where knock_feed would call every plain byte noise and change
 * nothing else; a '$', CR, LF, any change of state or a byte left queued closes it. */
static void test_the_noise_gate_opens_on_a_quiet_line_only(void **state)
{
    int need_full;

    EXPECT_EQ(noise_gate.open, 0); /* a fresh line: the first noise byte prompts */
    fiq("a", 1);
    EXPECT_STR_EQ(fake_output(), "\r\n" KNOCK_PROMPT_1);
    EXPECT_EQ(noise_gate.open, 1);
    fake_output_reset();
    EXPECT_EQ(fiq("bcd", 3), false);
    EXPECT_EQ(noise_gate.noise, 3);
    EXPECT_EQ(noise_gate.fiqs, 1);
    EXPECT_EQ(fake_output_len(), 0);
    fiq("$", 1); /* a knock may start here */
    EXPECT_EQ(noise_gate.open, 0);
    fiq("x", 1); /* it did not: a quiet line again */
    EXPECT_EQ(noise_gate.open, 1);
    fiq("\r", 1); /* a new line: its first noise prompts */
    EXPECT_EQ(noise_gate.open, 0);
    fiq("y", 1);
    EXPECT_EQ(noise_gate.open, 1);
    EXPECT_EQ(monitor_noise_bytes(), 3 + 5 + mon_knock.matched);
    /* a service call changes the state between FIQs: the gate closes at once */
    EXPECT_EQ(monitor_service(FIQMON_SVC_ENTER, &need_full), FIQMON_SVC_OK);
    EXPECT_EQ(noise_gate.open, 0);
    monitor_fiq_full(&frame);
    EXPECT_EQ(monitor_state(), MON_ACTIVE);
    EXPECT_EQ(noise_gate.open, 0);
    fake_output_reset();
    send("exit\r");
    EXPECT_EQ(monitor_state(), MON_WAITING);
    EXPECT_EQ(noise_gate.open, 0); /* a new line after exit */
}

static void test_the_noise_gate_stays_shut_while_bytes_are_queued(void **state)
{
    send("a");
    EXPECT_EQ(noise_gate.open, 1);
    monitor_request_lockup_report(); /* the full path is due: nothing is consumed now */
    ring_put(&mon_rx, 'b');
    EXPECT_EQ(monitor_fiq_fast(true), 1);
    EXPECT_EQ(noise_gate.open, 0);
    monitor_fiq_full(&frame); /* the report, then the queued byte: noise again */
    EXPECT_EQ(ring_count(&mon_rx), 0);
    EXPECT_EQ(noise_gate.open, 1);
}

static void test_the_noise_gate_never_opens_in_any_fiq_mode(void **state)
{
    monitor_init(KNOCK_MODE_ANY_FIQ, &fiqmon_features);
    for (int i = 0; i < 3; i++) {
        EXPECT_EQ(noise_gate.open, 0);
        EXPECT_EQ(fiq("q", 1), true); /* every FIQ enters */
        send("exit\r");
    }
    EXPECT_EQ(noise_gate.open, 0);
}

/* In mode 0 a '$' is plain noise, but the noise path keeps it (it cannot know the mode):
 * the C path calls it noise and the gate opens again. */
static void test_the_noise_gate_in_return_mode(void **state)
{
    monitor_init(KNOCK_MODE_RETURN, &fiqmon_features);
    send("ab");
    EXPECT_EQ(noise_gate.open, 1);
    EXPECT_EQ(fiq("$", 1), false);
    EXPECT_EQ(noise_gate.open, 1);
    EXPECT_EQ(monitor_noise_bytes(), 3);
    EXPECT_EQ(fiq("\r", 1), true);
    EXPECT_CONTAINS(fake_output(), "fiqmon: entered by knock");
}

/* --- commands ------------------------------------------------------------------------------ */

struct regs_case {
    const char *mode_name;
    uint32_t cpsr;
    size_t sp, lr, spsr; /* frame offsets; spsr 0: none */
    bool fiq_bank;
};

static uint32_t frame_word(size_t offset)
{
    uint32_t v;

    memcpy(&v, (const char *)&frame + offset, 4);
    return v;
}

static void test_regs_show_the_interrupted_modes_registers(void **state)
{
    static const struct regs_case t[] = {
        {"svc", 0xa0000093u, offsetof(struct cpu_frame, svc.sp), offsetof(struct cpu_frame, svc.lr),
         offsetof(struct cpu_frame, svc.spsr), false},
        {"usr", 0x60000010u, offsetof(struct cpu_frame, sp_usr), offsetof(struct cpu_frame, lr_usr),
         0, false},
        {"fiq", 0x000000d1u, offsetof(struct cpu_frame, fiq.sp), offsetof(struct cpu_frame, fiq.lr),
         offsetof(struct cpu_frame, fiq.spsr), true},
        {"irq", 0x00000092u, offsetof(struct cpu_frame, irq.sp), offsetof(struct cpu_frame, irq.lr),
         offsetof(struct cpu_frame, irq.spsr), false},
    };

    enter();
    for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
        frame.cpsr = t[i].cpsr;
        const char *out = cmd("regs");
        for (unsigned n = 0; n < 13; n++)
            EXPECT_REG(out, tfmt("r%u", n),
                       n >= 8 && t[i].fiq_bank ? frame.fiq_r8_r12[n - 8] : frame.r[n]);
        EXPECT_REG(out, "sp", frame_word(t[i].sp));
        EXPECT_REG(out, "lr", frame_word(t[i].lr));
        EXPECT_REG(out, "pc", frame.pc);
        EXPECT_REG(out, "cpsr", t[i].cpsr);
        EXPECT_CONTAINS(out, tfmt("(%s ", t[i].mode_name));
        if (t[i].spsr)
            EXPECT_REG(out, "spsr", frame_word(t[i].spsr));
        else
            EXPECT_NOT_CONTAINS(out, "spsr");
        EXPECT_EQ(count_lines(out), 5);
    }
}

static void test_pc_shows_pc_mode_and_flags(void **state)
{
    enter();
    /* cpsr a0000093: N and C set, IRQs masked, svc */
    EXPECT_STR_EQ(cmd("pc"), tfmt("pc=%08x cpsr=a0000093 (svc NzCv I)\n", (unsigned)frame.pc));
}

static void test_allregs_show_every_bank(void **state)
{
    static const struct {
        const char *name;
        size_t bank;
    } banks[] = {
        {"svc", offsetof(struct cpu_frame, svc)}, {"abt", offsetof(struct cpu_frame, abt)},
        {"und", offsetof(struct cpu_frame, und)}, {"irq", offsetof(struct cpu_frame, irq)},
        {"fiq", offsetof(struct cpu_frame, fiq)}, {"mon", offsetof(struct cpu_frame, mon)},
    };

    for (int with_mon = 0; with_mon <= 1; with_mon++) {
        setup(state);
        fake.desc.has_monitor_mode = with_mon;
        enter();
        const char *out = cmd("allregs");
        EXPECT_REG(out, "sp_usr", frame.sp_usr);
        EXPECT_REG(out, "lr_usr", frame.lr_usr);
        for (size_t b = 0; b < sizeof(banks) / sizeof(banks[0]); b++) {
            uint32_t v;
            if (strcmp(banks[b].name, "mon") == 0 && !with_mon) {
                EXPECT_TRUE(!hex_token(out, "sp_mon", &v), "sp_mon shown without Monitor mode");
                continue;
            }
            EXPECT_REG(out, tfmt("sp_%s", banks[b].name), frame_word(banks[b].bank));
            EXPECT_REG(out, tfmt("lr_%s", banks[b].name), frame_word(banks[b].bank + 4));
            EXPECT_REG(out, tfmt("spsr_%s", banks[b].name), frame_word(banks[b].bank + 8));
        }
        for (unsigned n = 8; n <= 12; n++)
            EXPECT_REG(out, tfmt("r%u_fiq", n), frame.fiq_r8_r12[n - 8]);
    }
}

static void test_md_shows_fake_memory(void **state)
{
    fake_mem_write(BASE + 0x100, "fiqmon md test!\0\177abc", 20);
    enter();
    EXPECT_STR_EQ(
        cmd("md 10000100 14 b"),
        tfmt("10000100: 66 69 71 6d 6f 6e 20 6d 64 20 74 65 73 74 21 00  fiqmon md test!.\n"
             "10000110: 7f 61 62 63%36s  .abc\n", /* 12 missing bytes */
             ""));
    EXPECT_EQ(count_lines(cmd("md 10000100")), 4); /* 0x40 bytes by default */
}

static void test_mw_then_md_in_every_width(void **state)
{
    static const uint8_t want[] = {0x78, 0x56, 0x34, 0x12, 0xcd, 0xab, 0xef, 0x01};

    enter();
    EXPECT_STR_EQ(cmd("mw 10000010 12345678"), "");
    EXPECT_STR_EQ(cmd("mw 10000014 abcd h"), "");
    EXPECT_STR_EQ(cmd("mw 10000016 #239 b"), ""); /* decimal 239 = 0xef */
    EXPECT_STR_EQ(cmd("mw 0x10000017 0x01 b"), "");
    EXPECT_TRUE(memcmp(fake_mem(BASE + 0x10), want, sizeof(want)) == 0,
                "memory: %02x %02x %02x %02x %02x %02x %02x %02x", fake_mem(BASE + 0x10)[0],
                fake_mem(BASE + 0x10)[1], fake_mem(BASE + 0x10)[2], fake_mem(BASE + 0x10)[3],
                fake_mem(BASE + 0x10)[4], fake_mem(BASE + 0x10)[5], fake_mem(BASE + 0x10)[6],
                fake_mem(BASE + 0x10)[7]);
    EXPECT_EQ(fake.writes[4], 1);
    EXPECT_EQ(fake.writes[2], 1);
    EXPECT_EQ(fake.writes[1], 2);
    EXPECT_STR_EQ(cmd("md 10000010 8"),
                  tfmt("10000010: 12345678 01efabcd%18s  xV4.....\n", "")); /* 2 missing */
    EXPECT_TRUE(starts_with(cmd("md 10000010 8 h"), "10000010: 5678 1234 abcd 01ef "), "md h: %s",
                cmd("md 10000010 8 h"));
    EXPECT_TRUE(starts_with(cmd("md 10000010 8 b"), "10000010: 78 56 34 12 cd ab ef 01 "),
                "md b: %s", cmd("md 10000010 8 b"));
}

static void test_md_and_mw_at_a_fault_say_where_and_change_nothing(void **state)
{
    struct snapshot before;

    fake_mem_add_fault(BASE + 0x8000, 0x100);
    fake_mem_write(BASE + 0x8000, "\x11\x22\x33\x44", 4);
    enter();
    take_snapshot(&before);
    EXPECT_STR_EQ(cmd("mw 10008000 5"), "error: fault at 0x10008000\n");
    EXPECT_STR_EQ(cmd("mw 10008002 5 b"), "error: fault at 0x10008002\n");
    EXPECT_STR_EQ(cmd("md 10008000 4"), "error: fault at 0x10008000\n");
    EXPECT_STR_EQ(cmd("md 20000000 4 h"), "error: fault at 0x20000000\n");
    expect_unchanged("a faulting md/mw", &before);
}

static void test_mw_reads_memory_back_and_says_when_a_write_did_not_take(void **state)
{
    fake.rom_base = BASE + 0x200; /* flash: takes writes and keeps its contents */
    fake.rom_size = 0x200;
    fake_mem_write(BASE + 0x200, "\x11\x22\x33\x44", 4);
    enter();
    unsigned reads = fake.reads[4];
    EXPECT_STR_EQ(cmd("mw 10000100 12345678"), "");
    EXPECT_EQ(fake.reads[4], reads + 1); /* RAM: read back, and it holds the value */
    EXPECT_STR_EQ(cmd("mw 10000200 1"),
                  "error: 0x10000200 reads back 0x44332211 after writing 0x1 (flash or ROM?)\n");
    EXPECT_STR_EQ(cmd("mw -p 10000203 1 b"),
                  "error: 0x10000203 reads back 0x44 after writing 0x1 (flash or ROM?)\n");
    EXPECT_STR_EQ(cmd("mw 10000202 4433 h"), ""); /* what it holds already: nothing to say */
    /* a device register is never read behind the user's back, whatever the write did */
    fake.device_base = BASE + 0x300;
    fake.device_size = 0x100;
    reads = fake.reads[1] + fake.reads[2] + fake.reads[4];
    EXPECT_STR_EQ(cmd("mw 10000300 5"), "");
    EXPECT_EQ(fake.reads[1] + fake.reads[2] + fake.reads[4], reads);
    EXPECT_EQ(fake.space, PORT_MEM_VIRTUAL);
}

static void test_md_p_reads_physical_memory_and_then_goes_back_to_virtual(void **state)
{
    fake_mem_write(BASE, "PHYS", 4);
    enter();
    EXPECT_TRUE(starts_with(cmd("md -p 10000000 4"), "10000000: 53594850"), "md -p");
    EXPECT_TRUE(fake.space_accesses[PORT_MEM_PHYSICAL] == 1 &&
                    fake.space_accesses[PORT_MEM_VIRTUAL] == 0,
                "md -p made %u physical and %u virtual accesses",
                fake.space_accesses[PORT_MEM_PHYSICAL], fake.space_accesses[PORT_MEM_VIRTUAL]);
    EXPECT_EQ(fake.space, PORT_MEM_VIRTUAL);
    EXPECT_STR_EQ(cmd("mw -p 10000000 41 b"), "");
    EXPECT_EQ(fake.space_accesses[PORT_MEM_PHYSICAL], 3); /* the write and its read-back */
    EXPECT_EQ(*fake_mem(BASE), 0x41);
    EXPECT_EQ(fake.space, PORT_MEM_VIRTUAL);
    /* an error on the way out leaves the space virtual too */
    expect_one_error("md -p xyz", cmd("md -p xyz"), "bad address");
    EXPECT_EQ(fake.space, PORT_MEM_VIRTUAL);
    /* and a plain md reads virtual addresses */
    cmd("md 10000000 4");
    EXPECT_EQ(fake.space_accesses[PORT_MEM_VIRTUAL], 1);
}

struct bad_input {
    const char *line;
    const char *detail;
};

static const struct bad_input bad_inputs[] = {
    {"frobnicate", "unknown command 'frobnicate'"},
    {"re", "ambiguous command 're': readonly regs release reboot"},
    {"md", "usage: md"},
    {"md xyz", "bad address 'xyz': not a number"},
    {"md 100000000", "bad address '100000000': number too large"},
    {"md 0x", "bad address '0x': no digits"},
    {"md 10000000 0", "out of range"},
    {"md 10000000 1001", "out of range"},
    {"md fffffff0 20", "wraps"},
    {"md fffffffc 8 w", "wraps"},
    {"md fffffffe 4 h", "wraps"},
    {"md 10000000 3 w", "length 0x3 is not a multiple of the width (4 bytes)"},
    {"md 10000000 5 w", "length 0x5 is not a multiple of the width (4 bytes)"},
    {"md 10000000 3 h", "length 0x3 is not a multiple of the width (2 bytes)"},
    {"mw fffffffe 1 w", "range wraps past 0xffffffff"},
    {"mw ffffffff 1 h", "range wraps past 0xffffffff"},
    {"md 10000000 4 w b", "usage: md"},
    {"md 10000000 b 4 b", "usage: md"},
    {"version extra", "usage: version"},
    {"pc extra", "usage: pc"},
    {"stats extra", "usage: stats"},
    {"help md extra", "usage: help [COMMAND]"},
    {"sym a b", "usage: sym ADDR|NAME"},
    {"go 1 2", "usage: go ADDR"},
    {"reb", "'reboot' must be typed in full"},
    {"rel", "'release' must be typed in full"},
    {"boo", "'boot' must be typed in full"},
    {"readon", "'readonly' must be typed in full"},
    {"help m", "ambiguous command 'm': md mw"},
    {"md 10000000 10 q", "bad width 'q'"},
    {"md 10000000 10 20", "bad width '20'"},
    {"mw 10000000", "usage: mw"},
    {"mw 10000000 100 b", "value 0x100 does not fit in 1 byte"},
    {"mw 10000000 10000 h", "value 0x10000 does not fit in 2 bytes"},
    {"mw 10000000 1 x", "bad width 'x'"},
    {"mw 10000000 zz", "bad value 'zz'"},
    {"knock 7", "bad knock mode '7'"},
    {"knock one", "bad knock mode 'one'"},
    {"knock 1 2", "usage: knock"},
    {"help nosuch", "no command 'nosuch'"},
    {"a b c d e f g h i", "too many arguments"},
    {"md 1 2 3 4 5 6 7 8", "too many arguments"},
    {"continue", "not halted"},
    {"go", "usage: go"},
    {"go xyz", "bad address"},
    {"boot", "no payload"},
};

static void test_each_bad_input_gives_one_error_line_and_changes_nothing(void **state)
{
    struct snapshot before;

    fake_mem_write(BASE, "\x11\x11\x11\x11", 4);
    enter();
    for (size_t i = 0; i < sizeof(bad_inputs) / sizeof(bad_inputs[0]); i++) {
        take_snapshot(&before);
        expect_one_error(bad_inputs[i].line, cmd(bad_inputs[i].line), bad_inputs[i].detail);
        expect_unchanged(bad_inputs[i].line, &before);
    }
}

static void test_too_long_line_is_refused_and_nothing_runs(void **state)
{
    char line[256];
    struct snapshot before;

    fake_mem_write(BASE, "\x11\x11\x11\x11", 4);
    enter();
    take_snapshot(&before);
    /* a cut-off copy of this line would be a valid command that changes memory */
    snprintf(line, sizeof(line), "mw 10000000 55%200sb", "");
    send(line);
    send("\r");
    const char *raw = fake_output();
    EXPECT_TRUE(strncmp(raw, line, LINE_MAX_CHARS) == 0, "the first %d chars are echoed",
                LINE_MAX_CHARS);
    EXPECT_STR_EQ(raw + LINE_MAX_CHARS,
                  "\r\nerror: line too long (at most 128 characters)\r\n" PROMPT);
    expect_unchanged("a too long line", &before);
    EXPECT_TRUE(starts_with(cmd("pc"), "pc="), "the next line runs");
}

static void test_ctrl_c_abandons_the_line(void **state)
{
    struct snapshot before;

    enter();
    take_snapshot(&before);
    fake_output_reset();
    send("mw 10000000 66\x03");
    EXPECT_STR_EQ(fake_output(), "mw 10000000 66^C\r\n" PROMPT);
    expect_unchanged("a cancelled line", &before);
}

static void test_editing_keys_edit_the_line_before_it_runs(void **state)
{
    enter();
    fake_output_reset();
    send("pcx\x7f\r");
    EXPECT_TRUE(starts_with(fake_output(), "pcx\b \b\r\npc="), "%s", expect_escape(fake_output()));
    fake_output_reset();
    send("garbage\x15pc\r");
    EXPECT_CONTAINS(fake_output(), "pc=");
    EXPECT_NOT_CONTAINS(fake_output(), "error");
}

static void test_tab_and_escape_sequences_at_the_prompt(void **state)
{
    enter();
    fake_output_reset();
    send("md\t10000000\t4\r");
    EXPECT_TRUE(starts_with(fake_output(), "md 10000000 4\r\n10000000: "), "%s",
                expect_escape(fake_output()));
    fake_output_reset();
    send("\x1b[2Jp\x1b[D\x1b[Cc\r"); /* clear screen, Left, Right: none of it typed */
    EXPECT_TRUE(starts_with(fake_output(), "pc\r\npc="), "%s", expect_escape(fake_output()));
    fake_output_reset();
    send("\x1b[A\x1b[A\r"); /* Up, Up: md again */
    EXPECT_TRUE(starts_with(fake_output(), "pc\b \b\b \bmd 10000000 4\r\n10000000: "), "%s",
                expect_escape(fake_output()));
}

static void test_lowering_permissions_forgets_the_typed_lines(void **state)
{
    enter();
    cmd("mw 10000000 5");
    cmd("readonly");
    fake_output_reset();
    send("\x1b[A\x1b[A\r");
    EXPECT_STR_EQ(fake_output(), "\r\n" PROMPT);
}

static void test_crlf_lf_and_cr_each_end_a_line_once(void **state)
{
    enter();
    fake_output_reset();
    send("pc\r\npc\npc\r");
    EXPECT_EQ(count_substr(fake_output(), "pc="), 3);
    EXPECT_EQ(count_substr(fake_output(), PROMPT), 3); /* no empty line ran in between */
}

static void test_empty_line_gives_a_new_prompt_and_is_not_counted(void **state)
{
    enter();
    EXPECT_STR_EQ(cmd(""), "");
    EXPECT_STR_EQ(cmd("   "), "");
    EXPECT_EQ(mon_stats.commands, 0);
}

/* --- leaving, knock modes --------------------------------------------------------------- */

static void test_exit_returns_to_waiting_and_commands_no_longer_run(void **state)
{
    enter();
    send("exit\r");
    EXPECT_STR_EQ(fake_output(), "exit\r\nfiqmon: left; no kernel was started: fiqmon idles\r\n");
    EXPECT_EQ(monitor_state(), MON_WAITING);
    fake_output_reset();
    send("regs\r");
    EXPECT_STR_EQ(fake_output(), "\r\n" KNOCK_PROMPT_1);
    enter();
}

static void test_the_lf_of_exits_crlf_neither_prompts_nor_knocks_in_any_mode(void **state)
{
    static const struct {
        int mode;
        const char *knock;
        const char *reason;
    } t[] = {{1, KNOCK_MAGIC, "knock"}, {0, "\r", "knock"}, {-1, "x", "FIQ"}};

    for (size_t i = 0; i < 3; i++) {
        setup(state);
        monitor_init(t[i].mode, &fiqmon_features);
        send(t[i].knock);
        EXPECT_STR_EQ(fake_output(), entry_message(t[i].reason));
        fake_output_reset();
        send("exit\r\n");
        EXPECT_TRUE(monitor_state() == MON_WAITING, "mode %d: state %d after exit", t[i].mode,
                    monitor_state());
        EXPECT_STR_EQ(fake_output(), "exit\r\nfiqmon: left; no kernel was started: fiqmon idles\r\n");
    }
}

static void test_knock_typed_ahead_after_exit_enters_again(void **state)
{
    enter();
    send("exit\r" KNOCK_MAGIC);
    EXPECT_EQ(monitor_state(), MON_ACTIVE);
    EXPECT_STR_EQ(fake_output(),
                  tfmt("exit\r\nfiqmon: left; no kernel was started: fiqmon idles\r\n%s", entry_message("knock")));
}

static void test_knock_command_shows_and_switches_the_mode(void **state)
{
    enter();
    EXPECT_STR_EQ(cmd("knock"), "knock=1 (type $3#33)\n");
    EXPECT_STR_EQ(cmd("knock 0"), "knock=0 (hit Return)\n");
    EXPECT_EQ(monitor_knock_mode(), KNOCK_MODE_RETURN);
    send("exit\r");
    fake_output_reset();
    send("xyz");
    EXPECT_STR_EQ(fake_output(), "\r\n" KNOCK_PROMPT_0);
    fake_output_reset();
    send("\r");
    EXPECT_STR_EQ(fake_output(), entry_message("knock"));
    EXPECT_STR_EQ(cmd("knock -1"), "knock=-1 (any FIQ)\n");
    send("exit\r");
    fake_output_reset();
    send("q");
    EXPECT_STR_EQ(fake_output(), entry_message("FIQ"));
    EXPECT_STR_EQ(cmd("knock 1"), "knock=1 (type $3#33)\n");
}

/* --- halt, release, services, reboot ------------------------------------------------------ */

static void test_halt_keeps_the_cpu_and_polls_until_continue(void **state)
{
    enter();
    fake_rx_script("", 0); /* a poll that finds nothing */
    fake_rx_script_str("reg");
    fake_rx_script_str("s\r");
    fake_rx_script_str("continue\r");
    fake_output_reset();
    send("halt\r");
    const char *out = fake_output_text();
    const char *halted =
        strstr(out, tfmt("fiqmon: kernel halted at pc=%08x (svc)", (unsigned)frame.pc));
    const char *regs = strstr(out, "r0=");
    const char *resumed = strstr(out, "fiqmon: kernel continues");
    EXPECT_TRUE(halted && regs && resumed && halted < regs && regs < resumed,
                "halt, regs while halted, continue: %s", expect_escape(out));
    EXPECT_EQ(fake_rx_pending(), 0);
    EXPECT_TRUE(fake.rx_polls >= 4, "%u polls", fake.rx_polls);
    EXPECT_EQ(monitor_halted(), false);
    EXPECT_TRUE(ends_with(out, PROMPT), "%s", expect_escape(out));
}

static void test_exit_while_halted_resumes_the_kernel(void **state)
{
    enter();
    fake_rx_script_str("exit\r");
    send("halt\r");
    EXPECT_EQ(monitor_halted(), false);
    EXPECT_EQ(monitor_state(), MON_WAITING);
    fake_output_reset();
    EXPECT_EQ(fiq(NULL, 0), false); /* no session, nothing polled any more */
    EXPECT_EQ(fake.rx_polls, 1);
}

/* --- every core under GDB ----------------------------------------------------------------- */

static const char *gdb_packet(const char *body)
{
    unsigned sum = 0;

    for (const char *p = body; *p; p++)
        sum += (uint8_t)*p;
    return tfmt("$%s#%02x", body, sum & 0xffu);
}

/* Two CPUs; CPU 1 runs at pc 0xc0012345 until a roundup stops it. */
static void second_cpu(void)
{
    struct cpu_frame f = frame;

    fake.desc.cpus = 2;
    f.pc = 0xc0012345u;
    fake_cpu_set(1, true, &f);
}

/* GDB's packets right behind its opener, in one FIQ: the other CPU is stopped before the
 * stub answers about it, and released when GDB detaches. */
static void test_gdb_sees_the_other_cpu_stopped_as_thread_2(void **state)
{
    char burst[128];

    second_cpu();
    snprintf(burst, sizeof(burst), "$?#3f+%s+%s+%s", gdb_packet("qfThreadInfo"),
             gdb_packet("Hg2"), gdb_packet("pf"));
    fake_rx_script_str("+$D#44");
    fake_output_reset();
    fiq(burst, strlen(burst));
    const char *out = fake_output();
    EXPECT_CONTAINS(out, "$T02thread:01;#");
    EXPECT_CONTAINS(out, "$m01,02#");
    EXPECT_CONTAINS(out, "$452301c0#"); /* CPU 1's pc */
    EXPECT_EQ(monitor_state(), MON_WAITING);
    EXPECT_TRUE(fake.cpu_holds >= 1 && !fake.cpus_held, "holds %u, held %d", fake.cpu_holds,
                fake.cpus_held);
}

/* The shell's `gdb` after `cpu 1`: GDB's thread 1 is still CPU 0. */
static void test_the_shells_gdb_starts_on_cpu_0_whatever_cpu_was_selected(void **state)
{
    second_cpu();
    frame.pc = 0x12345678u;
    enter();
    /* `cpu 1` halts the kernel: the rest arrives while the halted shell polls */
    fake_rx_script_str("gdb\r");
    fake_rx_script_str(gdb_packet("qC"));
    fake_rx_script_str(tfmt("+%s", gdb_packet("pf")));
    fake_rx_script_str("+$D#44");
    fake_output_reset();
    send("cpu 1\r");
    EXPECT_CONTAINS(fake_output_text(), "cpu1 selected: pc=c0012345");
    const char *out = fake_output();
    EXPECT_CONTAINS(out, "$QC01#");
    EXPECT_CONTAINS(out, "$78563412#");
    EXPECT_EQ(monitor_state(), MON_WAITING);
    EXPECT_EQ(fake.cpus_held, false);
}

/* `entry halt` (kdb's way): a knock under a running kernel halts every CPU at once, until
 * continue; with no kernel started (fiqmon idles) the knock halts nothing. */
static void test_entry_halt_makes_a_knock_halt_every_cpu_until_continue(void **state)
{
    second_cpu();
    enter();
    EXPECT_STR_EQ(cmd("entry"), "entry=async (the kernel runs beside the shell)\n");
    EXPECT_TRUE(starts_with(cmd("entry stop"), "error: bad entry 'stop'"), "bad setting");
    EXPECT_EQ(monitor_entry_halts(), false);
    EXPECT_STR_EQ(cmd("entry halt"), "entry=halt (a knock halts every cpu)\n");
    send("exit\r");
    EXPECT_EQ(monitor_state(), MON_WAITING);

    enter(); /* nothing booted yet: nothing to halt */
    EXPECT_EQ(monitor_halted(), false);
    send("exit\r");

    monitor_booted();
    fake_rx_script("", 0); /* a poll that finds nothing: still halted */
    fake_rx_script_str("continue\r");
    fake_output_reset();
    send(KNOCK_MAGIC);
    const char *out = fake_output_text();
    const char *halted = strstr(out, "fiqmon: every cpu halted (entry halt); 'continue' resumes");
    const char *resumed = strstr(out, "fiqmon: kernel continues");
    EXPECT_TRUE(halted && resumed && halted < resumed, "%s", expect_escape(out));
    EXPECT_TRUE(fake.cpu_holds >= 1 && !fake.cpus_held, "holds %u, held %d", fake.cpu_holds,
                fake.cpus_held);
    EXPECT_EQ(monitor_halted(), false);
    EXPECT_EQ(monitor_state(), MON_ACTIVE);
}

static void test_release_gives_the_port_away_until_the_kernel_rearms(void **state)
{
    enter();
    fake_output_reset();
    send("release\r");
    EXPECT_CONTAINS(fake_output(), "released to the kernel");
    EXPECT_TRUE(!ends_with(fake_output(), PROMPT), "a prompt after release");
    EXPECT_EQ(monitor_state(), MON_RELEASED);
    EXPECT_EQ(fake.uart_claimed, false);
    fake_output_reset();
    send(KNOCK_MAGIC);
    EXPECT_EQ(monitor_state(), MON_RELEASED);
    EXPECT_EQ(fake_output_len(), 0);
    EXPECT_EQ(ring_count(&mon_rx), 0);

    int need_full = -1;
    EXPECT_EQ(monitor_service(FIQMON_SVC_REARM, &need_full), FIQMON_SVC_OK);
    EXPECT_EQ(need_full, 0);
    EXPECT_EQ(monitor_state(), MON_WAITING);
    EXPECT_EQ(fake.uart_claimed, true);
    EXPECT_CONTAINS(fake_output(), "re-armed by the kernel");
    enter();
}

static void test_release_is_refused_when_the_port_cannot_be_released(void **state)
{
    int need_full;

    fake.desc.debug_uart_releasable = false;
    enter();
    expect_one_error("release", cmd("release"), "Secure");
    EXPECT_EQ(monitor_state(), MON_ACTIVE);
    EXPECT_EQ(fake.uart_claims, 0);
    EXPECT_EQ(monitor_service(FIQMON_SVC_RELEASE, &need_full), FIQMON_SVC_UNKNOWN);
    EXPECT_EQ(monitor_state(), MON_ACTIVE);
}

static void test_service_calls(void **state)
{
    int need_full = -1;

    EXPECT_EQ(monitor_service(FIQMON_SVC_PING, &need_full), FIQMON_SVC_OK);
    EXPECT_EQ(need_full, 0);
    EXPECT_EQ(monitor_service(99, &need_full), FIQMON_SVC_UNKNOWN);
    EXPECT_EQ(monitor_service(FIQMON_SVC_ENTER, &need_full), FIQMON_SVC_OK);
    EXPECT_EQ(need_full, 1);
    monitor_fiq_full(&frame);
    EXPECT_STR_EQ(fake_output(), entry_message("kernel request"));
    EXPECT_EQ(monitor_state(), MON_ACTIVE);
}

static void type_reboot(void *arg)
{
    send("reboot\r");
}

static void test_reboot_resets_the_system(void **state)
{
    enter();
    EXPECT_EQ(fake_expect_reboot(type_reboot, NULL), true);
    EXPECT_EQ(fake.reboots, 1);
    EXPECT_CONTAINS(fake_output(), "fiqmon: rebooting\r\n");
}

/* --- information commands ----------------------------------------------------------------- */

static void test_stats_count_bytes_noise_and_commands(void **state)
{
    static const char noise[] = "noise bytes\r";
    size_t sent = 0;

    mon_stats.rx_errors = 3;
    fake.fiqs_taken = 1000;
    send("noise ");           /* one FIQ: the C path (a fresh line prompts) */
    send(noise + 6);          /* the next: "bytes" by the noise path alone, '\r' by C
                               * (one byte a FIQ: "oise " too) */
    sent += strlen(noise);
    enter();
    sent += strlen(KNOCK_MAGIC);
    const char *out = cmd("stats");
    sent += strlen("stats\r");
    EXPECT_EQ(stat_of(out, "rx_bytes"), sent);
    EXPECT_EQ(stat_of(out, "noise"), strlen(noise));
    /* the quiet part of the line went by the noise path alone */
    EXPECT_EQ(stat_of(out, "noise_path"), noise_gate.noise);
    EXPECT_TRUE(noise_gate.noise == (fifo_load == 1 ? 10 : 5), "noise path %u", noise_gate.noise);
    EXPECT_EQ(stat_of(out, "ring_drops"), 0);
    EXPECT_EQ(stat_of(out, "rx_errors"), 3);
    EXPECT_EQ(stat_of(out, "commands"), 0);
    EXPECT_EQ(stat_of(out, "fiqs"), fake.fiqs_taken);
    out = cmd("stats");
    sent += strlen("stats\r");
    EXPECT_EQ(stat_of(out, "rx_bytes"), sent);
    EXPECT_EQ(stat_of(out, "commands"), 1);
}

static void test_stats_count_bytes_the_full_ring_dropped(void **state)
{
    static char flood[RING_SIZE + 44];

    enter();
    memset(flood, 'a', sizeof(flood));
    fiq(flood, sizeof(flood)); /* one FIQ with more than the ring holds */
    send("\r");
    const char *out = cmd("stats");
    EXPECT_EQ(stat_of(out, "ring_drops"), 44);
    EXPECT_EQ(stat_of(out, "rx_bytes"), strlen(KNOCK_MAGIC) + sizeof(flood) + 1 + 6);
}

/* With more than one CPU, stats counts the roundups (each halt stops the others once, however
 * long it lasts) and what each other CPU answered (cpus_single.c's: nothing). */
static void test_stats_count_the_roundups_of_the_other_cpus(void **state)
{
    fake.desc.cpus = 2;
    enter();
    EXPECT_EQ(stat_of(cmd("stats"), "roundups"), 0);
    for (int i = 0; i < 3; i++) {
        fake_rx_script("", 0); /* polls while halted: still one roundup */
        fake_rx_script("", 0);
        fake_rx_script_str("continue\r");
        send("halt\r");
    }
    const char *out = cmd("stats");
    EXPECT_EQ(stat_of(out, "roundups"), 3);
    EXPECT_TRUE(strstr(out, "\n  cpu1 off\n") != NULL, "cpu1 (off here) has its line: %s", out);
    fake.desc.cpus = 1;
    EXPECT_TRUE(strstr(cmd("stats"), "roundups=") == NULL, "one cpu: no roundup line");
}

/* The line of text whose first word is word, or NULL. */
static const char *line_for(const char *text, const char *word)
{
    for (const char *line = text; *line;) {
        size_t len = strcspn(line, "\n");
        char first[32];
        if (sscanf(line, " %31s", first) == 1 && strcmp(first, word) == 0)
            return tfmt("%.*s", (int)len, line);
        line += len + (line[len] == '\n');
    }
    return NULL;
}

static void test_help_lists_every_command_uncut(void **state)
{
    enter();
    const char *out = cmd("help");
    for (const struct command *c = core_commands; c->name; c++) {
        const char *line = line_for(out, c->name);
        EXPECT_TRUE(line != NULL, "help has no line for %s: %s", c->name, expect_escape(out));
        EXPECT_CONTAINS(line, c->usage);
        EXPECT_CONTAINS(line, unpacked(c->help));
    }
    enum command_lookup_status st;
    const struct command *md = command_lookup(command_tables, "md", &st);
    assert_non_null(md);
    EXPECT_STR_EQ(cmd("help md"), tfmt("md %s\n  %s\n", md->usage, unpacked(md->help)));
}

static void test_version_shows_the_build_id_and_the_board(void **state)
{
    char id[2 * FAKE_BUILD_ID_LEN + 1];

    for (unsigned i = 0; i < FAKE_BUILD_ID_LEN; i++)
        sprintf(id + 2 * i, "%02x", fake_build_id[i]);
    fake.self_crc = 0x0c0ffee5u;
    enter();
    const char *out = cmd("version");
    EXPECT_TRUE(starts_with(out, "fiqmon "), "%s", out);
    EXPECT_CONTAINS(out, tfmt("build-id %s\n", id));
    EXPECT_CONTAINS(out, "platform fakeboard, cpu fakecpu, debug port fakeuart\n");
    EXPECT_CONTAINS(out, "crc32 0c0ffee5\n");
}

static void test_irqs_list_the_lines_that_are_in_use(void **state)
{
    static const struct port_irq_line lines[] = {
        {NULL, false, false, false, 0},
        {"service", false, true, true, 2},
        {"quiet but named", false, false, false, 0},
        {"timer", true, true, false, 0},
        {NULL, true, false, false, 0},
        {"debug uart", true, true, true, 41},
        {"was routed to fiq once", false, false, false, 7},
        {NULL, false, false, true, 0},
    };
    static const unsigned listed[] = {1, 3, 4, 5, 6, 7};
    const unsigned n_listed = sizeof(listed) / sizeof(listed[0]);

    fake_irq_set_lines(lines, sizeof(lines) / sizeof(lines[0]));
    enter();
    const char *out = cmd("irqs");
    EXPECT_TRUE(starts_with(out, "fake intc: "), "%s", out);
    EXPECT_EQ(count_lines(out), 1 + n_listed);
    const char *row = strchr(out, '\n') + 1;
    for (unsigned i = 0; i < n_listed; i++) {
        const struct port_irq_line *l = &lines[listed[i]];
        unsigned line, raw, en, fiqs;
        char route[8], owner[64];
        int n = sscanf(row, " line=%u raw=%u en=%u %7s fiqs=%u %63[^\n]", &line, &raw, &en, route,
                       &fiqs, owner);
        EXPECT_TRUE(n == 6 && line == listed[i] && raw == l->raw && en == l->enabled &&
                        strcmp(route, l->to_fiq ? "fiq" : "irq") == 0 && fiqs == l->fiqs &&
                        strcmp(owner, l->name ? l->name : "-") == 0,
                    "irqs row %u: %.*s", i, (int)strcspn(row, "\n"), row);
        row = strchr(row, '\n') + 1;
    }
}

/* ------------------------------------------------------------------------------------------ */

static int deliver_fifo_loads(void **state)
{
    fifo_load = FIFO_DEPTH;
    return 0;
}

static int deliver_bytewise(void **state)
{
    fifo_load = 1;
    return 0;
}

#define T(name) cmocka_unit_test_setup(name, setup)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_noise_never_enters_and_prompts_once_per_line),
        T(test_random_noise_never_enters_debugger),
        T(test_fiq_without_a_byte_does_not_enter_in_mode_1),
        T(test_fast_path_asks_for_the_full_path_only_on_the_knocks_last_byte),
        T(test_knock_and_a_command_in_one_burst_both_run),
        T(test_return_knock_enters_once_and_its_lf_runs_nothing),
        T(test_any_fiq_mode_enters_on_a_byte_and_drops_it),
        T(test_any_fiq_mode_enters_on_a_fiq_without_a_byte),
        T(test_the_noise_gate_opens_on_a_quiet_line_only),
        T(test_the_noise_gate_stays_shut_while_bytes_are_queued),
        T(test_the_noise_gate_never_opens_in_any_fiq_mode),
        T(test_the_noise_gate_in_return_mode),
        T(test_regs_show_the_interrupted_modes_registers),
        T(test_pc_shows_pc_mode_and_flags),
        T(test_allregs_show_every_bank),
        T(test_md_shows_fake_memory),
        T(test_mw_then_md_in_every_width),
        T(test_md_and_mw_at_a_fault_say_where_and_change_nothing),
        T(test_mw_reads_memory_back_and_says_when_a_write_did_not_take),
        T(test_md_p_reads_physical_memory_and_then_goes_back_to_virtual),
        T(test_each_bad_input_gives_one_error_line_and_changes_nothing),
        T(test_too_long_line_is_refused_and_nothing_runs),
        T(test_ctrl_c_abandons_the_line),
        T(test_editing_keys_edit_the_line_before_it_runs),
        T(test_tab_and_escape_sequences_at_the_prompt),
        T(test_lowering_permissions_forgets_the_typed_lines),
        T(test_crlf_lf_and_cr_each_end_a_line_once),
        T(test_empty_line_gives_a_new_prompt_and_is_not_counted),
        T(test_exit_returns_to_waiting_and_commands_no_longer_run),
        T(test_the_lf_of_exits_crlf_neither_prompts_nor_knocks_in_any_mode),
        T(test_knock_typed_ahead_after_exit_enters_again),
        T(test_knock_command_shows_and_switches_the_mode),
        T(test_halt_keeps_the_cpu_and_polls_until_continue),
        T(test_gdb_sees_the_other_cpu_stopped_as_thread_2),
        T(test_the_shells_gdb_starts_on_cpu_0_whatever_cpu_was_selected),
        T(test_exit_while_halted_resumes_the_kernel),
        T(test_release_gives_the_port_away_until_the_kernel_rearms),
        T(test_release_is_refused_when_the_port_cannot_be_released),
        T(test_service_calls),
        T(test_reboot_resets_the_system),
        T(test_stats_count_bytes_noise_and_commands),
        T(test_stats_count_bytes_the_full_ring_dropped),
        T(test_stats_count_the_roundups_of_the_other_cpus),
        T(test_entry_halt_makes_a_knock_halt_every_cpu_until_continue),
        T(test_help_lists_every_command_uncut),
        T(test_version_shows_the_build_id_and_the_board),
        T(test_irqs_list_the_lines_that_are_in_use),
    };
    int failed = 0;

    failed += cmocka_run_group_tests_name("monitor, a FIFO load per FIQ", tests, deliver_fifo_loads,
                                          NULL);
    failed +=
        cmocka_run_group_tests_name("monitor, one byte per FIQ", tests, deliver_bytewise, NULL);
    return failed;
}
