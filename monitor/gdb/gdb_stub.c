/* SPDX-License-Identifier: MIT */
/* GDB Remote Serial Protocol stub (see gdb_stub.h for the contract).
 *
 * One buffer serves both directions: a packet body is received into buf, its arguments are
 * parsed (and binary data decoded in place), and only then is the reply written over it
 * from buf[0]. The reply stays there for a resend until the next packet begins. An m reply
 * is the exception: it goes from memory straight to the port, and a resend reads the
 * memory again. Every packet sent is run-length encoded on the way out (tx_*). */
#include "gdb_stub.h"
#include "gdb_regs.h"
#include "parse.h"

#include <string.h>

#include "build_options.h"
#include "console.h"
#include "monitor.h"
#if FIQMON_BREAKPOINTS
#include "breakpoints.h"
#if FIQMON_LINUX
#include "kallsyms.h"
#include "vmcoreinfo.h"
#endif
#endif
#include "platform.h"
#include "sections.h"

FIQMON_BUFFER("gdb") struct gdb_stub gdb;

/* qSupported's PacketSize, in hex as the protocol wants it. */
#define PACKET_SIZE_TEXT "800"
_Static_assert(GDB_PACKET_SIZE == 0x800u, "update PACKET_SIZE_TEXT");
_Static_assert(GDB_PACKET_SIZE <= 0xffffu, "len and out are 16-bit");

/* Bytes of console output per O packet: each goes out as two hex digits, and 'O' plus
 * those still fits the PacketSize GDB was told about. */
#define RCMD_CHUNK ((GDB_PACKET_SIZE - 1u) / 2u)
/* Where that output is gathered: the tail of buf, behind the longest command line a qRcmd
 * can carry (its hex halves in place, plus a NUL). */
#define RCMD_BATCH (GDB_PACKET_SIZE - RCMD_CHUNK)
_Static_assert((GDB_PACKET_SIZE - 6u) / 2u + 1u <= RCMD_BATCH, "command line meets the batch");

/* What a stub without breakpoints or single-step (no debug unit: monitor/debug/) says to
 * Z, z, s, S: an error, never the empty "unsupported" reply, on which GDB falls back to
 * writing its own breakpoint instructions into the kernel's text with M/X (nothing here
 * could catch them). */
#define NO_BREAKPOINTS "E01"

/* A thread (CPU) that is not there, or runs on: ESRCH. */
#define NO_THREAD "E03"

enum { RX_IDLE, RX_BODY, RX_CSUM1, RX_CSUM2 };

static const char hex_digits[] = "0123456789abcdef";

/* --- hex --------------------------------------------------------------------------------- */


/* Two hex digits, or -1. */
static int hex_byte(const char *p)
{
    int hi = parse_hex_digit(p[0]), lo = parse_hex_digit(p[1]);

    return (hi | lo) < 0 ? -1 : hi << 4 | lo;
}

/* A register as GDB sends it: 2 * bytes hex digits, little-endian. */
static bool get_le(const char *p, unsigned bytes, target_addr_t *out)
{
    target_addr_t v = 0;

    for (unsigned i = 0; i < bytes; i++) {
        int b = hex_byte(p + 2 * i);
        if (b < 0)
            return false;
        v |= (target_addr_t)b << (8 * i);
    }
    *out = v;
    return true;
}

/* A hex number of at most bits bits (32, or an address's width) and at least one digit at
 * p (before end). Returns the first byte after it, or NULL. */
static const char *parse_hex_bits(const char *p, const char *end, target_addr_t *out,
                                  unsigned bits)
{
    const char *start = p;
    target_addr_t v = 0;
    int d;

    for (; p < end && (d = parse_hex_digit(*p)) >= 0; p++) {
        if (v >> (bits - 4))
            return NULL;
        v = v << 4 | (target_addr_t)d;
    }
    *out = v;
    return p == start ? NULL : p;
}

/* A hex number of at most 32 bits: a length, a register or thread number, a signal. */
static const char *parse_hex(const char *p, const char *end, uint32_t *out)
{
    target_addr_t v = 0;

    p = parse_hex_bits(p, end, &v, 32);
    *out = (uint32_t)v;
    return p;
}

/* An address in the target's space (target_addr_t: 32 or 64 bits). */
static const char *parse_hex_addr(const char *p, const char *end, target_addr_t *out)
{
    return parse_hex_bits(p, end, out, 8 * sizeof(target_addr_t));
}

/* "ADDR,LEN" followed by sep (or by the end when sep is 0). Returns what follows sep. */
static const char *parse_range(const char *p, const char *end, target_addr_t *addr,
                               uint32_t *len, char sep)
{
    p = parse_hex_addr(p, end, addr);
    if (!p || p == end || *p != ',')
        return NULL;
    p = parse_hex(p + 1, end, len);
    if (!p)
        return NULL;
    if (!sep)
        return p == end ? p : NULL;
    return p < end && *p == sep ? p + 1 : NULL;
}

/* --- sending: streamed to the port, run-length encoded ---------------------------------- */

/* A run of n copies of c goes out as c, '*', (char)(n + 28): the count characters run from
 * ' ' (4 copies) to '~' (98). Shorter runs save nothing. '#' and '$' (7, 8 copies) would
 * end or start a packet, and '+', '-' (15, 17) look like acks to a reader that resyncs:
 * those lengths are split (one copy less, the rest literal). */
#define RLE_MIN 4u
#define RLE_MAX 98u
#define RLE_COUNT(n) ((char)((n) + 28u))

static struct {
    uint8_t sum; /* checksum of what went out since '$' */
    char c;      /* the run not yet sent: n copies of c */
    uint16_t n;
} tx;

static void tx_put(char c)
{
    port_putc((uint8_t)c);
    tx.sum = (uint8_t)(tx.sum + (uint8_t)c);
}

static bool rle_count_ok(unsigned n)
{
    char k = RLE_COUNT(n);

    return k != '#' && k != '$' && k != '+' && k != '-';
}

static void tx_flush_run(void)
{
    unsigned n = tx.n;

    while (n >= RLE_MIN) {
        unsigned k = n < RLE_MAX ? n : RLE_MAX;
        while (!rle_count_ok(k))
            k--; /* never below RLE_MIN: 4, 5 and 6 are allowed */
        tx_put(tx.c);
        tx_put('*');
        tx_put(RLE_COUNT(k));
        n -= k;
    }
    while (n--)
        tx_put(tx.c);
    tx.n = 0;
}

static void tx_begin(void)
{
    port_putc('$');
    tx.sum = 0;
    tx.n = 0;
}

/* One body character; runs are held back until they end. */
static void tx_char(char c)
{
    if (tx.n && c == tx.c && tx.n < 0xffffu) {
        tx.n++;
        return;
    }
    tx_flush_run();
    tx.c = c;
    tx.n = 1;
}

static void tx_hex8(uint32_t b)
{
    tx_char(hex_digits[(b >> 4) & 15]);
    tx_char(hex_digits[b & 15]);
}

static void tx_end(void)
{
    uint8_t sum;

    tx_flush_run();
    sum = tx.sum;
    port_putc('#');
    port_putc((uint8_t)hex_digits[sum >> 4]);
    port_putc((uint8_t)hex_digits[sum & 15]);
}

/* $[lead]body#cs; with hex, each body byte goes out as two hex digits. */
static void send_packet(char lead, const char *body, size_t n, bool hex)
{
    tx_begin();
    if (lead)
        tx_char(lead);
    for (size_t i = 0; i < n; i++) {
        if (hex)
            tx_hex8((uint8_t)body[i]);
        else
            tx_char(body[i]);
    }
    tx_end();
}

/* Console output of a "monitor" command, gathered in buf's tail (rcmd_batch) so that
 * commands printing a character or a field at a time still make few O packets. Each
 * O packet is sent once. */
static char *rcmd_batch;
static size_t rcmd_fill;

static void rcmd_flush(void)
{
    if (rcmd_fill)
        send_packet('O', rcmd_batch, rcmd_fill, true);
    rcmd_fill = 0;
}

static void rcmd_output(const char *s, size_t n)
{
    while (n) {
        size_t k = RCMD_CHUNK - rcmd_fill;
        if (k > n)
            k = n;
        memcpy(rcmd_batch + rcmd_fill, s, k);
        rcmd_fill += k;
        s += k;
        n -= k;
        if (rcmd_fill == RCMD_CHUNK)
            rcmd_flush();
    }
}

/* --- the reply, built in buf ------------------------------------------------------------- */

static void put(struct gdb_stub *g, char c)
{
    if (g->out < GDB_PACKET_SIZE)
        g->buf[g->out++] = c;
}

static void put_str(struct gdb_stub *g, const char *s)
{
    while (*s)
        put(g, *s++);
}

static void put_hex8(struct gdb_stub *g, uint32_t b)
{
    put(g, hex_digits[(b >> 4) & 15]);
    put(g, hex_digits[b & 15]);
}

/* A register: bytes (4 or 8) little-endian. */
static void put_le(struct gdb_stub *g, target_addr_t v, unsigned bytes)
{
    for (unsigned i = 0; i < bytes; i++)
        put_hex8(g, (uint32_t)(v >> (8 * i)) & 0xffu);
}

#if FIQMON_BREAKPOINTS
static void put_hex32(struct gdb_stub *g, uint32_t v)
{
    for (int i = 3; i >= 0; i--)
        put_hex8(g, v >> (8 * i));
}
#endif

/* Binary data: '#', '$', '}' and '*' (run-length marker) go out as '}', c ^ 0x20. */
static void put_bin(struct gdb_stub *g, char c)
{
    if (c == '#' || c == '$' || c == '}' || c == '*') {
        put(g, '}');
        c ^= 0x20;
    }
    put(g, c);
}

/* Replaces whatever the reply holds so far. */
static void reply_str(struct gdb_stub *g, const char *s)
{
    g->out = 0;
    put_str(g, s);
}

static void send_reply(struct gdb_stub *g)
{
    send_packet(0, g->buf, g->out, false);
    g->have_reply = true;
    g->reply_mem = false;
    g->resends = 0;
}

/* --- registers --------------------------------------------------------------------------- */

static void read_regs(struct gdb_stub *g, struct cpu_frame *f)
{
    for (unsigned s = 0; s < GDB_REG_SLOTS; s++)
        put_le(g, gdb_reg_get(f, s), gdb_reg_bytes(s));
}

/* G: every register checked before any is written; the psr last, so banked registers
 * (AArch32's r13/r14) land in the bank of the mode they were read from. */
static void write_regs(struct gdb_stub *g, struct cpu_frame *f, const char *p, size_t n)
{
    target_addr_t v = 0;
    const char *q = p;

    if (n != GDB_REGS_HEX)
        return reply_str(g, "E22");
    for (unsigned s = 0; s < GDB_REG_SLOTS; q += 2 * gdb_reg_bytes(s++))
        if (!get_le(q, gdb_reg_bytes(s), &v))
            return reply_str(g, "E22");
    if (!gdb_psr_ok(frame_psr(f), (uint32_t)v)) /* v: the psr, the last slot */
        return reply_str(g, "E22");
    for (unsigned s = 0; s < GDB_REG_PSR; p += 2 * gdb_reg_bytes(s++)) {
        get_le(p, gdb_reg_bytes(s), &v);
        gdb_reg_set(f, s, v);
    }
    get_le(p, gdb_reg_bytes(GDB_REG_PSR), &v);
    gdb_reg_set(f, GDB_REG_PSR, v);
    reply_str(g, "OK");
}

/* p N */
static void read_reg(struct gdb_stub *g, struct cpu_frame *f, const char *p, const char *end)
{
    uint32_t n;
    int s;

    if (parse_hex(p, end, &n) != end || (s = gdb_reg_slot(n)) < 0)
        return reply_str(g, "E22");
    put_le(g, gdb_reg_get(f, (unsigned)s), gdb_reg_bytes((unsigned)s));
}

/* P N=VALUE, VALUE exactly as wide as the register */
static void write_reg(struct gdb_stub *g, struct cpu_frame *f, const char *p, const char *end)
{
    uint32_t n;
    target_addr_t v;
    int s;

    p = parse_hex(p, end, &n);
    if (!p || (s = gdb_reg_slot(n)) < 0 || end - p != 1 + 2 * (int)gdb_reg_bytes((unsigned)s) ||
        *p != '=' || !get_le(p + 1, gdb_reg_bytes((unsigned)s), &v))
        return reply_str(g, "E22");
    if ((unsigned)s == GDB_REG_PSR && !gdb_psr_ok(frame_psr(f), (uint32_t)v))
        return reply_str(g, "E22");
    gdb_reg_set(f, (unsigned)s, v);
    reply_str(g, "OK");
}

/* --- threads: one per CPU, id = index + 1 (as QEMU's gdbstub numbers them) ------------- */

static unsigned cpu_count(void)
{
    return platform->cpus ? platform->cpus : 1u;
}

/* CPU n's context, or NULL: off, or running on (it did not answer the roundup). CPU 0's is
 * the session's. */
static struct cpu_frame *cpu_context(const struct gdb_stub *g, unsigned n, bool *online)
{
    struct port_cpu c;

    if (!n) {
        *online = true;
        return g->frame;
    }
    port_cpu(n, &c);
    *online = c.online;
    return c.frame;
}

/* A thread id at p..end: the CPU it names (0 and -1, "any" and "all": the selected one), or
 * -1 if malformed, -2 if that CPU is off or not there. */
static int thread_cpu(const struct gdb_stub *g, const char *p, const char *end)
{
    uint32_t id;
    bool online;

    if (end - p == 2 && p[0] == '-' && p[1] == '1')
        return g->cpu;
    if (parse_hex(p, end, &id) != end)
        return -1;
    if (!id)
        return g->cpu;
    if (id > cpu_count())
        return -2;
    cpu_context(g, id - 1, &online);
    return online ? (int)id - 1 : -2;
}

static void put_thread(struct gdb_stub *g, unsigned cpu)
{
    put_hex8(g, cpu + 1);
}

static bool debug_unit(void)
{
#if FIQMON_BREAKPOINTS
    return debug_breakpoint_slots() != 0;
#else
    return false;
#endif
}

/* GDB's qSupported list at p..end (";name+;name-;...") has feature f. */
static bool has_feature(const char *p, const char *end, const char *f)
{
    size_t n = strlen(f);

    while (p < end) {
        const char *q = p + (*p == ':' || *p == ';');
        const char *next = q;
        while (next < end && *next != ';')
            next++;
        if ((size_t)(next - q) == n && memcmp(q, f, n) == 0)
            return true;
        p = next;
    }
    return false;
}

/* T02thread:N; (SIGINT: stopped by Ctrl-C, a knock, an NMI) for the selected CPU, or T05
 * (SIGTRAP) when the debug unit stopped it, with the watched address for a watchpoint, and
 * swbreak/hwbreak for a breakpoint when GDB takes them. */
static void stop_reply(struct gdb_stub *g)
{
#if FIQMON_BREAKPOINTS
    const struct debug_stop *s = &debug_last_stop;
    if (s->valid) {
        reply_str(g, "T05thread:");
        put_thread(g, g->cpu);
        put(g, ';');
        if (s->watch) {
            put_str(g, s->kind == WATCH_READ ? "rwatch:" : s->kind == WATCH_ACCESS ? "awatch:"
                                                                                  : "watch:");
            put_hex32(g, s->addr);
            put(g, ';');
        } else if (g->break_reasons && !s->step) {
            put_str(g, s->soft ? "swbreak:;" : "hwbreak:;");
        }
        return;
    }
#endif
    reply_str(g, "T02thread:");
    put_thread(g, g->cpu);
    put(g, ';');
}

/* g, G, p, P on the selected CPU's saved context. */
static void registers(struct gdb_stub *g, char kind, const char *p, const char *end)
{
    bool online;
    struct cpu_frame *f = cpu_context(g, g->cpu, &online);

    if (!f)
        return reply_str(g, NO_THREAD);
    if (kind == 'g')
        read_regs(g, f);
    else if (kind == 'G')
        write_regs(g, f, p, (size_t)(end - p));
    else if (kind == 'p')
        read_reg(g, f, p, end);
    else
        write_reg(g, f, p, end);
}

/* qfThreadInfo: every online CPU, in one reply. */
static void list_threads(struct gdb_stub *g)
{
    bool online;

    reply_str(g, "m");
    for (unsigned n = 0; n < cpu_count(); n++) {
        cpu_context(g, n, &online);
        if (!online)
            continue;
        if (g->out > 1)
            put(g, ',');
        put_thread(g, n);
    }
}

/* qThreadExtraInfo,ID: "CPU n [halted]", or "[running]" (it did not answer the roundup);
 * written as text, then hex-encoded in place from the end. */
static void thread_info(struct gdb_stub *g, const char *p, const char *end)
{
    int cpu = thread_cpu(g, p, end);
    bool online;

    if (cpu < 0)
        return reply_str(g, cpu == -1 ? "E22" : NO_THREAD);
    reply_str(g, "CPU ");
    put(g, (char)('0' + cpu)); /* at most 8 CPUs (GICv2) */
    put_str(g, cpu_context(g, (unsigned)cpu, &online) ? " [halted]" : " [running]");
    for (unsigned i = g->out; i--;) {
        uint8_t c = (uint8_t)g->buf[i];
        g->buf[2 * i] = hex_digits[c >> 4];
        g->buf[2 * i + 1] = hex_digits[c & 15];
    }
    g->out *= 2;
}

/* Hg ID selects the CPU for g, G, p, P; Hc ID (continue) is checked, and all resume anyway.
 * T ID: is it alive (online). */
static void thread_packet(struct gdb_stub *g, const char *b, const char *end)
{
    int cpu;

    if (b[0] == 'H' && (end - b < 2 || (b[1] != 'g' && b[1] != 'c')))
        return reply_str(g, "E22");
    cpu = thread_cpu(g, b + 1 + (b[0] == 'H'), end);
    if (cpu < 0)
        return reply_str(g, cpu == -1 ? "E22" : NO_THREAD);
    if (b[0] == 'H' && b[1] == 'g') {
        bool online;
        struct cpu_frame *f = cpu_context(g, (unsigned)cpu, &online);
        g->cpu = (uint8_t)cpu;
        /* memory follows the thread too (its task's user addresses), as in QEMU's stub */
        if (f)
            monitor_view_cpu((unsigned)cpu, f);
    }
    reply_str(g, "OK");
}

/* --- memory ------------------------------------------------------------------------------ */

static bool mem_usable(void)
{
    if (port_mem_unavailable())
        return false;
    port_mem_space(PORT_MEM_VIRTUAL);
    return true;
}

/* The m reply for mem_addr/mem_len, read and sent as it goes: as many bytes as read before
 * the first fault. Returns false, having sent nothing, if the first byte faults. */
static bool send_mem(const struct gdb_stub *g)
{
    target_addr_t addr = g->mem_addr;
    uint32_t len = g->mem_len, i = 0, v;

    while (i < len) {
        target_addr_t a = addr + i;
        unsigned w = !(a & 3) && len - i >= 4 ? 4 : 1;
        if (!port_mem_read(a, w, &v))
            break;
        if (!i)
            tx_begin();
        for (unsigned k = 0; k < w; k++)
            tx_hex8(v >> (8 * k));
        i += w;
    }
    if (!i)
        return false;
    tx_end();
    return true;
}

/* m ADDR,LEN: up to GDB_PACKET_SIZE / 2 bytes, up to the first fault. Returns true if the
 * reply went out (streamed); otherwise it is in buf. */
static bool read_mem(struct gdb_stub *g, const char *p, const char *end)
{
    target_addr_t addr;
    uint32_t len;

    if (!parse_range(p, end, &addr, &len, 0)) {
        reply_str(g, "E22");
        return false;
    }
    if (len > GDB_PACKET_SIZE / 2)
        len = GDB_PACKET_SIZE / 2;
    if (addr && len > (target_addr_t)0 - addr)
        len = (uint32_t)((target_addr_t)0 - addr); /* stop at the top of the address space */
    if (!len)
        return false; /* the empty reply */
    g->mem_addr = addr;
    g->mem_len = len;
    if (!mem_usable() || !send_mem(g)) {
        reply_str(g, "E14");
        return false;
    }
    g->have_reply = true;
    g->reply_mem = true;
    g->resends = 0;
    return true;
}

/* Writes d[0..n) at addr: aligned words as words, the rest bytewise. */
static bool write_mem(target_addr_t addr, const uint8_t *d, uint32_t n)
{
    unsigned w;

    for (uint32_t i = 0; i < n; i += w) {
        target_addr_t a = addr + i;
        uint32_t v = d[i];
        w = 1;
        if (!(a & 3) && n - i >= 4) {
            w = 4;
            v |= (uint32_t)d[i + 1] << 8 | (uint32_t)d[i + 2] << 16 | (uint32_t)d[i + 3] << 24;
        }
        if (!port_mem_write(a, w, v))
            return false;
    }
    return true;
}

/* M ADDR,LEN:HEX and X ADDR,LEN:BINARY. The data is decoded in place over the packet. */
static void write_mem_packet(struct gdb_stub *g, char kind, char *p, const char *end)
{
    target_addr_t addr;
    uint32_t len, n = 0;
    uint8_t *d;

    p = (char *)parse_range(p, end, &addr, &len, ':');
    if (!p)
        return reply_str(g, "E22");
    d = (uint8_t *)p;
    if (kind == 'M') {
        if ((size_t)(end - p) != 2 * (size_t)len)
            return reply_str(g, "E22");
        for (; n < len; n++) {
            int b = hex_byte(p + 2 * n);
            if (b < 0)
                return reply_str(g, "E22");
            d[n] = (uint8_t)b;
        }
    } else {
        for (; p < end; n++) {
            char c = *p++;
            if (c == '}') {
                if (p == end)
                    return reply_str(g, "E22");
                c = (char)(*p++ ^ 0x20);
            }
            d[n] = (uint8_t)c;
        }
        if (n != len)
            return reply_str(g, "E22");
    }
    if (len && (len - 1 > TARGET_ADDR_MAX - addr || !mem_usable() || !write_mem(addr, d, len)))
        return reply_str(g, "E14");
    reply_str(g, "OK");
}

/* --- queries ----------------------------------------------------------------------------- */

static bool is(const char *b, size_t len, const char *s)
{
    size_t n = strlen(s);

    return len == n && memcmp(b, s, n) == 0;
}

static bool starts(const char *b, size_t len, const char *s)
{
    size_t n = strlen(s);

    return len >= n && memcmp(b, s, n) == 0;
}

/* qXfer:features:read:ANNEX:OFFSET,LENGTH — 'm' if more follows, 'l' for the last part. */
static void read_features(struct gdb_stub *g, const char *p, const char *end)
{
    static const char annex[] = "target.xml:";
    const uint32_t size = gdb_target_xml_len;
    target_addr_t off;
    uint32_t len, i;

    if (!starts(p, (size_t)(end - p), annex))
        return reply_str(g, "E00");
    if (!parse_range(p + sizeof(annex) - 1, end, &off, &len, 0) || off > size)
        return reply_str(g, "E22");
    g->out = 1;
    for (i = (uint32_t)off; i < size && i - off < len && g->out + 2u <= GDB_PACKET_SIZE; i++)
        put_bin(g, gdb_target_xml[i]);
    g->buf[0] = i == size ? 'l' : 'm';
}

/* qRcmd,HEX: the command runs with its console output going to GDB. */
static void monitor_command(struct gdb_stub *g, char *p, const char *end)
{
    size_t n = (size_t)(end - p) / 2;

    if ((end - p) & 1)
        return reply_str(g, "E22");
    for (size_t i = 0; i < n; i++) {
        int b = hex_byte(p + 2 * i);
        if (b < 0)
            return reply_str(g, "E22");
        g->buf[i] = (char)b; /* in place: buf[i] is behind p + 2i */
    }
    g->buf[n] = '\0';
    rcmd_batch = g->buf + RCMD_BATCH;
    rcmd_fill = 0;
    con_set_sink(rcmd_output);
    monitor_execute(g->buf, GDB_RCMD_FORBIDDEN);
    con_set_sink(NULL);
    rcmd_flush();
    reply_str(g, "OK");
}

static void query(struct gdb_stub *g, size_t len)
{
    char *b = g->buf;
    const char *end = b + len;

    if (starts(b, len, "qSupported") && (len == 10 || b[10] == ':')) {
        /* with a debug unit, a breakpoint's stop says which kind (if GDB takes both) */
        g->break_reasons = debug_unit() && has_feature(b + 10, end, "swbreak+") &&
                           has_feature(b + 10, end, "hwbreak+");
        reply_str(g, "PacketSize=" PACKET_SIZE_TEXT ";qXfer:features:read+;QStartNoAckMode+;"
                     "vContSupported+");
        if (debug_unit())
            put_str(g, ";swbreak+;hwbreak+");
    }
    else if (starts(b, len, "qXfer:features:read:"))
        read_features(g, b + 20, end);
    else if (starts(b, len, "qRcmd,"))
        monitor_command(g, b + 6, end);
    else if (is(b, len, "qAttached") || starts(b, len, "qAttached:"))
        reply_str(g, "1");
    else if (is(b, len, "qC")) {
        reply_str(g, "QC");
        put_thread(g, g->cpu);
    } else if (is(b, len, "qfThreadInfo"))
        list_threads(g);
    else if (starts(b, len, "qThreadExtraInfo,"))
        thread_info(g, b + 17, end);
    else if (is(b, len, "qsThreadInfo"))
        reply_str(g, "l");
}

/* --- run control ------------------------------------------------------------------------- */

/* vCont;ACTION[:THREAD]...: every action must be c or Csig, or (with a debug unit) s or
 * Ssig, which *step says, with the thread it names in [*thread, *thread_end) (empty: the
 * selected one). Every CPU resumes; a step is one CPU's. Returns false if malformed. */
static bool vcont_ok(const char *p, const char *end, bool *step, const char **thread,
                     const char **thread_end)
{
    uint32_t sig;

    *step = false;
    *thread = *thread_end = NULL;
    if (p == end)
        return false;
    while (p < end) {
        bool stepping;
        if (*p++ != ';' || p == end)
            return false;
        stepping = *p == 's' || *p == 'S';
        if (*p == 'C' || (*p == 'S' && debug_unit()))
            p = parse_hex(p + 1, end, &sig);
        else if (*p == 'c' || (*p == 's' && debug_unit()))
            p++;
        else
            return false;
        if (!p || (p < end && *p != ';' && *p != ':'))
            return false;
        if (p < end && *p == ':' && (p + 1 == end || p[1] == ';'))
            return false; /* a thread id that is not there */
        if (stepping && *step)
            return false; /* one step at a time */
        if (stepping) {
            *step = true;
            *thread = *thread_end = p + (p < end && *p == ':');
        }
        while (p < end && *p != ';')
            p++;
        if (stepping)
            *thread_end = p;
    }
    return true;
}

/* c [ADDR] and C SIG[;ADDR]: resume, f at ADDR if given. Returns false if malformed. */
static bool continue_ok(struct cpu_frame *f, const char *p, const char *end)
{
    uint32_t sig;
    target_addr_t pc;

    if (p[-1] == 'C' || p[-1] == 'S') {
        p = parse_hex(p, end, &sig);
        if (!p || (p < end && *p++ != ';'))
            return false;
        if (p == end && p[-1] != ';')
            return true;
    } else if (p == end) {
        return true;
    }
    if (parse_hex_addr(p, end, &pc) != end)
        return false;
    f->pc = pc;
    return true;
}

/* --- breakpoints and steps (the debug unit, monitor/debug/) ---------------------------- */

#if FIQMON_BREAKPOINTS
/* GDB with no vmlinux guesses ARM or Thumb from the CPU's state when it stopped: in a
 * Thumb user program (busybox) it asks for a 2-byte breakpoint in the ARM kernel, and a
 * Thumb BKPT there would corrupt an ARM instruction. In the kernel's own text (kallsyms'
 * range) the kernel's instruction set decides; elsewhere GDB's kind. */
static uint32_t breakpoint_state(uint32_t addr)
{
#if FIQMON_LINUX
    const struct vmci *v = kernel_vmcoreinfo(true);
    uint32_t lo, hi;

    if (v && ksyms_ready(v)) {
        ksyms_range(&lo, &hi);
        if (addr >= lo && addr <= hi)
            return port_debug_kernel_thumb() ? addr | 1u : addr & ~1u;
    }
#endif
    return addr;
}

/* Z/z TYPE,ADDR,KIND: 0 software breakpoints (fiqmon's BKPT in the kernel's text; on a
 * single CPU: with several, the others' hits would be the kernel's, so the hardware ones
 * there), 1 hardware breakpoints, 2-4 watchpoints (KIND: bytes). */
static void breakpoint_packet(struct gdb_stub *g, const char *b, const char *end)
{
    uint32_t type, addr, kind;
    const char *p = parse_hex(b + 1, end, &type);
    bool set = b[0] == 'Z';
    int r;

    if (!debug_unit()) {
        reply_str(g, NO_BREAKPOINTS);
        return;
    }
    if (!p || p == end || *p != ',' || !(p = parse_hex(p + 1, end, &addr)) || p == end ||
        *p != ',' || !(p = parse_hex(p + 1, end, &kind)) || (p != end && *p != ';') ||
        type > 4) {
        reply_str(g, "E22");
        return;
    }
    if (type <= 1) {
        if (kind != 2 && kind != 3 && kind != 4) {
            reply_str(g, "E22");
            return;
        }
        if (kind != 4)
            addr |= 1u; /* Thumb */
        addr = breakpoint_state(addr);
        bool soft = type == 0;
        if (!set) {
            if (!soft || !debug_soft_clear(addr))
                debug_break_clear(addr);
            reply_str(g, "OK");
            return;
        }
        r = soft ? debug_soft_set(addr) : debug_break_set(addr, DEBUG_BY_GDB);
    } else {
        enum watch_kind wk = type == 2 ? WATCH_WRITE : type == 3 ? WATCH_READ : WATCH_ACCESS;
        if (!set) {
            debug_watch_clear(addr, kind, wk);
            reply_str(g, "OK");
            return;
        }
        r = debug_watch_set(addr, kind, wk, DEBUG_BY_GDB);
    }
    /* full: ENOSPC; unmapped: EFAULT; same again: OK; a shape the unit cannot watch: EINVAL */
    reply_str(g, r > 0 || r == -3  ? "OK"
                 : r == -1            ? "E28"
                 : r == -5 || r == -6 ? "E14" /* unmapped, or not executable */
                                      : "E22");
}

/* s [ADDR], S SIG[;ADDR]: one instruction on the selected CPU (Hg; GDB selects the thread
 * it steps), its pc moved to ADDR if given. */
static bool step_ok(struct gdb_stub *g, const char *p, const char *end)
{
    const char *error;
    bool online;
    struct cpu_frame *f = cpu_context(g, g->cpu, &online);
    target_addr_t pc;

    if (!debug_unit()) {
        reply_str(g, NO_BREAKPOINTS);
        return false;
    }
    if (!f) {
        reply_str(g, NO_THREAD); /* off, or running on */
        return false;
    }
    pc = f->pc;
    if (!continue_ok(f, p, end)) {
        f->pc = pc;
        reply_str(g, "E22");
        return false;
    }
    if (!debug_step_request(f, g->cpu, &error)) {
        f->pc = pc; /* nothing moved */
        reply_str(g, "E01");
        return false;
    }
    return true;
}
#endif

/* --- dispatch ---------------------------------------------------------------------------- */

static enum gdb_action end_session(struct gdb_stub *g, enum gdb_action a)
{
    g->mode = a == GDB_RESUME ? GDB_RUNNING : GDB_OFF;
    g->frame = NULL;
    return a;
}

/* The packet body is buf[0..len). */
static enum gdb_action dispatch(struct gdb_stub *g, size_t len)
{
    char *b = g->buf;
    const char *end = b + len;
    char kind = len ? b[0] : '\0';

    if (len == 1 && kind == '3')
        return end_session(g, GDB_SHELL);
    if (g->mode != GDB_HALTED)
        return GDB_STAY;
    g->out = 0;
    if (gdb_packet_needs(b, len) & ~monitor_permissions()) {
        reply_str(g, "E01"); /* locked, or read-only (lockdown.h) */
        send_reply(g);
        return GDB_STAY;
    }
    switch (kind) {
    case '?':
        stop_reply(g);
        break;
    case 'g':
    case 'G':
    case 'p':
    case 'P':
        registers(g, kind, b + 1, end);
        break;
    case 'm':
        if (read_mem(g, b + 1, end))
            return GDB_STAY;
        break;
    case 'M':
    case 'X':
        write_mem_packet(g, kind, b + 1, end);
        break;
    case 'c':
    case 'C':
        if (continue_ok(g->frame, b + 1, end))
            return end_session(g, GDB_RESUME);
        reply_str(g, "E22");
        break;
    case 'v':
        if (is(b, len, "vCont?"))
            reply_str(g, debug_unit() ? "vCont;c;C;s;S" : "vCont;c;C");
        else if (starts(b, len, "vCont;") || is(b, len, "vCont")) {
            bool step;
            const char *thread, *thread_end;
            if (!vcont_ok(b + 5, end, &step, &thread, &thread_end)) {
                reply_str(g, "E22");
                break;
            }
#if FIQMON_BREAKPOINTS
            const char *error;
            bool online;
            int cpu = step && thread != thread_end ? thread_cpu(g, thread, thread_end) : g->cpu;
            if (step && cpu < 0) {
                reply_str(g, cpu == -1 ? "E22" : NO_THREAD); /* a CPU that is off */
                break;
            }
            if (step && !debug_step_request(cpu_context(g, (unsigned)cpu, &online),
                                            (unsigned)cpu, &error)) {
                reply_str(g, "E01");
                break;
            }
#endif
            return end_session(g, GDB_RESUME);
        }
        break;
    case 'D':
        if (len == 1 || b[1] == ';') {
            reply_str(g, "OK");
            send_reply(g);
#if FIQMON_BREAKPOINTS
            debug_clear_gdb(); /* GDB's breakpoints go with it (the shell's stay) */
#endif
            return end_session(g, GDB_DETACH);
        }
        break;
    case 'k':
#if FIQMON_BREAKPOINTS
        debug_clear_gdb();
#endif
        return end_session(g, GDB_DETACH);
#if FIQMON_BREAKPOINTS
    case 's':
    case 'S':
        if (step_ok(g, b + 1, end))
            return end_session(g, GDB_RESUME);
        break;
    case 'Z':
    case 'z':
        breakpoint_packet(g, b, end);
        break;
#else
    case 's': /* GDB sends these only if told it may; an error ends its wait for a stop */
    case 'S':
    case 'Z':
    case 'z':
        reply_str(g, NO_BREAKPOINTS);
        break;
#endif
    case 'H':
    case 'T':
        thread_packet(g, b, end);
        break;
    case 'q':
        query(g, len);
        break;
    case 'Q':
        if (is(b, len, "QStartNoAckMode")) {
            reply_str(g, "OK");
            send_reply(g);
            g->no_ack = true; /* after the OK, which GDB still acks */
            return GDB_STAY;
        }
        break;
    default:
        break; /* the rest: the empty reply, "not supported" */
    }
    send_reply(g);
    return GDB_STAY;
}

/* --- the API ----------------------------------------------------------------------------- */

void gdb_stub_start(struct gdb_stub *g, struct cpu_frame *f)
{
    g->frame = f;
    g->cpu = 0;
    g->mode = GDB_HALTED;
    g->rx = RX_IDLE;
    g->no_ack = false;
    g->break_reasons = false;
    g->have_reply = false;
    g->len = 0;
    g->out = 0;
}

static void packet_begin(struct gdb_stub *g)
{
    g->rx = RX_BODY;
    g->len = 0;
    g->csum = 0;
    g->overflow = false;
    g->have_reply = false; /* the body overwrites it, and GDB has moved on */
}

enum gdb_action gdb_stub_feed(struct gdb_stub *g, uint8_t c)
{
    if (g->mode == GDB_OFF)
        return GDB_STAY;
    if (c == '$' && g->rx >= RX_CSUM1) {
        packet_begin(g); /* a packet start where the checksum should be: resync */
        return GDB_STAY;
    }
    switch (g->rx) {
    case RX_IDLE:
        if (c == '$') {
            packet_begin(g);
        } else if (c == 0x03) {
            return g->mode == GDB_RUNNING ? GDB_INTERRUPT : GDB_STAY;
        } else if (c == '+') {
            g->have_reply = false;
        } else if (c == '-' && !g->no_ack && g->have_reply) {
            if (g->resends++ >= GDB_MAX_RESENDS)
                g->have_reply = false;
            else if (!g->reply_mem)
                send_packet(0, g->buf, g->out, false);
            else if (!send_mem(g))
                send_packet(0, "E14", 3, false); /* the memory went away meanwhile */
        }
        return GDB_STAY;
    case RX_BODY:
        if (c == '$') {
            packet_begin(g);
        } else if (c == '#') {
            g->rx = RX_CSUM1;
        } else {
            g->csum = (uint8_t)(g->csum + c);
            if (g->len < GDB_PACKET_SIZE)
                g->buf[g->len++] = (char)c;
            else
                g->overflow = true;
        }
        return GDB_STAY;
    case RX_CSUM1:
        g->csum_hi = (uint8_t)parse_hex_digit((char)c); /* 0xff if not a digit */
        g->rx = RX_CSUM2;
        return GDB_STAY;
    default: {
        int lo = parse_hex_digit((char)c);
        bool good = !g->overflow && g->csum_hi < 16 && lo >= 0 && (g->csum_hi << 4 | lo) == g->csum;
        g->rx = RX_IDLE;
        if (!g->no_ack)
            port_putc(good ? '+' : '-');
        return good ? dispatch(g, g->len) : GDB_STAY;
    }
    }
}

void gdb_stub_stopped(struct gdb_stub *g, struct cpu_frame *own, unsigned cpu)
{
    g->frame = own;
    g->cpu = (uint8_t)cpu; /* the CPU that stopped */
    g->mode = GDB_HALTED;
    g->rx = RX_IDLE; /* a partial packet would run into the reply */
    stop_reply(g);
    send_reply(g);
}

enum gdb_action gdb_stub_packet(struct gdb_stub *g, const char *body, size_t len)
{
    g->rx = RX_IDLE;
    if (g->mode == GDB_OFF || len > GDB_PACKET_SIZE)
        return GDB_STAY;
    memmove(g->buf, body, len);
    return dispatch(g, len);
}

enum gdb_action gdb_stub_start_packet(struct gdb_stub *g, struct cpu_frame *f, const char *body,
                                      size_t len)
{
    gdb_stub_start(g, f);
    port_putc('+');
    return gdb_stub_packet(g, body, len);
}
