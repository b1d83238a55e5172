/* SPDX-License-Identifier: MIT */
/* The GDB stub on the fake port: framing, acks, resends, every packet with its exact reply,
 * malformed arguments, faulting memory, run control and "monitor" commands. Expected
 * packets are framed by the tests' own checksum code (gdb_packets.c), not the stub's. */
#include "expect.h"

#include <stdio.h>
#include <stdlib.h>

#include "console.h"
#include "breakpoints.h"
#include "fake_port.h"
#include "gdb_packets.h"
#include "gdb_stub.h"
#include "fiqmon_features.h"
#include "monitor.h"

#define BASE FAKE_RAM_BASE
#define STOP "T02thread:01;"
#define MODE_CPSR (0x60000000u | ARM_PSR_I | ARM_MODE_SVC) /* nZCv, IRQs masked, svc */

static struct gdb_stub stub;
static struct cpu_frame frame;

/* --- helpers ------------------------------------------------------------------------------- */

/* Feeds bytes; every byte but the last must leave the CPU where it is. Returns the last
 * byte's action. */
static enum gdb_action feedn(const void *bytes, size_t n)
{
    const uint8_t *b = bytes;
    enum gdb_action a = GDB_STAY;

    for (size_t i = 0; i < n; i++) {
        EXPECT_TRUE(a == GDB_STAY, "byte %zu of %zu came after action %d", i, n, (int)a);
        a = gdb_stub_feed(&stub, b[i]);
    }
    return a;
}

static enum gdb_action feed(const char *s)
{
    return feedn(s, strlen(s));
}

/* Sends a packet; returns its action. Output so far is discarded first. */
static enum gdb_action send(const char *body)
{
    fake_output_reset();
    return feed(pkt(body));
}

/* The packet body must get exactly this reply (after its '+'), the CPU staying halted. */
#define EXPECT_REPLY(body, reply)                                                                  \
    do {                                                                                           \
        EXPECT_EQ(send(body), GDB_STAY);                                                           \
        EXPECT_STR_EQ(output(), tfmt("+%s", pkt(reply)));                                     \
    } while (0)

static const char *le32(uint32_t v)
{
    return tfmt("%02x%02x%02x%02x", v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, v >> 24);
}

static unsigned mem_writes(void)
{
    return fake.writes[1] + fake.writes[2] + fake.writes[4];
}

static int hexval(int c)
{
    return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

/* Splits output into packets, checking every checksum: the text of the O packets (hex
 * decoded) goes to text, the body of the last non-O packet to *last. Acks are skipped. */
static void split_output(const char *out, char *text, size_t text_max, const char **last)
{
    static char last_body[8192];
    size_t tn = 0;

    *last = NULL;
    while (*out) {
        if (*out == '+' || *out == '-') {
            out++;
            continue;
        }
        EXPECT_TRUE(*out == '$', "output %s: junk outside a packet", expect_escape(out));
        const char *hash = strchr(out, '#');
        EXPECT_TRUE(hash && hash[1] && hash[2], "unterminated packet %s", expect_escape(out));
        size_t n = (size_t)(hash - out - 1);
        EXPECT_STR_EQ(tfmt("%.*s", (int)(n + 4), out), pktn(out + 1, n));
        if (out[1] == 'O' && !(n == 2 && out[2] == 'K')) { /* GDB: "OK" ends qRcmd */
            EXPECT_TRUE((n - 1) % 2 == 0, "odd O packet %s", expect_escape(out));
            for (size_t i = 2; i < n + 1; i += 2) {
                assert_true(tn + 1 < text_max);
                text[tn++] = (char)(hexval(out[i]) << 4 | hexval(out[i + 1]));
            }
        } else {
            memcpy(last_body, out + 1, n);
            last_body[n] = '\0';
            *last = last_body;
        }
        out = hash + 3;
    }
    text[tn] = '\0';
}

static const char *hex_of(const char *s)
{
    static char out[1024];
    size_t n = 0;

    for (; *s; s++)
        n += (size_t)snprintf(out + n, sizeof(out) - n, "%02x", (unsigned char)*s);
    return out;
}

/* The stub's output so far, as GDB understands it (expand_wire). */
static const char *output(void)
{
    return expand_wire(fake_output(), fake_output_len());
}

static void init_frame(void)
{
    memset(&frame, 0, sizeof(frame));
    for (unsigned i = 0; i < 13; i++)
        frame.r[i] = 0xa0a00000u + i;
    for (unsigned i = 0; i < 5; i++)
        frame.fiq_r8_r12[i] = 0xf1f10008u + i;
    frame.sp_usr = 0x5000000du;
    frame.lr_usr = 0x5000000eu;
    frame.svc = (struct cpu_bank){0xc0de000du, 0xc0de000eu, 0x600001d3u};
    frame.irq = (struct cpu_bank){0x1a0000du, 0x1a0000eu, 0x1d2u};
    frame.pc = 0xc0001234u;
    frame.cpsr = MODE_CPSR;
}

static int setup(void **state)
{
    (void)state;
    fake_port_reset();
    monitor_init(1, &fiqmon_features);
    con_set_sink(NULL);
    init_frame();
    memset(&stub, 0xa5, sizeof(stub)); /* start must not rely on zeroed memory */
    gdb_stub_start(&stub, &frame);
    return 0;
}

/* The g packet for the current frame. */
static const char *regs_hex(void)
{
    static char out[17 * 8 + 1];
    size_t n = 0;

    for (unsigned i = 0; i < 16; i++)
        n += (size_t)snprintf(out + n, sizeof(out) - n, "%s", le32(*frame_reg(&frame, i)));
    snprintf(out + n, sizeof(out) - n, "%s", le32(frame.cpsr));
    return out;
}

/* --- framing ------------------------------------------------------------------------------- */

static void test_question_mark_gets_the_sigint_stop_reply(void **state)
{
    (void)state;
    EXPECT_REPLY("?", STOP);
}

static void test_bad_checksum_is_nacked_and_the_retransmission_answered(void **state)
{
    (void)state;
    fake_output_reset();
    EXPECT_EQ(feed("$?#40"), GDB_STAY);
    EXPECT_STR_EQ(output(), "-");
    fake_output_reset();
    EXPECT_EQ(feed("$?#3f"), GDB_STAY);
    EXPECT_STR_EQ(output(), tfmt("+%s", pkt(STOP)));
}

static void test_checksum_digits_that_are_not_hex_are_a_bad_checksum(void **state)
{
    (void)state;
    fake_output_reset();
    feed("$?#3g");
    feed("$?#g3");
    feed("$?#");
    feed("\x03");
    feed("3f"); /* 0x03 and the digits after a bad one are not a checksum */
    EXPECT_STR_EQ(output(), "---");
}

static void test_upper_case_checksum_is_accepted(void **state)
{
    (void)state;
    fake_output_reset();
    feed("$qC#B4");
    EXPECT_STR_EQ(output(), tfmt("+%s", pkt("QC01")));
}

static void test_bytes_outside_packets_are_ignored(void **state)
{
    (void)state;
    fake_output_reset();
    feed("hello\r\n#00}*\x7f\xff");
    EXPECT_STR_EQ(output(), "");
    EXPECT_REPLY("qC", "QC01");
}

static void test_dollar_inside_a_packet_starts_a_new_one(void **state)
{
    (void)state;
    fake_output_reset();
    feed("$m1000");
    feed(pkt("qC"));
    EXPECT_STR_EQ(output(), tfmt("+%s", pkt("QC01")));
    fake_output_reset();
    feed("$qC#$qC#b4"); /* a '$' where the checksum should be */
    EXPECT_STR_EQ(output(), tfmt("+%s", pkt("QC01")));
}

static void test_empty_packet_gets_the_empty_reply(void **state)
{
    (void)state;
    EXPECT_REPLY("", "");
}

static void test_minus_resends_the_last_reply_a_bounded_number_of_times(void **state)
{
    (void)state;
    EXPECT_REPLY("qC", "QC01");
    for (unsigned i = 0; i < GDB_MAX_RESENDS; i++) {
        fake_output_reset();
        feed("-");
        EXPECT_STR_EQ(output(), pkt("QC01"));
    }
    fake_output_reset();
    feed("---");
    EXPECT_STR_EQ(output(), "");
}

static void test_plus_forgets_the_reply(void **state)
{
    (void)state;
    EXPECT_REPLY("qC", "QC01");
    fake_output_reset();
    feed("+-");
    EXPECT_STR_EQ(output(), "");
}

static void test_minus_with_nothing_sent_does_nothing(void **state)
{
    (void)state;
    fake_output_reset();
    feed("-");
    feed("$?#00"); /* nacked by the stub: no reply of ours to resend */
    feed("-");
    EXPECT_STR_EQ(output(), "-");
}

static void test_the_resend_count_restarts_with_each_reply(void **state)
{
    (void)state;
    EXPECT_REPLY("qC", "QC01");
    feed("--");
    EXPECT_REPLY("?", STOP);
    fake_output_reset();
    for (unsigned i = 0; i < GDB_MAX_RESENDS; i++)
        feed("-");
    EXPECT_EQ(count_substr(output(), pkt(STOP)), GDB_MAX_RESENDS);
}

static void test_oversized_packet_is_nacked_and_changes_nothing(void **state)
{
    static char body[GDB_PACKET_SIZE + 2];
    (void)state;

    /* M of the right shape for its length, one byte too long for the buffer */
    size_t n = (size_t)snprintf(body, sizeof(body), "M%x,%x:", BASE, 0x400);
    memset(body + n, '7', sizeof(body) - 1 - n);
    body[sizeof(body) - 1] = '\0';
    EXPECT_EQ(strlen(body), GDB_PACKET_SIZE + 1);
    fake_output_reset();
    feed(pkt(body));
    EXPECT_STR_EQ(output(), "-");
    EXPECT_EQ(mem_writes(), 0);
    EXPECT_REPLY("qC", "QC01"); /* and the stub still works */
}

static void test_packet_of_exactly_packet_size_is_accepted(void **state)
{
    static char body[GDB_PACKET_SIZE + 1];
    (void)state;

    size_t data = GDB_PACKET_SIZE / 2, hdr;

    do { /* the longest M whose header and data fill the buffer exactly */
        data--;
        hdr = (size_t)snprintf(body, sizeof(body), "M%x,%zx:", BASE, data);
    } while (hdr + 2 * data > GDB_PACKET_SIZE);
    if (hdr + 2 * data < GDB_PACKET_SIZE) /* one short: pad the address with a zero */
        hdr = (size_t)snprintf(body, sizeof(body), "M0%x,%zx:", BASE, data);
    memset(body + hdr, '5', 2 * data);
    body[hdr + 2 * data] = '\0';
    EXPECT_EQ(strlen(body), GDB_PACKET_SIZE);
    EXPECT_REPLY(body, "OK");
    EXPECT_EQ(*fake_mem(BASE + (uint32_t)data - 1), 0x55);
}

static void test_no_ack_mode_drops_acks_after_its_ok(void **state)
{
    (void)state;
    EXPECT_REPLY("QStartNoAckMode", "OK");
    feed("+");
    fake_output_reset();
    feed(pkt("qC"));
    EXPECT_STR_EQ(output(), pkt("QC01"));
    fake_output_reset();
    feed("$qC#00"); /* bad checksum: dropped silently */
    feed("-");      /* no resends either */
    EXPECT_STR_EQ(output(), "");
}

static void test_no_ack_mode_ends_with_the_session(void **state)
{
    (void)state;
    EXPECT_REPLY("QStartNoAckMode", "OK");
    gdb_stub_start(&stub, &frame);
    EXPECT_REPLY("qC", "QC01");
}

/* --- registers ----------------------------------------------------------------------------- */

static void test_g_reads_r0_to_pc_then_cpsr_of_the_interrupted_mode(void **state)
{
    (void)state;
    EXPECT_REPLY("g", regs_hex());
    EXPECT_TRUE(starts_with(output(), "+$0000a0a00100a0a0"), "r0 first, little-endian");
    EXPECT_CONTAINS(output(), tfmt("%s%s%s%s", le32(0xc0de000du), le32(0xc0de000eu),
                                        le32(0xc0001234u), le32(MODE_CPSR)));
}

static void test_g_in_fiq_mode_shows_the_fiq_bank(void **state)
{
    (void)state;
    frame.cpsr = ARM_MODE_FIQ | ARM_PSR_F | ARM_PSR_I;
    frame.fiq = (struct cpu_bank){0xf1f1000du, 0xf1f1000eu, 0};
    EXPECT_REPLY("g", regs_hex());
    EXPECT_CONTAINS(output(), le32(0xf1f1000cu));
    EXPECT_CONTAINS(output(), le32(0xf1f1000du));
}

static void test_G_writes_every_register_and_g_reads_them_back(void **state)
{
    char body[1 + 17 * 8 + 1];
    (void)state;

    body[0] = 'G';
    for (unsigned i = 0; i < 16; i++)
        memcpy(body + 1 + 8 * i, le32(0x10203000u + i), 8);
    memcpy(body + 1 + 128, le32(0x200001d3u), 8); /* still svc: only the flags change */
    body[sizeof(body) - 1] = '\0';
    EXPECT_REPLY(body, "OK");
    for (unsigned i = 0; i < 13; i++)
        EXPECT_EQ(frame.r[i], 0x10203000u + i);
    EXPECT_EQ(frame.svc.sp, 0x1020300du);
    EXPECT_EQ(frame.svc.lr, 0x1020300eu);
    EXPECT_EQ(frame.pc, 0x1020300fu);
    EXPECT_EQ(frame.cpsr, 0x200001d3u);
    EXPECT_EQ(frame.sp_usr, 0x5000000du); /* other banks untouched */
    EXPECT_EQ(frame.irq.sp, 0x1a0000du);
    EXPECT_REPLY("g", body + 1);
}

static void test_G_changing_the_mode_leaves_sp_and_lr_in_the_old_bank(void **state)
{
    (void)state;
    char body[1 + 17 * 8 + 1];

    snprintf(body, sizeof(body), "G%s", regs_hex());
    memcpy(body + 1 + 13 * 8, le32(0x11110000u), 8);
    memcpy(body + 1 + 128, le32(ARM_MODE_IRQ | ARM_PSR_I), 8);
    EXPECT_REPLY(body, "OK");
    EXPECT_EQ(frame.svc.sp, 0x11110000u);
    EXPECT_EQ(frame.irq.sp, 0x1a0000du);
    EXPECT_EQ(frame.cpsr, ARM_MODE_IRQ | ARM_PSR_I);
}

static void test_p_reads_each_register_by_gdb_number(void **state)
{
    (void)state;
    for (unsigned n = 0; n < 16; n++)
        EXPECT_REPLY(tfmt("p%x", n), le32(*frame_reg(&frame, n)));
    EXPECT_REPLY("p19", le32(MODE_CPSR));
    EXPECT_REPLY("pf", le32(0xc0001234u));
    EXPECT_REPLY("p0000000d", le32(0xc0de000du));
}

static void test_P_writes_one_register(void **state)
{
    (void)state;
    EXPECT_REPLY(tfmt("Pd=%s", le32(0x8000fff0u)), "OK");
    EXPECT_EQ(frame.svc.sp, 0x8000fff0u);
    EXPECT_REPLY(tfmt("Pf=%s", le32(0xc0100000u)), "OK");
    EXPECT_EQ(frame.pc, 0xc0100000u);
    EXPECT_REPLY(tfmt("P3=%s", le32(0xdeadbeefu)), "OK");
    EXPECT_EQ(frame.r[3], 0xdeadbeefu);
    EXPECT_REPLY(tfmt("P19=%s", le32(0x800000d3u | ARM_PSR_T)), "OK");
    EXPECT_EQ(frame.cpsr, 0x800000d3u | ARM_PSR_T);
    EXPECT_REPLY(tfmt("P19=%s", le32(ARM_MODE_USR)), "OK"); /* among the classic modes */
    EXPECT_EQ(frame.cpsr, ARM_MODE_USR);
    EXPECT_REPLY(tfmt("Pd=%s", le32(0x7ffffff0u)), "OK"); /* now usr's sp */
    EXPECT_EQ(frame.sp_usr, 0x7ffffff0u);
    EXPECT_EQ(frame.svc.sp, 0x8000fff0u);
}

static void test_cpsr_cannot_enter_or_leave_monitor_hyp_or_reserved_modes(void **state)
{
    (void)state;
    EXPECT_REPLY(tfmt("P19=%s", le32(ARM_MODE_MON)), "E22");
    EXPECT_REPLY(tfmt("P19=%s", le32(ARM_MODE_HYP)), "E22");
    EXPECT_REPLY(tfmt("P19=%s", le32(0x14)), "E22");
    EXPECT_REPLY(tfmt("P19=%s", le32(0)), "E22");
    EXPECT_EQ(frame.cpsr, MODE_CPSR);
    frame.cpsr = ARM_MODE_MON;
    EXPECT_REPLY(tfmt("P19=%s", le32(ARM_MODE_SVC)), "E22");
    EXPECT_REPLY(tfmt("P19=%s", le32(0xf0000000u | ARM_MODE_MON)), "OK"); /* flags only */
    EXPECT_EQ(frame.cpsr, 0xf0000000u | ARM_MODE_MON);
}

static void test_G_with_a_forbidden_cpsr_writes_nothing(void **state)
{
    (void)state;
    char body[1 + 17 * 8 + 1];
    struct cpu_frame before = frame;

    snprintf(body, sizeof(body), "G%s", regs_hex());
    memcpy(body + 1, le32(0x12345678u), 8);
    memcpy(body + 1 + 128, le32(ARM_MODE_MON), 8);
    EXPECT_REPLY(body, "E22");
    EXPECT_TRUE(memcmp(&before, &frame, sizeof(frame)) == 0, "frame changed");
}

/* --- malformed arguments: E22, nothing changes ---------------------------------------------- */

struct bad_case {
    const char *body;
    const char *reply;
};

static const struct bad_case bad_cases[] = {
    {"p", "E22"},
    {"p10", "E22"}, /* no such register in the target description */
    {"p18", "E22"},
    {"p1a", "E22"},
    {"px", "E22"},
    {"p1 ", "E22"},
    {"p100000000", "E22"}, /* more than 32 bits */
    {"P", "E22"},
    {"P1", "E22"},
    {"P1=", "E22"},
    {"P1=1234567", "E22"},
    {"P1=123456789", "E22"},
    {"P1=1234567g", "E22"},
    {"P10=12345678", "E22"},
    {"P=12345678", "E22"},
    {"P1:12345678", "E22"},
    {"G", "E22"},
    {"G00", "E22"},
    {"m", "E22"},
    {"m10000000", "E22"},
    {"m10000000,", "E22"},
    {"m,4", "E22"},
    {"m10000000,4,", "E22"},
    {"m10000000;4", "E22"},
    {"m1000000g,4", "E22"},
    {"m100000000,4", "E22"},
    {"m10000000,100000000", "E22"},
    {"M10000000,4", "E22"},
    {"M10000000,4:", "E22"},
    {"M10000000,4:0011223", "E22"},
    {"M10000000,4:001122334", "E22"},
    {"M10000000,4:0011223g", "E22"},
    {"M10000000,2:0011223344", "E22"},
    {"M10000000:4,00112233", "E22"},
    {"X10000000,4", "E22"},
    {"X10000000,4:abc", "E22"},
    {"X10000000,4:abcde", "E22"},
    {"X10000000,4:abc}", "E22"},
    {"X,4:abcd", "E22"},
    {"c10000000x", "E22"},
    {"cx", "E22"},
    {"c100000000", "E22"},
    {"C", "E22"},
    {"Cx", "E22"},
    {"C02;", "E22"},
    {"C02;x", "E22"},
    {"C02:10000000", "E22"},
    {"vCont", "E22"},
    {"vCont;", "E22"},
    {"vCont;s", "E22"},
    {"vCont;c;s:1", "E22"},
    {"vCont;t", "E22"},
    {"vCont;C", "E22"},
    {"vCont;cx", "E22"},
    {"vCont;c;", "E22"},
    {"qRcmd,6", "E22"},
    {"qRcmd,6g", "E22"},
    {"qXfer:features:read:target.xml:", "E22"},
    {"qXfer:features:read:target.xml:0", "E22"},
    {"qXfer:features:read:target.xml:0,", "E22"},
    {"qXfer:features:read:target.xml:,10", "E22"},
    {"qXfer:features:read:target.xml:0,10x", "E22"},
    {"qXfer:features:read:target.xml:100000,10", "E22"},
    {"qXfer:features:read:other.xml:0,10", "E00"},
    {"qXfer:features:read:target.xm:0,10", "E00"},
    /* not packets the stub knows: the empty reply */
    {"vMustReplyEmpty", ""},
    {"vKill;1", ""},
    {"vCont!", ""},
    {"qTStatus", ""},
    {"qSupportedX", ""},
    {"qCX", ""},
    {"qAttachedX", ""},
    {"qfThreadInfoX", ""},
    {"qXfer:memory-map:read::0,100", ""},
    {"QStartNoAckModeX", ""},
    {"QNonStop:1", ""},
    {"?x", STOP}, /* trailing bytes on argument-less packets are harmless */
    {"Dx", ""},
    {"!", ""},
    {"3x", ""},
    {"\x80\xff", ""},
};

static void test_malformed_arguments_give_errors_and_change_nothing(void **state)
{
    (void)state;
    fake_mem_write(BASE, "\x11\x22\x33\x44", 4);
    for (size_t i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
        struct cpu_frame before = frame;
        const struct bad_case *c = &bad_cases[i];
        print_message("  %s\n", expect_escape(c->body));
        EXPECT_REPLY(c->body, c->reply);
        EXPECT_TRUE(memcmp(&before, &frame, sizeof(frame)) == 0, "%s changed the frame",
                    expect_escape(c->body));
        EXPECT_EQ(mem_writes(), 0);
        EXPECT_TRUE(gdb_stub_active(&stub) && !gdb_stub_running(&stub), "%s left the session",
                    expect_escape(c->body));
    }
}

/* --- memory -------------------------------------------------------------------------------- */

static void test_m_reads_aligned_words_as_words(void **state)
{
    (void)state;
    fake_mem_write(BASE, "\x01\x02\x03\x04\x05\x06\x07\x08", 8);
    EXPECT_REPLY(tfmt("m%x,8", BASE), "0102030405060708");
    EXPECT_EQ(fake.reads[4], 2);
    EXPECT_EQ(fake.reads[1], 0);
    EXPECT_EQ(fake.space, PORT_MEM_VIRTUAL);
}

static void test_m_reads_unaligned_edges_bytewise(void **state)
{
    (void)state;
    fake_mem_write(BASE, "\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a", 10);
    EXPECT_REPLY(tfmt("m%x,8", BASE + 1), "0203040506070809");
    EXPECT_EQ(fake.reads[4], 1);                     /* BASE + 4 */
    EXPECT_EQ(fake.reads[1], 4);                     /* 1, 2, 3 and 8 */
    EXPECT_REPLY(tfmt("m%x,3", BASE + 4), "050607"); /* less than a word left */
}

static void test_m_of_zero_bytes_is_empty(void **state)
{
    (void)state;
    EXPECT_REPLY(tfmt("m%x,0", BASE), "");
    EXPECT_REPLY("m0,0", "");
}

static void test_m_at_a_fault_gives_E14(void **state)
{
    (void)state;
    EXPECT_REPLY("m0,4", "E14");
    EXPECT_REPLY(tfmt("m%x,4", BASE + FAKE_RAM_SIZE), "E14");
    fake_mem_add_fault(BASE + 0x100, 0x10);
    EXPECT_REPLY(tfmt("m%x,1", BASE + 0x10f), "E14");
}

static void test_m_faulting_after_some_bytes_returns_those(void **state)
{
    (void)state;
    fake_mem_write(BASE + 0xf8, "\xaa\xbb\xcc\xdd\xee\xff\x11\x22", 8);
    fake_mem_add_fault(BASE + 0x100, 0x10);
    EXPECT_REPLY(tfmt("m%x,10", BASE + 0xf8), "aabbccddeeff1122");
    EXPECT_REPLY(tfmt("m%x,4", BASE + FAKE_RAM_SIZE - 2), "0000");
}

static void test_m_longer_than_a_reply_returns_what_fits(void **state)
{
    (void)state;
    for (uint32_t i = 0; i < 0x800; i++)
        *fake_mem(BASE + i) = (uint8_t)i;
    send(tfmt("m%x,800", BASE));
    const char *out = output();
    EXPECT_EQ(strlen(out), 1 + 1 + GDB_PACKET_SIZE + 3);
    EXPECT_TRUE(starts_with(out, "+$000102"), "starts at the address");
    EXPECT_EQ(strncmp(out + 2 + GDB_PACKET_SIZE - 4, "feff#", 5), 0);
}

static void test_m_stops_at_the_top_of_the_address_space(void **state)
{
    (void)state;
    /* fake RAM is nowhere near the top: the first byte faults, and nothing wraps to 0 */
    EXPECT_REPLY("mfffffffe,10", "E14");
    EXPECT_EQ(fake.faults, 1);
}

static void test_memory_packets_are_refused_while_the_port_cannot_catch_faults(void **state)
{
    (void)state;
    fake.mem_unavailable = "vectors moved";
    EXPECT_REPLY(tfmt("m%x,4", BASE), "E14");
    EXPECT_REPLY(tfmt("M%x,1:00", BASE), "E14");
    EXPECT_REPLY(tfmt("X%x,1:a", BASE), "E14");
    EXPECT_EQ(fake.space_accesses[0] + fake.space_accesses[1] + fake.space_accesses[2], 0);
}

static void test_M_writes_words_and_bytes(void **state)
{
    (void)state;
    EXPECT_REPLY(tfmt("M%x,6:112233445566", BASE + 2), "OK");
    EXPECT_EQ(memcmp(fake_mem(BASE), "\0\0\x11\x22\x33\x44\x55\x66\0", 9), 0);
    EXPECT_EQ(fake.writes[1], 2);
    EXPECT_EQ(fake.writes[4], 1);
    EXPECT_REPLY(tfmt("m%x,6", BASE + 2), "112233445566");
    EXPECT_REPLY(tfmt("M%x,2:AbCd", BASE), "OK");
    EXPECT_EQ(memcmp(fake_mem(BASE), "\xab\xcd\x11", 3), 0);
}

static void test_M_of_zero_bytes_is_ok_and_writes_nothing(void **state)
{
    (void)state;
    EXPECT_REPLY("M0,0:", "OK");
    EXPECT_EQ(mem_writes() + fake.faults, 0);
}

static void test_M_at_a_fault_gives_E14(void **state)
{
    (void)state;
    fake_mem_add_fault(BASE + 0x10, 4);
    EXPECT_REPLY(tfmt("M%x,4:01020304", BASE + 0x10), "E14");
    EXPECT_REPLY("M0,1:01", "E14");
    EXPECT_EQ(mem_writes(), 0);
}

static void test_M_that_would_wrap_past_the_top_writes_nothing(void **state)
{
    (void)state;
    EXPECT_REPLY("Mffffffff,2:0102", "E14");
    EXPECT_EQ(fake.space_accesses[0], 0);
}

static void test_X_writes_binary_with_escapes(void **state)
{
    (void)state;
    /* 0x23 '#', 0x24 '$', 0x7d '}', 0x2a '*' escaped; NUL and 0x03 raw */
    static const char body[] = "X10000001,7:\x00}\x03}\x04}]}\x0a\x03\xff";
    fake_output_reset();
    feedn(pktn(body, sizeof(body) - 1), sizeof(body) - 1 + 4);
    EXPECT_STR_EQ(output(), tfmt("+%s", pkt("OK")));
    EXPECT_EQ(memcmp(fake_mem(BASE + 1), "\x00\x23\x24\x7d\x2a\x03\xff", 7), 0);
    EXPECT_EQ(fake.writes[1], 3);
    EXPECT_EQ(fake.writes[4], 1);
}

static void test_X_of_zero_bytes_is_the_probe_and_says_ok(void **state)
{
    (void)state;
    EXPECT_REPLY(tfmt("X%x,0:", BASE), "OK");
    EXPECT_EQ(mem_writes(), 0);
}

static void test_X_at_a_fault_gives_E14(void **state)
{
    (void)state;
    EXPECT_REPLY("X0,2:ab", "E14");
}

/* --- run-length encoding and streamed m replies ------------------------------------------- */

/* The raw body of the one packet in the output (after the ack). */
static const char *raw_body(void)
{
    static char body[8192];
    const char *out = fake_output(), *d = strchr(out, '$'), *h = d ? strchr(d, '#') : NULL;

    EXPECT_TRUE(d && h, "no packet in %s", expect_escape(out));
    snprintf(body, sizeof(body), "%.*s", (int)(h - d - 1), d + 1);
    return body;
}

/* Memory at BASE whose hex is a run of exactly L '0' digits between 'a' digits: L / 2 zero
 * bytes, and for odd L one 0x0b more ("0b": its '0' ends the run), inside 0xaa bytes.
 * Returns the byte count; *want the hex GDB must see. */
static unsigned run_of_zeros(unsigned L, const char **want)
{
    static char hex[2 * GDB_PACKET_SIZE + 1];
    uint8_t *m = fake_mem(BASE);
    unsigned n = 0, wn = 0;

    m[n++] = 0xaa;
    for (unsigned i = 0; i < L / 2; i++)
        m[n++] = 0;
    if (L & 1)
        m[n++] = 0x0b;
    m[n++] = 0xaa;
    for (unsigned i = 0; i < n; i++)
        wn += (unsigned)snprintf(hex + wn, sizeof(hex) - wn, "%02x", m[i]);
    *want = hex;
    return n;
}

static void test_every_run_length_decodes_to_the_reply(void **state)
{
    (void)state;
    for (unsigned L = 1; L <= 600; L++) {
        const char *want;
        unsigned n = run_of_zeros(L, &want);
        size_t hex = strlen(want);
        EXPECT_REPLY(tfmt("m%x,%x", BASE, n), want); /* expand_wire checks the counts */
        size_t wire = strlen(raw_body());
        if (L >= 4)
            EXPECT_TRUE(wire < hex, "run of %u: %zu wire bytes for %zu", L, wire, hex);
        else
            EXPECT_EQ(wire, hex);
        /* 3 characters per 98 of the run, and at most 3 literal ones per piece */
        EXPECT_TRUE(wire <= hex - L + 6 * ((L + 97) / 98), "run of %u: %zu", L, wire);
    }
}

static void test_runs_whose_count_would_be_forbidden_are_split(void **state)
{
    (void)state;
    /* 7, 8, 15 and 17 copies would need '#', '$', '+' and '-' as the count */
    static const unsigned lens[] = {7, 8, 15, 17, 7 + 98, 17 + 98};
    for (unsigned i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
        const char *want;
        unsigned n = run_of_zeros(lens[i], &want);
        EXPECT_REPLY(tfmt("m%x,%x", BASE, n), want);
        const char *raw = raw_body();
        EXPECT_TRUE(strchr(raw, '*'), "run of %u not encoded: %s", lens[i], raw);
        for (const char *p = raw; (p = strchr(p, '*')) != NULL; p++)
            EXPECT_TRUE(!strchr("#$+-", p[1]), "run of %u: count '%c'", lens[i], p[1]);
    }
}

static void test_a_zeroed_kilobyte_is_a_few_dozen_wire_bytes(void **state)
{
    (void)state;
    memset(fake_mem(BASE), 0, 0x400);
    send(tfmt("m%x,400", BASE));
    EXPECT_TRUE(strlen(raw_body()) <= 3 * (0x800 / 98 + 1), "%zu", strlen(raw_body()));
    const char *exp = output();
    EXPECT_EQ(strlen(exp), 1 + 1 + 0x800 + 3);
    for (unsigned i = 0; i < 0x800; i++)
        EXPECT_EQ(exp[2 + i], '0');
}

static void test_o_packets_are_encoded_too(void **state)
{
    (void)state;
    /* md of 0x33 bytes: its text column "3333..." is a run of 32 '3's in hex: "3*<" */
    char text[4096];
    const char *last;
    memset(fake_mem(BASE), 0x33, 0x100);
    fake_output_reset();
    feed(pkt(tfmt("qRcmd,%s", hex_of("md 10000000 100 b"))));
    EXPECT_TRUE(strstr(fake_output(), "3*<"), "O packets not encoded: %s",
                expect_escape(fake_output()));
    split_output(output(), text, sizeof(text), &last);
    EXPECT_STR_EQ(last, "OK");
    EXPECT_TRUE(strstr(text, "100000f0: 33 33 33 33 33 33 33 33 33 33 33 33 33 33 33 33  "
                             "3333333333333333\n"),
                "%s", text);
}

static void test_minus_regenerates_an_m_reply_from_memory(void **state)
{
    (void)state;
    fake_mem_write(BASE, "\x01\x02\x03\x04", 4);
    EXPECT_REPLY(tfmt("m%x,4", BASE), "01020304");
    unsigned reads = fake.reads[4];
    fake_mem_write(BASE, "\x05\x06\x07\x08", 4);
    fake_output_reset();
    feed("-");
    EXPECT_STR_EQ(output(), pkt("05060708")); /* read again, not a stale copy */
    EXPECT_EQ(fake.reads[4], reads + 1);
    fake_mem_add_fault(BASE, 4);
    fake_output_reset();
    feed("-");
    EXPECT_STR_EQ(output(), pkt("E14"));
    fake_output_reset();
    feed("+-");
    EXPECT_STR_EQ(output(), ""); /* acked: forgotten */
}

static void test_an_m_reply_is_longer_than_anything_buffered(void **state)
{
    (void)state;
    /* the streamed reply (2 KiB of hex) is as long as the whole buffer: nothing of it is
     * held, and the request survives in buf for a resend */
    for (uint32_t i = 0; i < 0x400; i++)
        *fake_mem(BASE + i) = (uint8_t)(i * 37 + 11);
    send(tfmt("m%x,400", BASE));
    const char *once = tfmt("%s", output());
    EXPECT_EQ(strlen(once), 1 + 1 + 2 * 0x400 + 3);
    fake_output_reset();
    feed("-");
    EXPECT_STR_EQ(tfmt("+%s", output()), once);
}

/* GDB's escaping of X data, written independently of the stub: '#', '$', '}', '*' as '}',
 * c ^ 0x20. */
static size_t x_escape(const uint8_t *d, size_t n, char *out)
{
    size_t o = 0;

    for (size_t i = 0; i < n; i++) {
        if (d[i] == '#' || d[i] == '$' || d[i] == '}' || d[i] == '*') {
            out[o++] = '}';
            out[o++] = (char)(d[i] ^ 0x20);
        } else {
            out[o++] = (char)d[i];
        }
    }
    return o;
}

static void test_X_writes_every_byte_value_escaped_as_gdb_sends_it(void **state)
{
    (void)state;
    uint8_t data[512];
    char body[1200];

    for (unsigned i = 0; i < sizeof(data); i++)
        data[i] = (uint8_t)(i * 167 + 3); /* every value, twice, in scrambled order */
    size_t n = (size_t)snprintf(body, sizeof(body), "X%x,%x:", BASE + 3, (unsigned)sizeof(data));
    n += x_escape(data, sizeof(data), body + n);
    fake_output_reset();
    feedn(pktn(body, n), n + 4);
    EXPECT_STR_EQ(output(), tfmt("+%s", pkt("OK")));
    EXPECT_EQ(memcmp(fake_mem(BASE + 3), data, sizeof(data)), 0);
    EXPECT_EQ(*fake_mem(BASE + 3 + sizeof(data)), 0);
    /* a needlessly escaped byte decodes as well */
    static const char extra[] = "X10000000,2:}\x61}\x62";
    fake_output_reset();
    feedn(pktn(extra, sizeof(extra) - 1), sizeof(extra) - 1 + 4);
    EXPECT_STR_EQ(output(), tfmt("+%s", pkt("OK")));
    EXPECT_EQ(memcmp(fake_mem(BASE), "\x41\x42", 2), 0);
}

static void test_X_that_is_short_long_or_ends_in_an_escape_writes_nothing(void **state)
{
    (void)state;
    static const char *const bad[] = {"X10000000,4:abc", "X10000000,2:abc",
                                      "X10000000,2:a}", "X10000000,2:}", "X10000000,1:"};
    for (unsigned i = 0; i < 5; i++) {
        fake_output_reset();
        feedn(pkt(bad[i]), strlen(bad[i]) + 4);
        EXPECT_STR_EQ(output(), tfmt("+%s", pkt("E22")));
    }
    EXPECT_EQ(mem_writes(), 0);
}

static void test_X_faulting_midway_keeps_what_it_wrote_before_the_fault(void **state)
{
    (void)state;
    fake_mem_add_fault(BASE + 0x104, 4);
    EXPECT_REPLY(tfmt("X%x,8:ABCDEFGH", BASE + 0x100), "E14");
    EXPECT_EQ(memcmp(fake_mem(BASE + 0x100), "ABCD", 4), 0); /* the word before the fault */
    EXPECT_EQ(fake.writes[4], 1);
    EXPECT_EQ(fake.writes[1], 0);
}

/* --- run control --------------------------------------------------------------------------- */

static void test_c_resumes_without_a_reply_and_ctrl_c_stops_again(void **state)
{
    (void)state;
    fake_output_reset();
    EXPECT_EQ(send("c"), GDB_RESUME);
    EXPECT_STR_EQ(output(), "+");
    EXPECT_TRUE(gdb_stub_running(&stub), "running");
    EXPECT_EQ(frame.pc, 0xc0001234u);
    EXPECT_EQ(feed("\x03"), GDB_INTERRUPT);
    fake_output_reset();
    frame.pc = 0xc0005678u;
    gdb_stub_stopped(&stub, &frame, 0);
    EXPECT_STR_EQ(output(), pkt(STOP));
    EXPECT_TRUE(!gdb_stub_running(&stub), "halted");
    EXPECT_REPLY(tfmt("p%x", 15), le32(0xc0005678u));
}

static void test_stop_reply_is_resent_on_minus(void **state)
{
    (void)state;
    send("c");
    gdb_stub_stopped(&stub, &frame, 0);
    fake_output_reset();
    feed("-");
    EXPECT_STR_EQ(output(), pkt(STOP));
}

static void test_c_with_an_address_resumes_there(void **state)
{
    (void)state;
    EXPECT_EQ(send("cc0100000"), GDB_RESUME);
    EXPECT_EQ(frame.pc, 0xc0100000u);
}

static void test_C_ignores_the_signal_and_takes_an_address(void **state)
{
    (void)state;
    EXPECT_EQ(send("C0b"), GDB_RESUME);
    EXPECT_EQ(frame.pc, 0xc0001234u);
    gdb_stub_stopped(&stub, &frame, 0);
    EXPECT_EQ(send("C02;c0200000"), GDB_RESUME);
    EXPECT_EQ(frame.pc, 0xc0200000u);
}

static void test_vcont_query_lists_continue_only(void **state)
{
    (void)state;
    EXPECT_REPLY("vCont?", "vCont;c;C");
}

static void test_vcont_continue_forms_resume(void **state)
{
    static const char *const forms[] = {"vCont;c",     "vCont;c:1",      "vCont;c:-1", "vCont;C02",
                                        "vCont;C02:1", "vCont;c:p1.1;c", "vCont;C0b;c"};
    (void)state;

    for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
        fake_output_reset();
        EXPECT_EQ(send(forms[i]), GDB_RESUME);
        EXPECT_STR_EQ(output(), "+");
        EXPECT_EQ(frame.pc, 0xc0001234u);
        gdb_stub_stopped(&stub, &frame, 0);
    }
}

/* An empty reply would tell GDB "not supported", and GDB would then write its own
 * breakpoint instructions into the kernel with M/X; an error makes it give up. */
static void test_breakpoints_and_single_step_answer_an_error_and_touch_nothing(void **state)
{
    static const char *const bodies[] = {
        "Z0,10000000,4", "Z1,10000000,4", "Z2,10000000,4", "Z3,10000000,4", "Z4,10000000,4",
        "z0,10000000,4", "z1,10000000,4", "z2,10000000,4", "z3,10000000,4", "z4,10000000,4",
        "Z0,c0aa8ab4,4;X2,0000", "Z0", "s", "s10000000", "S05", "S05;10000000"};
    (void)state;
    struct cpu_frame before = frame;
    unsigned reads = fake.reads[1] + fake.reads[2] + fake.reads[4];

    for (size_t i = 0; i < sizeof(bodies) / sizeof(bodies[0]); i++) {
        EXPECT_REPLY(bodies[i], "E01");
        EXPECT_TRUE(gdb_stub_active(&stub) && !gdb_stub_running(&stub), "%s: still halted",
                    bodies[i]);
    }
    EXPECT_TRUE(memcmp(&before, &frame, sizeof(frame)) == 0, "frame changed");
    EXPECT_EQ(mem_writes(), 0);
    EXPECT_EQ(fake.reads[1] + fake.reads[2] + fake.reads[4], reads);
}

static void test_while_running_packets_are_acked_and_dropped(void **state)
{
    (void)state;
    send("c");
    fake_output_reset();
    EXPECT_EQ(feed(pkt("g")), GDB_STAY);
    EXPECT_EQ(feed(pkt(tfmt("M%x,1:ff", BASE))), GDB_STAY);
    EXPECT_EQ(feed(pkt("c")), GDB_STAY);
    EXPECT_EQ(feed("-"), GDB_STAY);
    EXPECT_STR_EQ(output(), "+++");
    EXPECT_EQ(mem_writes(), 0);
    EXPECT_TRUE(gdb_stub_running(&stub), "still running");
}

static void test_ctrl_c_while_halted_is_ignored(void **state)
{
    (void)state;
    fake_output_reset();
    EXPECT_EQ(feed("\x03"), GDB_STAY);
    EXPECT_STR_EQ(output(), "");
}

static void test_ctrl_c_inside_a_packet_is_data(void **state)
{
    (void)state;
    send("c");
    fake_output_reset();
    EXPECT_EQ(feed("$X0,1:\x03"), GDB_STAY);
    feed("#00");
    EXPECT_STR_EQ(output(), "-");
}

static void test_stopped_drops_a_partial_packet(void **state)
{
    (void)state;
    send("c");
    feed("$m1000");
    gdb_stub_stopped(&stub, &frame, 0);
    fake_output_reset();
    feed(",4#00");
    EXPECT_STR_EQ(output(), "");
    EXPECT_REPLY("qC", "QC01");
}

static void test_D_says_ok_and_detaches(void **state)
{
    (void)state;
    fake_output_reset();
    EXPECT_EQ(send("D"), GDB_DETACH);
    EXPECT_STR_EQ(output(), tfmt("+%s", pkt("OK")));
    EXPECT_TRUE(!gdb_stub_active(&stub), "session over");
    fake_output_reset();
    EXPECT_EQ(feed(pkt("g")), GDB_STAY); /* the stub no longer listens */
    EXPECT_EQ(feed("\x03-"), GDB_STAY);
    EXPECT_STR_EQ(output(), "");
}

static void test_D_with_a_pid_detaches(void **state)
{
    (void)state;
    EXPECT_EQ(send("D;1"), GDB_DETACH);
    EXPECT_STR_EQ(output(), tfmt("+%s", pkt("OK")));
}

static void test_k_detaches_without_a_reply(void **state)
{
    (void)state;
    EXPECT_EQ(send("k"), GDB_DETACH);
    EXPECT_STR_EQ(output(), "+");
    EXPECT_TRUE(!gdb_stub_active(&stub), "session over");
    EXPECT_EQ(frame.pc, 0xc0001234u);
}

static void test_escape_packet_drops_to_the_shell(void **state)
{
    (void)state;
    fake_output_reset();
    EXPECT_EQ(feed("$3#33"), GDB_SHELL);
    EXPECT_STR_EQ(output(), "+");
    EXPECT_TRUE(!gdb_stub_active(&stub), "session over");
}

static void test_escape_packet_while_running_drops_to_the_shell(void **state)
{
    (void)state;
    send("c");
    EXPECT_EQ(feed("$3#33"), GDB_SHELL);
    EXPECT_TRUE(!gdb_stub_active(&stub), "session over");
}

static void test_only_register_and_memory_packets_change_the_frame(void **state)
{
    static const char *const bodies[] = {"?",          "g",
                                         "p1",         "m0,4",
                                         "qC",         "qAttached",
                                         "H g0",       "Hc-1",
                                         "vCont?",     "s",
                                         "Z0,0,4",     "qRcmd,68656c70",
                                         "qSupported", "qXfer:features:read:target.xml:0,10"};
    (void)state;
    struct cpu_frame before = frame;

    for (size_t i = 0; i < sizeof(bodies) / sizeof(bodies[0]); i++)
        send(bodies[i]);
    EXPECT_TRUE(memcmp(&before, &frame, sizeof(frame)) == 0, "frame changed");
    EXPECT_EQ(mem_writes(), 0);
}

/* --- queries ------------------------------------------------------------------------------- */

static void test_qsupported_advertises_what_the_stub_does(void **state)
{
    (void)state;
    const char *want = "PacketSize=800;qXfer:features:read+;QStartNoAckMode+;vContSupported+";

    EXPECT_REPLY("qSupported", want);
    EXPECT_REPLY("qSupported:multiprocess+;swbreak+;hwbreak+;qRelocInsn+;fork-events+;"
                 "vfork-events+;exec-events+;vContSupported+;QThreadEvents+;no-resumed+;"
                 "xmlRegisters=i386",
                 want);
    EXPECT_EQ(GDB_PACKET_SIZE, 0x800);
}

/* With a debug unit: swbreak+ and hwbreak+ too, and a breakpoint's stop says which kind
 * (only to a GDB that offered both); a step's stop says neither. */
static void test_breakpoint_stops_say_their_kind_to_a_gdb_that_takes_it(void **state)
{
    (void)state;
    fake.debug_bps = 6;
    fake.debug_wps = 4;
    debug_reset();
    EXPECT_REPLY("qSupported:multiprocess+;swbreak+;hwbreak+;vContSupported+",
                 "PacketSize=800;qXfer:features:read+;QStartNoAckMode+;vContSupported+;"
                 "swbreak+;hwbreak+");
    static const struct {
        struct debug_stop stop;
        const char *reply;
    } cases[] = {
        {{.valid = true, .soft = true}, "T05thread:01;swbreak:;"},
        {{.valid = true, .number = 1}, "T05thread:01;hwbreak:;"},
        {{.valid = true, .step = true}, "T05thread:01;"},
        {{.valid = true, .watch = true, .kind = WATCH_WRITE, .addr = 0xc0001000u},
         "T05thread:01;watch:c0001000;"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        send("c");
        debug_last_stop = cases[i].stop;
        fake_output_reset();
        gdb_stub_stopped(&stub, &frame, 0);
        EXPECT_STR_EQ(output(), pkt(cases[i].reply));
    }
    gdb_stub_start(&stub, &frame); /* a GDB that did not offer them */
    EXPECT_REPLY("qSupported:multiprocess+;swbreak+",
                 "PacketSize=800;qXfer:features:read+;QStartNoAckMode+;vContSupported+;"
                 "swbreak+;hwbreak+");
    send("c");
    debug_last_stop = cases[0].stop;
    fake_output_reset();
    gdb_stub_stopped(&stub, &frame, 0);
    EXPECT_STR_EQ(output(), pkt("T05thread:01;"));
    debug_last_stop.valid = false;
}

/* With a debug unit: malformed breakpoint, watchpoint and step packets answer E22 (an
 * unmapped address E14, a thread that is not there E03), and nothing is set or armed. */
static void test_bad_breakpoint_packets_with_a_debug_unit_set_nothing(void **state)
{
    static const struct {
        const char *body, *reply;
    } cases[] = {
        {"Z1", "E22"},          {"Z1,", "E22"},          {"Z1,10000000", "E22"},
        {"Z1,10000000,", "E22"}, {"Z1,zz,4", "E22"},      {"Z1,10000000,5", "E22"},
        {"Z5,10000000,4", "E22"}, {"Z1,10000000,4x", "E22"}, {"Z2,10000002,4", "E22"},
        {"Z2,10000000,3", "E22"}, {"Z1,0,4", "E14"},      {"Z0,0,4", "E14"},
        {"vCont;s:9", "E03"},    {"vCont;s:2", "E03"},    {"vCont;s;s", "E22"},
        {"vCont;s:", "E22"},     {"vCont;x", "E22"},      {"s;", "E22"},
    };
    struct cpu_frame before = frame;
    (void)state;

    fake.debug_bps = 6;
    fake.debug_wps = 4;
    debug_reset();
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        EXPECT_REPLY(cases[i].body, cases[i].reply);
        EXPECT_TRUE(gdb_stub_active(&stub) && !gdb_stub_running(&stub), "%s: still halted",
                    cases[i].body);
    }
    for (unsigned n = 0; n < 6; n++)
        EXPECT_TRUE(!fake.bp_on[n], "breakpoint register %u", n);
    for (unsigned n = 0; n < 4; n++)
        EXPECT_TRUE(!fake.wp_on[n], "watchpoint register %u", n);
    EXPECT_EQ(debug_soft_count(), 0u);
    EXPECT_EQ(mem_writes(), 0);
    EXPECT_TRUE(memcmp(&before, &frame, sizeof(frame)) == 0, "frame changed");
}

static void test_thread_queries_describe_one_thread(void **state)
{
    (void)state;
    EXPECT_REPLY("qAttached", "1");
    EXPECT_REPLY("qAttached:1", "1");
    EXPECT_REPLY("qC", "QC01");
    EXPECT_REPLY("qfThreadInfo", "m01");
    EXPECT_REPLY("qsThreadInfo", "l");
    EXPECT_REPLY("Hg0", "OK");
    EXPECT_REPLY("Hc-1", "OK");
    EXPECT_REPLY("Hg1", "OK");
    EXPECT_REPLY("T1", "OK");
    EXPECT_REPLY("T01", "OK");
    EXPECT_REPLY("T2", "E03");
    EXPECT_REPLY("Hg2", "E03");
    EXPECT_REPLY("qThreadExtraInfo,1", hex_of("CPU 0 [halted]"));
    EXPECT_REPLY("qThreadExtraInfo,2", "E03");
    EXPECT_REPLY("g", regs_hex());
}

/* Four CPUs: 0 (the session's frame), 1 and 3 on and stopped by the roundup, 2 off. */
static struct cpu_frame *four_cpus(void)
{
    struct cpu_frame f = frame;

    fake.desc.cpus = 4;
    for (unsigned i = 0; i < 13; i++)
        f.r[i] = 0x31000000u + i;
    f.svc.sp = 0x3100000du;
    f.svc.lr = 0x3100000eu;
    f.pc = 0xc0003333u;
    fake_cpu_set(3, true, &f);
    f.pc = 0xc0001111u;
    f.r[0] = 0x11000000u;
    fake_cpu_set(1, true, &f);
    fake_cpu_set(2, false, &f);
    port_cpus_hold(true); /* what the monitor does before it feeds GDB's bytes */
    return fake_cpu_frame(3);
}

/* The g packet for any frame. */
static const char *regs_hex_of(struct cpu_frame *f)
{
    static char out[17 * 8 + 1];
    size_t n = 0;

    for (unsigned i = 0; i < 16; i++)
        n += (size_t)snprintf(out + n, sizeof(out) - n, "%s", le32(*frame_reg(f, i)));
    snprintf(out + n, sizeof(out) - n, "%s", le32(f->cpsr));
    return out;
}

static void test_every_online_cpu_is_a_thread(void **state)
{
    (void)state;
    four_cpus();
    EXPECT_REPLY("qfThreadInfo", "m01,02,04");
    EXPECT_REPLY("qsThreadInfo", "l");
    EXPECT_REPLY("qC", "QC01");
    EXPECT_REPLY("T1", "OK");
    EXPECT_REPLY("T2", "OK");
    EXPECT_REPLY("T4", "OK");
    EXPECT_REPLY("T3", "E03"); /* CPU 2 is off */
    EXPECT_REPLY("T5", "E03"); /* there is no CPU 4 */
    EXPECT_REPLY("Tff", "E03");
    EXPECT_REPLY("qThreadExtraInfo,4", hex_of("CPU 3 [halted]"));
    EXPECT_REPLY("qThreadExtraInfo,3", "E03");
}

static void test_hg_selects_the_cpu_whose_frame_g_and_p_read(void **state)
{
    (void)state;
    struct cpu_frame *cpu3 = four_cpus();

    EXPECT_REPLY("Hg4", "OK");
    EXPECT_REPLY("qC", "QC04");
    EXPECT_REPLY("g", regs_hex_of(cpu3));
    EXPECT_REPLY("pf", le32(0xc0003333u));
    EXPECT_REPLY("pd", le32(0x3100000du)); /* svc's sp: CPU 3 runs in svc */
    EXPECT_REPLY("?", "T02thread:04;");
    EXPECT_REPLY("Hg2", "OK");
    EXPECT_REPLY("pf", le32(0xc0001111u));
    EXPECT_REPLY("p0", le32(0x11000000u));
    EXPECT_REPLY("Hg1", "OK");
    EXPECT_REPLY("g", regs_hex());
    EXPECT_REPLY("Hg0", "OK"); /* any: stays where it is */
    EXPECT_REPLY("qC", "QC01");
    EXPECT_REPLY("Hc4", "OK"); /* continue's thread: checked, changes nothing */
    EXPECT_REPLY("qC", "QC01");
    EXPECT_REPLY("g", regs_hex());
}

static void test_G_and_P_write_the_selected_cpus_frame_only(void **state)
{
    (void)state;
    struct cpu_frame *cpu3 = four_cpus();
    struct cpu_frame own = frame, cpu1 = *fake_cpu_frame(1), want = *cpu3;
    char g_body[1 + 17 * 8 + 1];

    EXPECT_REPLY("Hg4", "OK");
    EXPECT_REPLY(tfmt("Pf=%s", le32(0xc0004444u)), "OK");
    want.pc = 0xc0004444u;
    EXPECT_TRUE(memcmp(cpu3, &want, sizeof(want)) == 0, "P: CPU 3's frame");
    want.r[5] = 0x55555555u;
    snprintf(g_body, sizeof(g_body), "G%s", regs_hex_of(&want));
    EXPECT_REPLY(g_body, "OK");
    EXPECT_TRUE(memcmp(cpu3, &want, sizeof(want)) == 0, "G: CPU 3's frame");
    EXPECT_TRUE(memcmp(&frame, &own, sizeof(own)) == 0, "CPU 0's frame changed");
    EXPECT_TRUE(memcmp(fake_cpu_frame(1), &cpu1, sizeof(cpu1)) == 0, "CPU 1's frame changed");
}

static void test_a_cpu_that_missed_the_roundup_is_listed_running_without_registers(void **state)
{
    (void)state;
    four_cpus();
    fake.cpus_late = 1u << 1;
    port_cpus_hold(true);
    EXPECT_REPLY("qfThreadInfo", "m01,02,04");
    EXPECT_REPLY("qThreadExtraInfo,2", hex_of("CPU 1 [running]"));
    EXPECT_REPLY("T2", "OK");
    EXPECT_REPLY("Hg2", "OK");
    EXPECT_REPLY("g", "E03");
    EXPECT_REPLY("pf", "E03");
    EXPECT_REPLY(tfmt("Pf=%s", le32(0)), "E03");
    EXPECT_EQ(fake_cpu_frame(1)->pc, 0xc0001111u);
}

static void test_a_stop_names_cpu_0_and_selects_it_again(void **state)
{
    (void)state;
    four_cpus();
    EXPECT_REPLY("Hg4", "OK");
    EXPECT_EQ(send("c"), GDB_RESUME);
    fake_output_reset();
    EXPECT_EQ(feed("\x03"), GDB_INTERRUPT);
    gdb_stub_stopped(&stub, &frame, 0);
    EXPECT_STR_EQ(output(), pkt("T02thread:01;"));
    EXPECT_REPLY("qC", "QC01");
    EXPECT_REPLY("g", regs_hex());
}

/* Malformed thread ids, unknown threads: an error, and the selection stays. */
static void test_bad_thread_ids_change_nothing(void **state)
{
    static const struct bad_case thread_cases[] = {
        {"H", "E22"},        {"Hg", "E22"},       {"Hgx", "E22"},      {"Hg-2", "E22"},
        {"Hg-", "E22"},      {"Hg 4", "E22"},     {"Hg4 ", "E22"},     {"Hg4;", "E22"},
        {"Hgp1.4", "E22"},   {"Hx4", "E22"},      {"Hs4", "E22"},      {"Hc", "E22"},
        {"Hg100000000", "E22"}, {"T", "E22"},     {"Tx", "E22"},       {"T-2", "E22"},
        {"qThreadExtraInfo,", "E22"}, {"qThreadExtraInfo,zz", "E22"},
        {"Hg3", "E03"},      {"Hg5", "E03"},      {"Hgffffffff", "E03"}, {"Hc3", "E03"},
        {"T3", "E03"},       {"T100", "E03"},     {"qThreadExtraInfo,9", "E03"},
    };
    (void)state;
    four_cpus();
    EXPECT_REPLY("Hg2", "OK");
    struct cpu_frame own = frame, cpu1 = *fake_cpu_frame(1);
    for (size_t i = 0; i < sizeof(thread_cases) / sizeof(thread_cases[0]); i++) {
        print_message("  %s\n", thread_cases[i].body);
        EXPECT_REPLY(thread_cases[i].body, thread_cases[i].reply);
        EXPECT_REPLY("qC", "QC02");
    }
    EXPECT_TRUE(memcmp(&frame, &own, sizeof(own)) == 0, "CPU 0's frame changed");
    EXPECT_TRUE(memcmp(fake_cpu_frame(1), &cpu1, sizeof(cpu1)) == 0, "CPU 1's frame changed");
    EXPECT_EQ(mem_writes(), 0);
}

/* qXfer reads of target.xml with chunks of len: the whole document, and how many parts. */
static const char *read_target_xml(unsigned len, unsigned *parts)
{
    static char doc[4096];
    size_t n = 0;

    *parts = 0;
    for (;;) {
        EXPECT_EQ(send(tfmt("qXfer:features:read:target.xml:%zx,%x", n, len)), GDB_STAY);
        const char *out = output();
        EXPECT_TRUE(out[0] == '+' && out[1] == '$', "reply %s", expect_escape(out));
        char kind = out[2];
        const char *hash = strrchr(out, '#');
        size_t k = (size_t)(hash - out - 3);
        EXPECT_TRUE(kind == 'm' || kind == 'l', "reply %s", expect_escape(out));
        EXPECT_TRUE(k <= len, "%zu bytes for a request of %u", k, len);
        EXPECT_STR_EQ(out + 1, pktn(out + 2, k + 1));
        assert_true(n + k < sizeof(doc));
        memcpy(doc + n, out + 3, k);
        n += k;
        ++*parts;
        if (kind == 'l')
            break;
        EXPECT_TRUE(k > 0, "empty 'm' part");
        assert_true(*parts < 4096);
    }
    doc[n] = '\0';
    return doc;
}

static void test_target_xml_describes_arm_core_with_cpsr_as_25(void **state)
{
    unsigned parts;
    (void)state;

    const char *doc = read_target_xml(0x3fb, &parts);
    EXPECT_EQ(parts, 1);
    EXPECT_TRUE(starts_with(doc, "<?xml version=\"1.0\"?>"), "xml declaration");
    EXPECT_CONTAINS(doc, "<!DOCTYPE target SYSTEM \"gdb-target.dtd\">");
    EXPECT_CONTAINS(doc, "<architecture>arm</architecture>");
    EXPECT_CONTAINS(doc, "<feature name=\"org.gnu.gdb.arm.core\">");
    for (unsigned i = 0; i < 13; i++)
        EXPECT_CONTAINS(doc, tfmt("<reg name=\"r%u\" bitsize=\"32\"/>", i));
    EXPECT_CONTAINS(doc, "<reg name=\"sp\" bitsize=\"32\" type=\"data_ptr\"/>");
    EXPECT_CONTAINS(doc, "<reg name=\"lr\" bitsize=\"32\"/>");
    EXPECT_CONTAINS(doc, "<reg name=\"pc\" bitsize=\"32\" type=\"code_ptr\"/>");
    EXPECT_CONTAINS(doc, "<reg name=\"cpsr\" bitsize=\"32\" regnum=\"25\"/>");
    EXPECT_TRUE(ends_with(doc, "</feature></target>"), "document end");
    EXPECT_EQ(count_substr(doc, "<reg "), 17);
    /* registers in regnum order: r0 first, cpsr last */
    EXPECT_TRUE(strstr(doc, "\"r0\"") < strstr(doc, "\"r1\"") &&
                    strstr(doc, "\"pc\"") < strstr(doc, "\"cpsr\""),
                "register order");
}

static void test_target_xml_reads_the_same_in_any_chunk_size(void **state)
{
    static const unsigned sizes[] = {1, 7, 0x40, 0x100, 0x3fb, 0x10000};
    static char whole[4096];
    unsigned parts;
    (void)state;

    snprintf(whole, sizeof(whole), "%s", read_target_xml(0x10000, &parts));
    size_t size = strlen(whole);
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        EXPECT_STR_EQ(read_target_xml(sizes[i], &parts), whole);
        EXPECT_EQ(parts, (size + sizes[i] - 1) / sizes[i]);
    }
    EXPECT_REPLY(tfmt("qXfer:features:read:target.xml:%zx,10", size), "l");
    EXPECT_REPLY(tfmt("qXfer:features:read:target.xml:%zx,10", size + 1), "E22");
    EXPECT_REPLY(tfmt("qXfer:features:read:target.xml:%zx,0", size - 1), "m");
}

/* --- monitor commands ---------------------------------------------------------------------- */

static void rcmd(const char *line, char *text, size_t text_max, const char **last)
{
    EXPECT_EQ(send(tfmt("qRcmd,%s", hex_of(line))), GDB_STAY);
    EXPECT_TRUE(starts_with(output(), "+$"), "ack first");
    split_output(output(), text, text_max, last);
}

static void test_monitor_command_output_goes_to_gdb_as_O_packets(void **state)
{
    static char text[65536];
    const char *last;
    (void)state;

    rcmd("help", text, sizeof(text), &last);
    EXPECT_STR_EQ(last, "OK");
    EXPECT_CONTAINS(text, "help");
    EXPECT_CONTAINS(text, "version");
    EXPECT_CONTAINS(text, "[-p] ADDR [LEN] [b|h|w]");
    EXPECT_NOT_CONTAINS(text, "\r");
    EXPECT_NOT_CONTAINS(output(), "version"); /* nothing raw on the wire */
    EXPECT_TRUE(count_substr(output(), "$O") > 1, "several O packets");
}

/* Commands print a field or a character at a time; GDB gets them gathered, each O packet
 * as full as the PacketSize it was told allows, so a dump is a few dozen packets, not
 * thousands. */
static void test_monitor_output_is_batched_into_few_full_O_packets(void **state)
{
    static char text[65536], line[64], dump[32], words[32];
    const char *cmds[] = {"help", "version", dump, words};
    const char *last;
    (void)state;

    snprintf(dump, sizeof(dump), "md %x 1000 b", BASE);
    snprintf(words, sizeof(words), "md %x 40", BASE);
    for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
        rcmd(cmds[i], text, sizeof(text), &last);
        size_t n = strlen(text), per = (GDB_PACKET_SIZE - 1) / 2;
        EXPECT_STR_EQ(last, "OK");
        EXPECT_TRUE(n > 0, "%s printed nothing", cmds[i]);
        EXPECT_EQ(count_substr(output(), "$O") - 1, (n + per - 1) / per); /* - $OK */
        /* nothing lost, nothing reordered: the same text as on the shell's port */
        fake_output_reset();
        snprintf(line, sizeof(line), "%s", cmds[i]);
        command_execute(command_tables, line, CMD_ALL_PERMISSIONS);
        char *port = (char *)output();
        for (char *r; (r = strstr(port, "\r\n")) != NULL;)
            memmove(r, r + 1, strlen(r));
        EXPECT_STR_EQ(text, port);
    }
}

static void test_monitor_command_reads_memory(void **state)
{
    char text[4096];
    const char *last;
    (void)state;

    fake_mem_write(BASE, "\xef\xbe\xad\xde", 4);
    rcmd(tfmt("md %x 4", BASE), text, sizeof(text), &last);
    EXPECT_STR_EQ(last, "OK");
    EXPECT_CONTAINS(text, "deadbeef");
}

static void test_long_monitor_output_is_split_into_bounded_packets(void **state)
{
    static char text[65536];
    const char *last;
    (void)state;

    rcmd(tfmt("md %x 1000 b", BASE), text, sizeof(text), &last);
    EXPECT_STR_EQ(last, "OK");
    EXPECT_TRUE(strlen(text) > 4096 * 3, "the whole dump came through (%zu)", strlen(text));
    for (const char *p = output(); (p = strchr(p, '$')) != NULL; p++)
        EXPECT_TRUE(strchr(p, '#') - p - 1 <= (long)GDB_PACKET_SIZE, "packet too long");
}

static void test_monitor_command_errors_come_back_as_text(void **state)
{
    char text[4096];
    const char *last;
    (void)state;

    rcmd("frobnicate", text, sizeof(text), &last);
    EXPECT_STR_EQ(last, "OK");
    EXPECT_STR_EQ(text, "error: unknown command 'frobnicate' (try help)\n");
}

static void test_monitor_cannot_take_run_control_from_gdb(void **state)
{
    static const char *const cmds[] = {"halt", "continue", "c",      "release",
                                       "go 0", "boot",     "knock 0"};
    char text[4096];
    const char *last;
    (void)state;

    for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
        rcmd(cmds[i], text, sizeof(text), &last);
        EXPECT_STR_EQ(last, "OK");
        EXPECT_CONTAINS(text, "is not permitted now");
    }
    EXPECT_EQ(monitor_knock_mode(), 1);
    EXPECT_TRUE(!monitor_halted(), "not halted by monitor halt");
}

static void test_empty_monitor_command_says_ok(void **state)
{
    (void)state;
    EXPECT_REPLY("qRcmd,", "OK");
    EXPECT_REPLY("qRcmd,20202020", "OK");
}

static void test_console_goes_back_to_the_port_after_a_monitor_command(void **state)
{
    (void)state;
    send(tfmt("qRcmd,%s", hex_of("version")));
    fake_output_reset();
    con_puts("x\n");
    EXPECT_STR_EQ(output(), "x\r\n");
}

static char sunk[256];
static size_t sunk_len, sink_calls;

static void test_sink(const char *s, size_t n)
{
    assert_true(sunk_len + n < sizeof(sunk));
    memcpy(sunk + sunk_len, s, n);
    sunk_len += n;
    sunk[sunk_len] = '\0';
    sink_calls++;
}

static void test_console_sink_takes_output_as_written(void **state)
{
    (void)state;
    sunk_len = sink_calls = 0;
    fake_output_reset();
    con_set_sink(test_sink);
    con_write("ab\n", 3);
    con_puts("cd\n");
    con_printf("%s=%x\n", "e", 0xf);
    EXPECT_EQ(con_error("bad %d", 7), -1);
    con_set_sink(NULL);
    EXPECT_STR_EQ(sunk, "ab\ncd\ne=f\nerror: bad 7\n");
    EXPECT_STR_EQ(output(), "");
    con_puts("g\n");
    EXPECT_STR_EQ(output(), "g\r\n");
}

/* --- entry from the knock detector ---------------------------------------------------------- */

static void test_start_packet_acks_and_answers_the_first_packet(void **state)
{
    (void)state;
    fake_output_reset();
    EXPECT_EQ(gdb_stub_start_packet(&gdb, &frame, "qSupported:multiprocess+", 24), GDB_STAY);
    EXPECT_STR_EQ(output(), tfmt("+%s", pkt("PacketSize=800;qXfer:features:read+;"
                                                 "QStartNoAckMode+;vContSupported+")));
    fake_output_reset();
    EXPECT_EQ(gdb_stub_start_packet(&gdb, &frame, "?", 1), GDB_STAY);
    EXPECT_STR_EQ(output(), tfmt("+%s", pkt(STOP)));
    fake_output_reset();
    gdb_stub_feed(&gdb, '-');
    EXPECT_STR_EQ(output(), pkt(STOP));
}

static void test_packet_api_ignores_oversized_bodies_and_a_stub_not_in_session(void **state)
{
    static char big[GDB_PACKET_SIZE + 1];
    (void)state;

    memset(big, 'g', sizeof(big));
    fake_output_reset();
    EXPECT_EQ(gdb_stub_packet(&stub, big, sizeof(big)), GDB_STAY);
    EXPECT_EQ(gdb_stub_packet(&stub, "k", 1), GDB_DETACH);
    EXPECT_EQ(gdb_stub_packet(&stub, "g", 1), GDB_STAY);
    EXPECT_STR_EQ(output(), "");
}

int main(void)
{
#define T(name) cmocka_unit_test_setup(name, setup)
    const struct CMUnitTest tests[] = {
        T(test_question_mark_gets_the_sigint_stop_reply),
        T(test_bad_checksum_is_nacked_and_the_retransmission_answered),
        T(test_checksum_digits_that_are_not_hex_are_a_bad_checksum),
        T(test_upper_case_checksum_is_accepted),
        T(test_bytes_outside_packets_are_ignored),
        T(test_dollar_inside_a_packet_starts_a_new_one),
        T(test_empty_packet_gets_the_empty_reply),
        T(test_minus_resends_the_last_reply_a_bounded_number_of_times),
        T(test_plus_forgets_the_reply),
        T(test_minus_with_nothing_sent_does_nothing),
        T(test_the_resend_count_restarts_with_each_reply),
        T(test_oversized_packet_is_nacked_and_changes_nothing),
        T(test_packet_of_exactly_packet_size_is_accepted),
        T(test_no_ack_mode_drops_acks_after_its_ok),
        T(test_no_ack_mode_ends_with_the_session),
        T(test_g_reads_r0_to_pc_then_cpsr_of_the_interrupted_mode),
        T(test_g_in_fiq_mode_shows_the_fiq_bank),
        T(test_G_writes_every_register_and_g_reads_them_back),
        T(test_G_changing_the_mode_leaves_sp_and_lr_in_the_old_bank),
        T(test_p_reads_each_register_by_gdb_number),
        T(test_P_writes_one_register),
        T(test_cpsr_cannot_enter_or_leave_monitor_hyp_or_reserved_modes),
        T(test_G_with_a_forbidden_cpsr_writes_nothing),
        T(test_malformed_arguments_give_errors_and_change_nothing),
        T(test_m_reads_aligned_words_as_words),
        T(test_m_reads_unaligned_edges_bytewise),
        T(test_m_of_zero_bytes_is_empty),
        T(test_m_at_a_fault_gives_E14),
        T(test_m_faulting_after_some_bytes_returns_those),
        T(test_m_longer_than_a_reply_returns_what_fits),
        T(test_m_stops_at_the_top_of_the_address_space),
        T(test_memory_packets_are_refused_while_the_port_cannot_catch_faults),
        T(test_M_writes_words_and_bytes),
        T(test_M_of_zero_bytes_is_ok_and_writes_nothing),
        T(test_M_at_a_fault_gives_E14),
        T(test_M_that_would_wrap_past_the_top_writes_nothing),
        T(test_X_writes_binary_with_escapes),
        T(test_X_of_zero_bytes_is_the_probe_and_says_ok),
        T(test_X_at_a_fault_gives_E14),
        T(test_every_run_length_decodes_to_the_reply),
        T(test_runs_whose_count_would_be_forbidden_are_split),
        T(test_a_zeroed_kilobyte_is_a_few_dozen_wire_bytes),
        T(test_o_packets_are_encoded_too),
        T(test_minus_regenerates_an_m_reply_from_memory),
        T(test_an_m_reply_is_longer_than_anything_buffered),
        T(test_X_writes_every_byte_value_escaped_as_gdb_sends_it),
        T(test_X_that_is_short_long_or_ends_in_an_escape_writes_nothing),
        T(test_X_faulting_midway_keeps_what_it_wrote_before_the_fault),
        T(test_c_resumes_without_a_reply_and_ctrl_c_stops_again),
        T(test_stop_reply_is_resent_on_minus),
        T(test_c_with_an_address_resumes_there),
        T(test_C_ignores_the_signal_and_takes_an_address),
        T(test_vcont_query_lists_continue_only),
        T(test_vcont_continue_forms_resume),
        T(test_breakpoints_and_single_step_answer_an_error_and_touch_nothing),
        T(test_while_running_packets_are_acked_and_dropped),
        T(test_ctrl_c_while_halted_is_ignored),
        T(test_ctrl_c_inside_a_packet_is_data),
        T(test_stopped_drops_a_partial_packet),
        T(test_D_says_ok_and_detaches),
        T(test_D_with_a_pid_detaches),
        T(test_k_detaches_without_a_reply),
        T(test_escape_packet_drops_to_the_shell),
        T(test_escape_packet_while_running_drops_to_the_shell),
        T(test_only_register_and_memory_packets_change_the_frame),
        T(test_qsupported_advertises_what_the_stub_does),
        T(test_breakpoint_stops_say_their_kind_to_a_gdb_that_takes_it),
        T(test_bad_breakpoint_packets_with_a_debug_unit_set_nothing),
        T(test_thread_queries_describe_one_thread),
        T(test_every_online_cpu_is_a_thread),
        T(test_hg_selects_the_cpu_whose_frame_g_and_p_read),
        T(test_G_and_P_write_the_selected_cpus_frame_only),
        T(test_a_cpu_that_missed_the_roundup_is_listed_running_without_registers),
        T(test_a_stop_names_cpu_0_and_selects_it_again),
        T(test_bad_thread_ids_change_nothing),
        T(test_target_xml_describes_arm_core_with_cpsr_as_25),
        T(test_target_xml_reads_the_same_in_any_chunk_size),
        T(test_monitor_command_output_goes_to_gdb_as_O_packets),
        T(test_monitor_output_is_batched_into_few_full_O_packets),
        T(test_monitor_command_reads_memory),
        T(test_long_monitor_output_is_split_into_bounded_packets),
        T(test_monitor_command_errors_come_back_as_text),
        T(test_monitor_cannot_take_run_control_from_gdb),
        T(test_empty_monitor_command_says_ok),
        T(test_console_goes_back_to_the_port_after_a_monitor_command),
        T(test_console_sink_takes_output_as_written),
        T(test_start_packet_acks_and_answers_the_first_packet),
        T(test_packet_api_ignores_oversized_bodies_and_a_stub_not_in_session),
    };
#undef T
    return cmocka_run_group_tests_name("gdb stub", tests, NULL, NULL);
}
