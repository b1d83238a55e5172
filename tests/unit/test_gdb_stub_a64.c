/* SPDX-License-Identifier: MIT */
/* The GDB stub as the AArch64 build compiles it (FIQMON_AARCH64=1, virt64's options: no
 * debug unit), on the fake port built the same way: what differs from AArch32
 * (test_gdb_stub.c covers the rest, the same code). The aarch64 target description,
 * x0-x30, sp (the interrupted level's), pc and a 32-bit cpsr in g/G/p/P, writes landing in
 * the frame, the PSTATE fields GDB may not change, 64-bit addresses in m/M/X/c, E22 for
 * what does not parse, and no breakpoints or steps. */
#include "expect.h"

#include <stdio.h>

#include "console.h"
#include "fake_port.h"
#include "fiqmon_features.h"
#include "gdb_packets.h"
#include "gdb_stub.h"
#include "monitor.h"

_Static_assert(FIQMON_AARCH64 && sizeof(target_addr_t) == 8, "built as AArch64");

#define STOP "T02thread:01;"
/* A kernel at EL1 on its own stack (EL1h), nZCv, IRQs masked */
#define PSTATE_EL1H (0x60000000u | A64_PSTATE_I | A64_PSTATE_EL1H)
#define KVA 0xffff800008000000ull /* a kernel address: the fake maps a page there */
#define REGS_HEX (33 * 16 + 8)

static struct gdb_stub stub;
static struct cpu_frame frame;

/* --- helpers ------------------------------------------------------------------------------- */

static enum gdb_action feed(const char *s)
{
    enum gdb_action a = GDB_STAY;

    for (; *s; s++) {
        EXPECT_TRUE(a == GDB_STAY, "a byte came after action %d", (int)a);
        a = gdb_stub_feed(&stub, (uint8_t)*s);
    }
    return a;
}

/* Sends a packet (output so far discarded first); returns its action. */
static enum gdb_action send(const char *body)
{
    fake_output_reset();
    return feed(pkt(body));
}

/* The stub's output so far, as GDB understands it (run-length encoding expanded). */
static const char *output(void)
{
    return expand_wire(fake_output(), fake_output_len());
}

#define EXPECT_REPLY(body, reply)                                                                  \
    do {                                                                                           \
        EXPECT_EQ(send(body), GDB_STAY);                                                           \
        EXPECT_STR_EQ(output(), tfmt("+%s", pkt(reply)));                                          \
    } while (0)

/* A register as GDB has it on the wire: bytes little-endian, two hex digits each. */
static const char *le(uint64_t v, unsigned bytes)
{
    char out[17];

    for (unsigned i = 0; i < bytes; i++)
        snprintf(out + 2 * i, 3, "%02x", (unsigned)(v >> (8 * i)) & 0xffu);
    return tfmt("%s", out);
}

static const char *le64(uint64_t v)
{
    return le(v, 8);
}

static const char *le32(uint32_t v)
{
    return le(v, 4);
}

/* The g packet for the frame, built from its fields (not through the stub's tables). */
static const char *regs_hex(uint64_t sp)
{
    static char out[REGS_HEX + 1];
    size_t n = 0;

    for (unsigned i = 0; i < 31; i++)
        n += (size_t)snprintf(out + n, sizeof(out) - n, "%s", le64(frame.x[i]));
    n += (size_t)snprintf(out + n, sizeof(out) - n, "%s%s", le64(sp), le64(frame.pc));
    snprintf(out + n, sizeof(out) - n, "%s", le32(frame.pstate));
    return out;
}

static unsigned mem_writes(void)
{
    return fake.writes[1] + fake.writes[2] + fake.writes[4];
}

static const char *hex_of(const char *s)
{
    static char out[512];
    size_t n = 0;

    for (; *s; s++)
        n += (size_t)snprintf(out + n, sizeof(out) - n, "%02x", (unsigned char)*s);
    return out;
}

/* monitor LINE: the text of its O packets, which must end with OK. */
static const char *rcmd(const char *line)
{
    static char text[8192];
    size_t tn = 0;
    unsigned byte;

    EXPECT_EQ(send(tfmt("qRcmd,%s", hex_of(line))), GDB_STAY);
    const char *p = output();
    EXPECT_TRUE(p[0] == '+', "ack first: %s", expect_escape(p));
    while ((p = strstr(p, "$O")) != NULL && strncmp(p, "$OK#", 4) != 0) {
        for (p += 2; *p != '#'; p += 2) {
            assert_true(tn + 1 < sizeof(text) && sscanf(p, "%2x", &byte) == 1);
            text[tn++] = (char)byte;
        }
    }
    EXPECT_TRUE(p != NULL, "no OK after the output: %s", expect_escape(output()));
    text[tn] = '\0';
    return text;
}

static void init_frame(void)
{
    memset(&frame, 0, sizeof(frame));
    for (unsigned i = 0; i < 31; i++)
        frame.x[i] = 0xa0a0a0a000000000ull + i;
    frame.sp_el0 = 0x0000aaaabbbb0000ull;
    frame.sp_el1 = 0xffff80000800ff00ull;
    frame.sp_el2 = 0x00000000bfff0000ull;
    frame.elr_el1 = 0xffff800008001000ull;
    frame.pc = 0xffff800008000abcull;
    frame.pstate = PSTATE_EL1H;
    frame.world = FRAME_WORLD_NORMAL;
}

static int setup(void **state)
{
    (void)state;
    fake_port_reset();
    monitor_init(1, &fiqmon_features);
    con_set_sink(NULL);
    init_frame();
    monitor_view_cpu(0, &frame); /* what `monitor regs` shows */
    memset(&stub, 0xa5, sizeof(stub));
    gdb_stub_start(&stub, &frame);
    return 0;
}

/* --- the target description ---------------------------------------------------------------- */

/* target.xml read with qXfer in chunks of len (the reply's data is escaped binary; the
 * document has nothing to escape). */
static const char *read_target_xml(unsigned len)
{
    static char doc[8192];
    size_t n = 0;

    for (unsigned parts = 0;; parts++) {
        EXPECT_EQ(send(tfmt("qXfer:features:read:target.xml:%zx,%x", n, len)), GDB_STAY);
        const char *out = output();
        EXPECT_TRUE(out[0] == '+' && out[1] == '$', "reply %s", expect_escape(out));
        char kind = out[2];
        size_t k = (size_t)(strrchr(out, '#') - out - 3);
        EXPECT_TRUE(kind == 'm' || kind == 'l', "reply %s", expect_escape(out));
        EXPECT_TRUE(k <= len, "%zu bytes for a request of %u", k, len);
        assert_true(n + k < sizeof(doc) && parts < 8192);
        memcpy(doc + n, out + 3, k);
        n += k;
        if (kind == 'l')
            break;
    }
    doc[n] = '\0';
    return doc;
}

static void test_target_xml_is_the_aarch64_core_feature_in_gdbs_order(void **state)
{
    (void)state;
    const char *doc = read_target_xml(0x7fb);
    const char *at = doc;

    EXPECT_TRUE(starts_with(doc, "<?xml version=\"1.0\"?>"), "xml declaration");
    EXPECT_CONTAINS(doc, "<!DOCTYPE target SYSTEM \"gdb-target.dtd\">");
    EXPECT_CONTAINS(doc, "<architecture>aarch64</architecture>");
    EXPECT_CONTAINS(doc, "<feature name=\"org.gnu.gdb.aarch64.core\">");
    EXPECT_TRUE(ends_with(doc, "</feature></target>"), "document end");
    /* x0-x30, sp, pc, cpsr: one each, in that order (GDB numbers them 0-33) */
    for (unsigned i = 0; i < 34; i++) {
        const char *want = i < 31    ? tfmt("<reg name=\"x%u\" bitsize=\"64\"/>", i)
                           : i == 31 ? "<reg name=\"sp\" bitsize=\"64\" type=\"data_ptr\"/>"
                           : i == 32 ? "<reg name=\"pc\" bitsize=\"64\" type=\"code_ptr\"/>"
                                     : "<reg name=\"cpsr\" bitsize=\"32\" type=\"pstate_bits\"/>";
        const char *found = strstr(at, want);
        EXPECT_TRUE(found, "register %u (%s) missing or out of order", i, want);
        at = found + 1;
    }
    EXPECT_EQ(count_substr(doc, "<reg "), 34);
    EXPECT_NOT_CONTAINS(doc, "regnum="); /* numbered in order from 0 */
    EXPECT_NOT_CONTAINS(doc, "fpu");     /* no SIMD/FP registers: fiqmon never saves them */
    EXPECT_CONTAINS(doc, "<flags id=\"pstate_bits\" size=\"4\">");
    EXPECT_CONTAINS(doc, "<field name=\"EL\" start=\"2\" end=\"3\"/>");
    EXPECT_CONTAINS(doc, "<field name=\"N\" start=\"31\" end=\"31\"/>");
    EXPECT_TRUE(strstr(doc, "</flags>") < strstr(doc, "<reg "), "types before registers");
}

static void test_target_xml_reads_the_same_in_any_chunk_size(void **state)
{
    static const unsigned sizes[] = {1, 0x3f, 0x100, 0x7fb};
    static char whole[8192];
    (void)state;

    snprintf(whole, sizeof(whole), "%s", read_target_xml(0x10000));
    EXPECT_TRUE(strlen(whole) > GDB_PACKET_SIZE / 2, "longer than AArch32's");
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
        EXPECT_STR_EQ(read_target_xml(sizes[i]), whole);
    EXPECT_REPLY(tfmt("qXfer:features:read:target.xml:%zx,10", strlen(whole) + 1), "E22");
}

/* --- registers ----------------------------------------------------------------------------- */

static void test_g_reads_x0_to_x30_sp_pc_then_a_32_bit_cpsr(void **state)
{
    (void)state;
    EXPECT_REPLY("g", regs_hex(frame.sp_el1));
    EXPECT_EQ(strlen(output()), 1 + 1 + REGS_HEX + 3);
    EXPECT_TRUE(starts_with(output(), "+$00000000a0a0a0a0"), "x0 first, little-endian");
    EXPECT_CONTAINS(output(), tfmt("%s%s%s%s#", le64(0xa0a0a0a00000001eull),
                                   le64(0xffff80000800ff00ull), le64(0xffff800008000abcull),
                                   le32(PSTATE_EL1H)));
}

/* sp is the stack pointer the interrupted context runs on: SP_EL1 or SP_EL2 in EL1h or
 * EL2h, SP_EL0 in EL0 and in the "t" modes. */
static void test_sp_is_the_interrupted_contexts_stack_pointer(void **state)
{
    static const struct {
        uint32_t pstate;
        const uint64_t *sp;
    } cases[] = {
        {A64_PSTATE_EL1H, &frame.sp_el1},
        {A64_PSTATE_EL2H, &frame.sp_el2},
        {A64_PSTATE_EL0T, &frame.sp_el0},
        {A64_PSTATE_EL0T | 0x4u, &frame.sp_el0}, /* EL1t */
    };
    (void)state;

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        frame.pstate = cases[i].pstate;
        EXPECT_REPLY("g", regs_hex(*cases[i].sp));
        EXPECT_REPLY("p1f", le64(*cases[i].sp));
    }
    frame.pstate = A64_PSTATE_EL2H;
    EXPECT_REPLY(tfmt("P1f=%s", le64(0x00000000bffe0000ull)), "OK");
    EXPECT_EQ(frame.sp_el2, 0x00000000bffe0000ull);
    EXPECT_EQ(frame.sp_el1, 0xffff80000800ff00ull);
    EXPECT_EQ(frame.sp_el0, 0x0000aaaabbbb0000ull);
}

static void test_G_writes_every_register_into_the_frame_and_g_reads_them_back(void **state)
{
    char body[1 + REGS_HEX + 1];
    size_t n = 1;
    (void)state;

    body[0] = 'G';
    for (unsigned i = 0; i < 33; i++) /* x0-x30, sp, pc */
        n += (size_t)snprintf(body + n, sizeof(body) - n, "%s", le64(0x1020304050600000ull + i));
    snprintf(body + n, sizeof(body) - n, "%s", le32(0x900003c5u)); /* flags, masks: still EL1h */
    EXPECT_REPLY(body, "OK");
    for (unsigned i = 0; i < 31; i++)
        EXPECT_EQ(frame.x[i], 0x1020304050600000ull + i);
    EXPECT_EQ(frame.sp_el1, 0x102030405060001full);
    EXPECT_EQ(frame.pc, 0x1020304050600020ull);
    EXPECT_EQ(frame.pstate, 0x900003c5u);
    EXPECT_EQ(frame.sp_el0, 0x0000aaaabbbb0000ull); /* the other levels' untouched */
    EXPECT_EQ(frame.sp_el2, 0x00000000bfff0000ull);
    EXPECT_EQ(frame.elr_el1, 0xffff800008001000ull);
    EXPECT_EQ(frame.world, FRAME_WORLD_NORMAL);
    EXPECT_REPLY("g", body + 1);
}

static void test_p_reads_each_register_by_gdbs_aarch64_number(void **state)
{
    (void)state;
    for (unsigned n = 0; n < 31; n++)
        EXPECT_REPLY(tfmt("p%x", n), le64(frame.x[n]));
    EXPECT_REPLY("p1f", le64(frame.sp_el1));
    EXPECT_REPLY("p20", le64(frame.pc));
    EXPECT_REPLY("p21", le32(PSTATE_EL1H));
    EXPECT_REPLY("p0000000000000013", le64(frame.x[19]));
    EXPECT_REPLY("p22", "E22"); /* v0 would be 34: no FP feature */
    EXPECT_REPLY("p42", "E22"); /* fpsr's number in GDB's own aarch64 layout */
}

static void test_P_writes_one_register_at_its_width(void **state)
{
    (void)state;
    EXPECT_REPLY(tfmt("P13=%s", le64(0x1122334455667788ull)), "OK");
    EXPECT_EQ(frame.x[19], 0x1122334455667788ull);
    EXPECT_REPLY(tfmt("P20=%s", le64(0xffff800008000ac0ull)), "OK");
    EXPECT_EQ(frame.pc, 0xffff800008000ac0ull);
    EXPECT_REPLY(tfmt("P1e=%s", le64(0xffff800008000400ull)), "OK");
    EXPECT_EQ(frame.x[30], 0xffff800008000400ull);
    EXPECT_REPLY(tfmt("P21=%s", le32(0xf00003c5u)), "OK");
    EXPECT_EQ(frame.pstate, 0xf00003c5u);
    /* a value of another width than the register's writes nothing */
    EXPECT_REPLY(tfmt("P13=%s", le32(0x12345678u)), "E22");
    EXPECT_REPLY(tfmt("P21=%s", le64(0x60000005ull)), "E22");
    EXPECT_EQ(frame.x[19], 0x1122334455667788ull);
    EXPECT_EQ(frame.pstate, 0xf00003c5u);
}

/* M[4:0] is the level, which stack pointer, and AArch32: an exception return from EL3 goes
 * wherever it says, EL3 included, so GDB changes everything but that. */
static void test_cpsr_cannot_change_the_level_stack_pointer_or_width(void **state)
{
    static const uint32_t forbidden[] = {
        A64_PSTATE_EL2H, A64_PSTATE_EL3T | 1u /* EL3h */, A64_PSTATE_EL3T, A64_PSTATE_EL0T,
        0x4u /* EL1t */, A64_PSTATE_NRW | 0x13u /* AArch32 svc */, A64_PSTATE_EL1H | A64_PSTATE_NRW,
    };
    (void)state;

    for (size_t i = 0; i < sizeof(forbidden) / sizeof(forbidden[0]); i++)
        EXPECT_REPLY(tfmt("P21=%s", le32(0x60000000u | forbidden[i])), "E22");
    EXPECT_EQ(frame.pstate, PSTATE_EL1H);
    EXPECT_REPLY(tfmt("P21=%s", le32(0x00000005u)), "OK"); /* flags and masks cleared */
    EXPECT_EQ(frame.pstate, 0x00000005u);
}

static void test_G_with_a_forbidden_cpsr_writes_nothing(void **state)
{
    char body[1 + REGS_HEX + 1];
    struct cpu_frame before;
    (void)state;

    snprintf(body, sizeof(body), "G%s", regs_hex(frame.sp_el1));
    memcpy(body + 1, le64(0x1234567812345678ull), 16);
    memcpy(body + 1 + 33 * 16, le32(0x60000000u | A64_PSTATE_EL3T | 1u), 8);
    before = frame;
    EXPECT_REPLY(body, "E22");
    EXPECT_TRUE(memcmp(&before, &frame, sizeof(frame)) == 0, "frame changed");
}

static void test_monitor_regs_shows_what_gdb_wrote(void **state)
{
    (void)state;
    EXPECT_REPLY(tfmt("P13=%s", le64(0x1122334455667788ull)), "OK");
    EXPECT_REPLY(tfmt("P1f=%s", le64(0xffff80000800fe00ull)), "OK");
    const char *regs = rcmd("regs");
    EXPECT_CONTAINS(regs, "x19=1122334455667788");
    EXPECT_CONTAINS(regs, "sp =ffff80000800fe00");
    EXPECT_CONTAINS(regs, "pc =ffff800008000abc pstate=60000085 (el1h nZCv I)");
}

/* --- malformed packets: E22, nothing changes ------------------------------------------------ */

static void test_malformed_arguments_give_errors_and_change_nothing(void **state)
{
    static const char *const bodies[] = {
        "p", "p22", "p100000000", "px", "p1 ",
        "P1=", "P1=11223344", "P1=112233445566778", "P1=11223344556677889", "P1=1122334455667g88",
        "P21=1122334", "P21=112233445", "P22=1122334455667788", "P=1122334455667788",
        "G", "G00", /* a G one register short, and one 32-bit cpsr too long: */
        "G000000000000000000000000000000000000000000000000000000000000000000000000000000",
        "m", "m,4", "mffff800008000000", "mffff800008000000,", "mffff80000800000g,4",
        "m10000000000000000,4",      /* 65 bits */
        "mffff800008000000,100000000", "mffff800008000000;4",
        "Mffff800008000000,4:0011223", "Mffff800008000000,4:001122334",
        "M10000000000000000,1:00", "Xffff800008000000,4:abc", "X10000000000000000,0:",
        "c10000000000000000", "cffff80000800000x", "C02;10000000000000000",
        "qXfer:features:read:target.xml:10000000000000000,10",
        "qXfer:features:read:target.xml:100000,10",
    };
    (void)state;

    fake_mem_map(KVA, 0x1000);
    for (size_t i = 0; i < sizeof(bodies) / sizeof(bodies[0]); i++) {
        struct cpu_frame before = frame;
        print_message("  %s\n", bodies[i]);
        EXPECT_REPLY(bodies[i], "E22");
        EXPECT_TRUE(memcmp(&before, &frame, sizeof(frame)) == 0, "%s changed the frame",
                    bodies[i]);
        EXPECT_EQ(mem_writes(), 0);
        EXPECT_TRUE(gdb_stub_active(&stub) && !gdb_stub_running(&stub), "%s left the session",
                    bodies[i]);
    }
}

static void test_an_oversized_packet_is_nacked(void **state)
{
    static char body[GDB_PACKET_SIZE + 2];
    (void)state;

    memset(body, 'f', sizeof(body) - 1);
    body[0] = 'm';
    EXPECT_EQ(send(body), GDB_STAY);
    EXPECT_STR_EQ(output(), "-");
}

/* --- memory at 64-bit addresses ------------------------------------------------------------ */

static void test_m_M_and_X_reach_64_bit_kernel_addresses(void **state)
{
    (void)state;
    uint8_t *page = fake_mem_map(KVA, 0x1000);

    memcpy(page + 0x100, "\x01\x02\x03\x04\x05\x06\x07\x08", 8);
    EXPECT_REPLY("mffff800008000100,8", "0102030405060708");
    EXPECT_EQ(fake.reads[4], 2);
    EXPECT_REPLY("Mffff800008000201,5:aabbccddee", "OK");
    EXPECT_EQ(memcmp(page + 0x200, "\0\xaa\xbb\xcc\xdd\xee\0", 7), 0);
    EXPECT_REPLY("Xffff800008000300,4:}\x03}\x04\x7e\x7f", "OK");
    EXPECT_EQ(memcmp(page + 0x300, "#$~\x7f", 4), 0);
    EXPECT_REPLY("m0000ffff800008000201,2", "aabb"); /* leading zeros are no digits too many */
}

static void test_an_address_above_4_gib_is_not_truncated(void **state)
{
    (void)state;
    uint8_t *high = fake_mem_map(0x100000000ull + FAKE_RAM_BASE, 0x100);

    fake_mem_write(FAKE_RAM_BASE, "\x11\x11\x11\x11", 4);
    memcpy(high, "\x22\x22\x22\x22", 4);
    EXPECT_REPLY(tfmt("m1%08x,4", FAKE_RAM_BASE), "22222222");
    EXPECT_REPLY(tfmt("M1%08x,1:33", FAKE_RAM_BASE), "OK");
    EXPECT_EQ(high[0], 0x33);
    EXPECT_EQ(*fake_mem(FAKE_RAM_BASE), 0x11);
}

static void test_faults_and_the_top_of_the_64_bit_space(void **state)
{
    (void)state;
    uint8_t *top = fake_mem_map(0xfffffffffffff000ull, 0x1000);

    EXPECT_REPLY("mffff800008000000,4", "E14"); /* nothing mapped */
    memcpy(top + 0xffc, "\x0a\x0b\x0c\x0d", 4);
    EXPECT_REPLY("mfffffffffffffffc,10", "0a0b0c0d"); /* stops at the top, no wrap to 0 */
    EXPECT_REPLY("mffffffffffffffff,1", "0d");
    EXPECT_REPLY("Mfffffffffffffffe,4:00112233", "E14"); /* would wrap: writes nothing */
    EXPECT_EQ(mem_writes(), 0);
    EXPECT_REPLY("Mfffffffffffffffe,2:eeff", "OK");
    EXPECT_EQ(memcmp(top + 0xffc, "\x0a\x0b\xee\xff", 4), 0);
}

/* --- run control ------------------------------------------------------------------------- */

static void test_c_with_a_64_bit_address_resumes_there(void **state)
{
    (void)state;
    EXPECT_EQ(send("cffff800008000ac4"), GDB_RESUME);
    EXPECT_EQ(frame.pc, 0xffff800008000ac4ull);
    fake_output_reset();
    gdb_stub_stopped(&stub, &frame, 0);
    EXPECT_STR_EQ(output(), pkt(STOP));
}

/* virt64 has no debug unit (platforms/common/debug_none.c): as on any such platform. */
static void test_no_breakpoints_or_steps_without_a_debug_unit(void **state)
{
    static const char *const bodies[] = {
        "Z0,ffff800008000abc,4", "Z1,ffff800008000abc,4", "Z2,ffff800008001000,8",
        "z0,ffff800008000abc,4", "s", "sffff800008000abc", "S05", "vCont;s:1",
    };
    (void)state;
    struct cpu_frame before = frame;

    fake_mem_map(KVA, 0x1000);
    for (size_t i = 0; i < sizeof(bodies) / sizeof(bodies[0]); i++)
        EXPECT_REPLY(bodies[i], i < 7 ? "E01" : "E22");
    EXPECT_REPLY("vCont?", "vCont;c;C");
    EXPECT_REPLY("qSupported:swbreak+;hwbreak+",
                 "PacketSize=800;qXfer:features:read+;QStartNoAckMode+;vContSupported+");
    EXPECT_TRUE(memcmp(&before, &frame, sizeof(frame)) == 0, "frame changed");
    EXPECT_EQ(mem_writes(), 0);
}

static void test_the_thread_is_cpu_0_as_on_aarch32(void **state)
{
    (void)state;
    EXPECT_REPLY("?", STOP);
    EXPECT_REPLY("qfThreadInfo", "m01");
    EXPECT_REPLY("qC", "QC01");
    EXPECT_REPLY("Hg1", "OK");
    EXPECT_REPLY("T2", "E03");
}

int main(void)
{
#define T(f) cmocka_unit_test_setup(f, setup)
    const struct CMUnitTest tests[] = {
        T(test_target_xml_is_the_aarch64_core_feature_in_gdbs_order),
        T(test_target_xml_reads_the_same_in_any_chunk_size),
        T(test_g_reads_x0_to_x30_sp_pc_then_a_32_bit_cpsr),
        T(test_sp_is_the_interrupted_contexts_stack_pointer),
        T(test_G_writes_every_register_into_the_frame_and_g_reads_them_back),
        T(test_p_reads_each_register_by_gdbs_aarch64_number),
        T(test_P_writes_one_register_at_its_width),
        T(test_cpsr_cannot_change_the_level_stack_pointer_or_width),
        T(test_G_with_a_forbidden_cpsr_writes_nothing),
        T(test_monitor_regs_shows_what_gdb_wrote),
        T(test_malformed_arguments_give_errors_and_change_nothing),
        T(test_an_oversized_packet_is_nacked),
        T(test_m_M_and_X_reach_64_bit_kernel_addresses),
        T(test_an_address_above_4_gib_is_not_truncated),
        T(test_faults_and_the_top_of_the_64_bit_space),
        T(test_c_with_a_64_bit_address_resumes_there),
        T(test_no_breakpoints_or_steps_without_a_debug_unit),
        T(test_the_thread_is_cpu_0_as_on_aarch32),
    };
#undef T
    return cmocka_run_group_tests_name("gdb stub, AArch64", tests, NULL, NULL);
}
