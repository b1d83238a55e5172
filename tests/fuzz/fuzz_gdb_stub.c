/* SPDX-License-Identifier: MIT */
/* libFuzzer harness for the GDB stub: arbitrary bytes into gdb_stub_feed().
 *
 * Besides the sanitizers, the harness checks the stub against its own reading of the byte
 * stream (its own framing and checksum code, not the stub's):
 *   - memory is written only while a packet with a correct checksum is dispatched, only
 *     by M, X or "monitor mw", only inside the range the packet names, with its data;
 *   - a frame changes only by G, P (exactly as asked, the selected CPU's) or c/C with an
 *     address (CPU 0's pc); four CPUs: 0 (the session's frame), 1 stopped, 2 off, 3 did
 *     not answer the roundup (no frame to change); only an online CPU is ever selected;
 *   - a cpsr write never enters or leaves a mode other than usr/fiq/irq/svc/abt/und/sys;
 *   - no packet makes an unaligned word access, or any access while the port says memory
 *     is unavailable ("monitor md/mw" are the shell's business: not checked);
 *   - every action has a cause (RESUME after c/C/vCont, INTERRUPT on 0x03 while running,
 *     DETACH after D/k, SHELL after $3#33), and the stub's own bounds hold;
 *   - everything the stub sends is acks and whole packets with a correct checksum, whose
 *     run-length encoding is one GDB reads (a count in ' '..'~', never '#', '$', '+', '-')
 *     and saves something (never four equal literal characters in a row); an m reply
 *     (also one resent on '-', which reads memory again) expands to the memory's bytes.
 *
 * Input: byte 0 chooses the setup (see CFG_*); the rest is the wire. With CFG_FRAMED, the
 * rest is split at '\n' into packet bodies that the harness frames with a correct
 * checksum (a chunk starting with 0x01 goes out raw instead), so the fuzzer reaches the
 * packet handlers without having to learn checksums. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "console.h"
#include "fake_port.h"
#include "gdb_stub.h"
#include "fiqmon_features.h"
#include "monitor.h"
#include "parse.h"
#include "support.h"

#define HOLE_BASE (FAKE_RAM_BASE + 0x1000u) /* faults, though inside the fake RAM */
#define HOLE_SIZE 0x10u

#define CFG_MEM_UNAVAILABLE 0x01u
#define CFG_OPEN_STATUS 0x02u     /* start with gdb_stub_start_packet("?") */
#define CFG_OPEN_QSUPPORTED 0x04u /* start with gdb_stub_start_packet("qSupported") */
#define CFG_STOP_AT_ONCE 0x08u    /* a resumed CPU is stopped again at once (a knock) */
#define CFG_MODE_SHIFT 4          /* 2 bits: the interrupted mode */
#define CFG_FRAMED 0x40u
#define CFG_FRAMED_ACK 0x80u /* in framed mode, a '+' after each packet */

#define OUTPUT_PER_BYTE_MAX (1u << 20)

static struct gdb_stub stub;
static struct cpu_frame frame;

#define CPUS 4u
#define CPU_OFF 2u
#define CPU_LATE 3u

static struct cpu_frame *cpu_frame_of(unsigned n)
{
    return n ? fake_cpu_frame(n) : &frame;
}
static uint8_t cfg;
static bool resending; /* the byte being fed is a '-' outside a packet */

/* --- the harness's reading of the wire ----------------------------------------------------- */

static struct {
    char body[2 * GDB_PACKET_SIZE];
    size_t len;
    bool overflow;
    int phase; /* 0 outside, 1 body, 2 and 3 checksum digits */
    char cs[2];
    bool complete; /* the byte just fed ended a packet */
} wire;

static void wire_track(uint8_t c)
{
    wire.complete = false;
    if (c == '$') {
        wire.phase = 1;
        wire.len = 0;
        wire.overflow = false;
        return;
    }
    switch (wire.phase) {
    case 1:
        if (c == '#')
            wire.phase = 2;
        else if (wire.len < sizeof(wire.body))
            wire.body[wire.len++] = (char)c;
        else
            wire.overflow = true;
        break;
    case 2:
        wire.cs[0] = (char)c;
        wire.phase = 3;
        break;
    case 3:
        wire.cs[1] = (char)c;
        wire.phase = 0;
        wire.complete = true;
        break;
    default:
        break;
    }
}

static int hexdigit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* The byte just fed completed a packet the stub had to accept. */
static bool wire_dispatched(void)
{
    unsigned sum = 0;
    int hi = hexdigit(wire.cs[0]), lo = hexdigit(wire.cs[1]);

    if (!wire.complete || wire.overflow || wire.len > GDB_PACKET_SIZE || hi < 0 || lo < 0)
        return false;
    for (size_t i = 0; i < wire.len; i++)
        sum += (uint8_t)wire.body[i];
    return (sum & 0xff) == (unsigned)(hi << 4 | lo);
}

static bool body_is(const char *s)
{
    return wire.len == strlen(s) && memcmp(wire.body, s, wire.len) == 0;
}

/* Hex number at body[*i]: at least one digit, a value of at most 32 bits. */
static bool wire_hex(size_t *i, uint32_t *out)
{
    size_t start = *i;
    uint64_t v = 0;

    while (*i < wire.len && hexdigit(wire.body[*i]) >= 0) {
        v = v << 4 | (uint64_t)hexdigit(wire.body[(*i)++]);
        if (v > 0xffffffffu)
            return false;
    }
    *out = (uint32_t)v;
    return *i > start;
}

static uint32_t wire_le32(size_t at)
{
    uint32_t v = 0;

    for (unsigned i = 0; i < 4; i++)
        v |= (uint32_t)(hexdigit(wire.body[at + 2 * i]) << 4 | hexdigit(wire.body[at + 2 * i + 1]))
             << (8 * i);
    return v;
}

/* The last packet dispatched, if it was a well-formed m (a '-' resends its reply). */
static struct {
    bool valid;
    uint32_t start, len;
} last_m;

static void track_m(void)
{
    size_t i = 1;
    uint32_t start = 0, len = 0;

    if (!wire_dispatched())
        return;
    last_m.valid = wire.body[0] == 'm' && stub.mode == GDB_HALTED && wire_hex(&i, &start) && i < wire.len && wire.body[i++] == ',' &&
                   wire_hex(&i, &len) && i == wire.len;
    last_m.start = start;
    last_m.len = len;
}

/* --- oracles ------------------------------------------------------------------------------- */

static bool classic(uint32_t psr)
{
    switch (psr & ARM_MODE_MASK) {
    case ARM_MODE_USR:
    case ARM_MODE_FIQ:
    case ARM_MODE_IRQ:
    case ARM_MODE_SVC:
    case ARM_MODE_ABT:
    case ARM_MODE_UND:
    case ARM_MODE_SYS:
        return true;
    default:
        return false;
    }
}

/* "monitor mw [-p] ADDR ...": the address it names. */
static bool rcmd_mw_addr(uint32_t *addr)
{
    char line[GDB_PACKET_SIZE], *argv[PARSE_MAX_ARGS];
    size_t n = 0;

    if (wire.len < 6 || memcmp(wire.body, "qRcmd,", 6) != 0)
        return false;
    for (size_t i = 6; i + 1 < wire.len && n + 1 < sizeof(line); i += 2)
        line[n++] = (char)(hexdigit(wire.body[i]) << 4 | hexdigit(wire.body[i + 1]));
    line[n] = '\0';
    int argc = parse_words(line, argv, PARSE_MAX_ARGS);
    if (argc < 3 || strcmp(argv[0], "mw") != 0)
        return false;
    int a = strcmp(argv[1], "-p") == 0 ? 2 : 1;
    return parse_u32(argv[a], addr) == PARSE_OK;
}

/* "m", "M" or "X" ADDR,LEN: the range the packet names. */
static void wire_range(uint32_t *start, uint32_t *len)
{
    size_t i = 1;

    FUZZ_CHECK(wire_hex(&i, start) && i < wire.len && wire.body[i++] == ',' && wire_hex(&i, len) &&
                   (wire.body[0] == 'm' ? i == wire.len : i < wire.len && wire.body[i] == ':'),
               "memory access by a malformed %c packet", wire.body[0]);
}

/* The data an M or X packet carries; returns its length. */
static uint32_t wire_data(uint8_t *data, size_t max)
{
    size_t i = (size_t)((const char *)memchr(wire.body, ':', wire.len) - wire.body) + 1;
    uint32_t n = 0;

    if (wire.body[0] == 'M') {
        for (; i + 1 < wire.len && n < max; i += 2)
            data[n++] = (uint8_t)(hexdigit(wire.body[i]) << 4 | hexdigit(wire.body[i + 1]));
    } else {
        for (; i < wire.len && n < max; n++) {
            char c = wire.body[i++];
            if (c == '}' && i < wire.len)
                c = (char)(wire.body[i++] ^ 0x20);
            data[n] = (uint8_t)c;
        }
    }
    return n;
}

/* Every port_mem_read/write, before the fake port decides whether it faults. */
static void check_access(bool write, uint32_t addr, unsigned width, uint32_t value)
{
    uint32_t start, len, mw_addr;
    uint8_t data[GDB_PACKET_SIZE];
    char kind = wire.body[0];

    if (resending) { /* a '-': only the last m packet's reply is regenerated */
        FUZZ_CHECK(!write && last_m.valid && addr - last_m.start < last_m.len &&
                       width <= last_m.len - (addr - last_m.start),
                   "access at %08x by a resend", (unsigned)addr);
        return;
    }
    FUZZ_CHECK(wire_dispatched(), "memory access at %08x without a valid packet", (unsigned)addr);
    FUZZ_CHECK(stub.mode == GDB_HALTED, "memory access while not halted");
    if (kind == 'q') { /* a "monitor" command: the shell's rules, but only mw writes */
        FUZZ_CHECK(!write || (rcmd_mw_addr(&mw_addr) && mw_addr == addr),
                   "write at %08x by a query", (unsigned)addr);
        return;
    }
    FUZZ_CHECK(write ? kind == 'M' || kind == 'X' : kind == 'm', "%s at %08x by packet '%c'",
               write ? "write" : "read", (unsigned)addr, kind);
    FUZZ_CHECK(!fake.mem_unavailable, "memory access while the port says it is unavailable");
    FUZZ_CHECK(fake.space == PORT_MEM_VIRTUAL, "GDB access in space %d", (int)fake.space);
    FUZZ_CHECK(width == 1 || (width == 4 && !(addr & 3)), "%u-byte access at %08x", width,
               (unsigned)addr);
    wire_range(&start, &len);
    FUZZ_CHECK(addr >= start && (uint64_t)addr + width <= (uint64_t)start + len,
               "access of %u at %08x outside %08x+%x", width, (unsigned)addr, (unsigned)start,
               (unsigned)len);
    if (!write)
        return;
    FUZZ_CHECK(wire_data(data, sizeof(data)) == len, "%c packet writes with the wrong length",
               kind);
    for (unsigned k = 0; k < width; k++)
        FUZZ_CHECK(data[addr - start + k] == (uint8_t)(value >> (8 * k)),
                   "wrong byte written at %08x", (unsigned)(addr + k));
}

/* CPU cpu's frame may differ from before only as the packet just dispatched asks; sel is
 * the CPU the stub had selected. */
static void check_frame(unsigned cpu, const struct cpu_frame *before, unsigned sel)
{
    struct cpu_frame want = *before, *now = cpu_frame_of(cpu);
    uint32_t v, n;
    size_t i = 1;

    if (memcmp(before, now, sizeof(*now)) == 0)
        return;
    FUZZ_CHECK(wire_dispatched(), "cpu %u's frame changed without a valid packet", cpu);
    FUZZ_CHECK(strchr("GPcC", wire.body[0]) && (wire.body[0] == 'c' || wire.body[0] == 'C'
                                                    ? cpu == 0
                                                    : cpu == sel && cpu != CPU_LATE),
               "'%c' changed cpu %u's frame (cpu %u selected)", wire.body[0], cpu, sel);
    switch (wire.body[0]) {
    case 'G':
        FUZZ_CHECK(wire.len == 1 + 17 * 8, "G of %zu bytes changed the frame", wire.len);
        for (unsigned r = 0; r < 16; r++)
            *frame_reg(&want, r) = wire_le32(1 + 8 * r);
        want.cpsr = wire_le32(1 + 128);
        break;
    case 'P':
        FUZZ_CHECK(wire_hex(&i, &n) && i + 9 == wire.len && wire.body[i] == '=',
                   "malformed P changed the frame");
        v = wire_le32(i + 1);
        if (n < 16)
            *frame_reg(&want, n) = v;
        else if (n == 25)
            want.cpsr = v;
        else
            fuzz_fail("P of register %u changed the frame", (unsigned)n);
        break;
    case 'c':
    case 'C':
        if (wire.body[0] == 'C') {
            FUZZ_CHECK(wire_hex(&i, &v) && wire.body[i++] == ';', "C without an address");
        }
        FUZZ_CHECK(wire_hex(&i, &v) && i == wire.len, "malformed c changed the frame: %.*s",
                   (int)wire.len, wire.body);
        want.pc = v;
        break;
    default:
        fuzz_fail("packet '%c' changed the frame", wire.body[0]);
    }
    FUZZ_CHECK(memcmp(&want, now, sizeof(*now)) == 0, "frame is not what '%c' asked for",
               wire.body[0]);
    FUZZ_CHECK(!((before->cpsr ^ now->cpsr) & ARM_MODE_MASK) ||
                   (classic(before->cpsr) && classic(now->cpsr)),
               "cpsr mode %02x -> %02x", (unsigned)(before->cpsr & 0x1f),
               (unsigned)(now->cpsr & 0x1f));
}

static void check_stub(void)
{
    FUZZ_CHECK(stub.len <= GDB_PACKET_SIZE && stub.out <= GDB_PACKET_SIZE, "buffer bounds");
    FUZZ_CHECK(stub.mode <= GDB_RUNNING, "mode %u", stub.mode);
    FUZZ_CHECK(stub.mode != GDB_HALTED || stub.frame == &frame, "halted without the frame");
    FUZZ_CHECK(stub.cpu < CPUS && stub.cpu != CPU_OFF, "cpu %u selected", stub.cpu);
}

/* What the stub sent for one byte: acks and whole packets, each checked on the wire and
 * expanded as GDB would. An m reply must be the memory's bytes from the start of the range
 * (or an error). */
static void check_output(bool m_reply)
{
    static char body[4 * GDB_PACKET_SIZE + 256];
    const char *out = fake_output(), *end = out + fake_output_len();

    while (out < end) {
        if (*out == '+' || *out == '-') {
            out++;
            continue;
        }
        FUZZ_CHECK(*out == '$', "junk 0x%02x outside a packet", (uint8_t)*out);
        const char *hash = memchr(out, '#', (size_t)(end - out));
        FUZZ_CHECK(hash && end - hash >= 3, "unterminated packet");
        unsigned sum = 0, lit = 0;
        size_t n = 0;
        char prev = 0;
        for (const char *p = out + 1; p < hash; p++) {
            sum += (uint8_t)*p;
            FUZZ_CHECK(*p != '$', "'$' inside a packet");
            if (*p == '*') {
                FUZZ_CHECK(n && p + 1 < hash, "'*' without a character before or a count");
                char k = *++p;
                sum += (uint8_t)k;
                FUZZ_CHECK(k >= ' ' && k <= '~' && !strchr("#$+-", k), "count 0x%02x", (uint8_t)k);
                for (int i = 0; i < k - 29; i++) {
                    FUZZ_CHECK(n < sizeof(body), "expanded packet too long");
                    body[n] = body[n - 1];
                    n++;
                }
                lit = 0;
                continue;
            }
            lit = *p == prev && lit ? lit + 1 : 1;
            prev = *p;
            FUZZ_CHECK(lit < 4, "four literal '%c' in a row", *p);
            FUZZ_CHECK(n < sizeof(body), "expanded packet too long");
            body[n++] = *p;
        }
        FUZZ_CHECK((sum & 0xff) == (unsigned)(hexdigit(hash[1]) << 4 | hexdigit(hash[2])),
                   "bad checksum sent");
        if (m_reply && !(n == 3 && body[0] == 'E') && n) {
            FUZZ_CHECK(!(n & 1) && n / 2 <= last_m.len && n / 2 <= GDB_PACKET_SIZE / 2,
                       "m reply of %zu digits for %x bytes", n, (unsigned)last_m.len);
            for (size_t i = 0; i < n / 2; i++) {
                uint32_t a = last_m.start + (uint32_t)i;
                int hi = hexdigit(body[2 * i]), lo = hexdigit(body[2 * i + 1]);
                FUZZ_CHECK(hi >= 0 && lo >= 0, "m reply not hex");
                FUZZ_CHECK(a - FAKE_RAM_BASE < FAKE_RAM_SIZE && a - HOLE_BASE >= HOLE_SIZE,
                           "m reply has a byte of %08x, which faults", (unsigned)a);
                FUZZ_CHECK(*fake_mem(a) == (uint8_t)(hi << 4 | lo), "m reply differs at %08x",
                           (unsigned)a);
            }
        }
        out = hash + 3;
    }
}

/* --- driving ------------------------------------------------------------------------------- */

static void start_session(void)
{
    if (cfg & CFG_OPEN_STATUS)
        gdb_stub_start_packet(&stub, &frame, "?", 1);
    else if (cfg & CFG_OPEN_QSUPPORTED)
        gdb_stub_start_packet(&stub, &frame, "qSupported:multiprocess+", 24);
    else
        gdb_stub_start(&stub, &frame);
    wire.phase = 0;
    wire.complete = false;
}

static void feed(uint8_t c)
{
    struct cpu_frame before[CPUS];
    unsigned sel = stub.cpu;
    bool running = gdb_stub_running(&stub);

    bool m_reply;

    for (unsigned n = 0; n < CPUS; n++)
        before[n] = *cpu_frame_of(n);
    resending = c == '-' && wire.phase == 0;
    wire_track(c);
    track_m();
    m_reply = (resending || wire_dispatched()) && last_m.valid && stub.mode == GDB_HALTED &&
              (resending || wire.body[0] == 'm') && !(fake.mem_unavailable);
    enum gdb_action a = gdb_stub_feed(&stub, c);
    resending = false;
    for (unsigned n = 0; n < CPUS; n++)
        check_frame(n, &before[n], sel);
    check_stub();
    check_output(m_reply);
    FUZZ_CHECK(fake_output_len() <= OUTPUT_PER_BYTE_MAX, "%zu bytes of output for one byte",
               fake_output_len());
    fake_output_reset();
    switch (a) {
    case GDB_STAY:
        break;
    case GDB_RESUME:
        FUZZ_CHECK(!running && wire_dispatched() && strchr("cCv", wire.body[0]),
                   "resume without c, C or vCont");
        FUZZ_CHECK(gdb_stub_running(&stub), "resumed but not running");
        if (cfg & CFG_STOP_AT_ONCE)
            gdb_stub_stopped(&stub, &frame, 0);
        break;
    case GDB_INTERRUPT:
        FUZZ_CHECK(running && c == 0x03, "interrupt without Ctrl-C to a running kernel");
        gdb_stub_stopped(&stub, &frame, 0);
        break;
    case GDB_DETACH:
        FUZZ_CHECK(!running && wire_dispatched() && (wire.body[0] == 'D' || wire.body[0] == 'k'),
                   "detach without D or k");
        FUZZ_CHECK(!gdb_stub_active(&stub), "still active after detach");
        start_session();
        break;
    case GDB_SHELL:
        FUZZ_CHECK(wire_dispatched() && body_is("3"), "shell without $3#33");
        FUZZ_CHECK(!gdb_stub_active(&stub), "still active after the escape");
        start_session();
        break;
    default:
        fuzz_fail("action %d", (int)a);
    }
}

static void feed_framed(const uint8_t *b, size_t n)
{
    char cs[4];
    unsigned sum = 0;

    if (n && b[0] == 0x01) {
        for (size_t i = 1; i < n; i++)
            feed(b[i]);
        return;
    }
    feed('$');
    for (size_t i = 0; i < n; i++) {
        feed(b[i]);
        sum += b[i];
    }
    snprintf(cs, sizeof(cs), "#%02x", sum & 0xff);
    for (int i = 0; i < 3; i++)
        feed((uint8_t)cs[i]);
    if (cfg & CFG_FRAMED_ACK)
        feed('+');
}

static void init_frame(void)
{
    static const uint32_t modes[4] = {ARM_MODE_SVC, ARM_MODE_USR, ARM_MODE_FIQ, ARM_MODE_MON};

    memset(&frame, 0, sizeof(frame));
    for (unsigned i = 0; i < 13; i++)
        frame.r[i] = 0x01010101u * i;
    frame.sp_usr = FAKE_RAM_BASE + 0x800;
    frame.svc.sp = FAKE_RAM_BASE + 0x1800;
    frame.mon.sp = FAKE_RAM_BASE + 0x1900;
    frame.pc = FAKE_RAM_BASE + 0x100;
    frame.cpsr = 0x600000c0u | modes[(cfg >> CFG_MODE_SHIFT) & 3];
}

struct input {
    const uint8_t *data;
    size_t size;
};

static void run(void *arg)
{
    const struct input *in = arg;

    if (cfg & CFG_FRAMED) {
        size_t start = 1;
        for (size_t i = 1; i <= in->size; i++) {
            if (i == in->size || in->data[i] == '\n') {
                feed_framed(in->data + start, i - start);
                start = i + 1;
            }
        }
    } else {
        for (size_t i = 1; i < in->size; i++)
            feed(in->data[i]);
    }
}

static uint8_t ram_pattern[0x2000]; /* the first 8 KiB of fake RAM, not all zero */

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    for (size_t a = 0; a < sizeof(ram_pattern); a++)
        ram_pattern[a] = (uint8_t)(a * 7 + 1);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct input in = {data, size};

    if (size == 0)
        return 0;
    cfg = data[0];
    fake_port_reset();
    fake_mem_add_fault(HOLE_BASE, HOLE_SIZE);
    fake_mem_write(FAKE_RAM_BASE, ram_pattern, sizeof(ram_pattern));
    fake.mem_unavailable = cfg & CFG_MEM_UNAVAILABLE ? "fuzz: no fault catching" : NULL;
    monitor_init(1, &fiqmon_features);
    con_set_sink(NULL);
    init_frame();
    fake.desc.cpus = CPUS;
    for (unsigned n = 1; n < CPUS; n++) {
        struct cpu_frame f = frame;
        f.pc += 0x100u * n;
        f.r[0] = n;
        fake_cpu_set(n, n != CPU_OFF, &f);
    }
    fake.cpus_late = 1u << CPU_LATE;
    port_cpus_hold(true);
    fuzz_frame = &frame;
    memset(&wire, 0, sizeof(wire));
    memset(&last_m, 0, sizeof(last_m));
    memset(&stub, 0x5a, sizeof(stub));
    start_session();
    fake_on_mem_access = check_access;
    if (fake_expect_reboot(run, &in)) /* "monitor reboot" */
        con_set_sink(NULL);
    fake_on_mem_access = NULL;
    fake_output_reset();
    return 0;
}
