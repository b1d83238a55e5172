/* SPDX-License-Identifier: MIT */
/* The knock detector: what enters the debugger, what is noise, when the prompt is due, and
 * the hot path's quiet-noise filter agreeing with the detector. */
#include <stdio.h>

#include "expect.h"

#include "knock.h"

#define MAGIC KNOCK_MAGIC
#define MAGIC_LEN (sizeof(MAGIC) - 1)

/* One letter per event, so a whole stream's events read as a string. */
static char event_letter(enum knock_event ev)
{
    switch (ev) {
    case KNOCK_NOISE:
        return 'n';
    case KNOCK_NOISE_PROMPT:
        return 'P';
    case KNOCK_PARTIAL:
        return 'p';
    case KNOCK_ENTER:
        return 'E';
    case KNOCK_GDB:
        return 'G';
    }
    return '?';
}

static const char *feed_events(struct knock *k, const char *in, size_t n)
{
    static char out[256];

    assert_true(n < sizeof(out));
    for (size_t i = 0; i < n; i++)
        out[i] = event_letter(knock_feed(k, (uint8_t)in[i]));
    out[n] = '\0';
    return out;
}

/* --- table: byte streams and the event each byte must give ------------------------------ */

struct knock_case {
    const char *name;
    int mode;
    bool after_cr; /* start as after knock_restart_after(k, true) */
    const char *input;
    const char *events; /* n noise, P noise + prompt, p partial, E enter */
    uint32_t noise;     /* knock.noise afterwards */
};

static const struct knock_case cases[] = {
    /* mode 1: $3#33 */
    {"magic knock enters on its last byte", 1, false, "$3#33", "ppppE", 0},
    {"second dollar restarts the knock", 1, false, "$$3#33", "pPpppE", 1},
    {"knock broken at its last byte", 1, false, "$3#3x", "ppppP", 5},
    {"knock after noise on the same line", 1, false, "x$3#33", "PppppE", 1},
    {"dollar after a long prefix restarts", 1, false, "$3#3$3#33", "ppppPpppE", 4},
    {"prefix broken by a space, later knock", 1, false, "$3# 33$3#33", "pppPnnppppE", 6},
    {"broken knocks never enter", 1, false, "$3#3x $3# 33 $$3#3\r", "ppppPnpppnnnnpppppn", 19},
    {"one prompt per line, CRLF and LF", 1, false, "ab\r\ncd\n", "PnnnPnn", 7},
    {"empty lines each prompt once", 1, false, "\r\r", "PP", 2},
    {"LF then CR are two line ends", 1, false, "\n\r", "PP", 2},
    {"the LF of a CRLF does not prompt", 1, false, "\r\n", "Pn", 2},
    {"CR ending a partial knock prompts once", 1, false, "$3\r\n", "ppPn", 4},
    {"CRLF tail after exit is quiet", 1, true, "\nab", "nPn", 3},
    {"CR then dollar then LF: LF ends a new line", 1, false, "\r$\n", "PpP", 3},
    {"hash in place of the last 3 breaks the knock", 1, false, "$3#3#", "ppppP", 5},
    /* mode 0: Return */
    {"Return (CR) enters", 0, false, "\r", "E", 0},
    {"Return (LF) enters", 0, false, "\n", "E", 0},
    {"Return after noise enters", 0, false, "abc\r", "PnnE", 3},
    {"magic is noise in mode 0", 0, false, "$3#33", "Pnnnn", 5},
    {"CRLF tail after exit does not enter", 0, true, "\n\n", "nE", 1},
    {"CR after exit's CR still enters", 0, true, "\r", "E", 0},
    /* mode -1: any byte */
    {"any byte enters", -1, false, "x", "E", 0},
    {"LF enters", -1, false, "\n", "E", 0},
    {"CRLF tail after exit does not enter, next byte does", -1, true, "\nq", "nE", 1},
};

static void test_each_byte_gives_the_expected_event(void **state)
{
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const struct knock_case *c = &cases[i];
        struct knock k;

        knock_init(&k, c->mode);
        if (c->after_cr)
            knock_restart_after(&k, true);
        const char *got = feed_events(&k, c->input, strlen(c->input));
        if (strcmp(got, c->events) != 0)
            expect_fail_msg(__FILE__, __LINE__,
                            "case \"%s\" (mode %d, input %s):\n  expected events %s\n"
                            "  got             %s",
                            c->name, c->mode, expect_escape(c->input), c->events, got);
        EXPECT_TRUE(k.noise == c->noise, "case \"%s\": noise expected %u, got %u", c->name,
                    (unsigned)c->noise, (unsigned)k.noise);
    }
}

static void test_pending_prefix_is_counted_as_noise_once_abandoned(void **state)
{
    struct knock k;

    knock_init(&k, KNOCK_MODE_MAGIC);
    EXPECT_STR_EQ(feed_events(&k, "$3#3", 4), "pppp");
    EXPECT_EQ(k.noise, 0);
    EXPECT_STR_EQ(feed_events(&k, "\r", 1), "P");
    EXPECT_EQ(k.noise, 5);
}

static void test_knock_bytes_are_never_counted_as_noise(void **state)
{
    struct knock k;

    knock_init(&k, KNOCK_MODE_MAGIC);
    feed_events(&k, "ab$3#33", 7);
    EXPECT_EQ(k.noise, 2);
}

static void test_restart_keeps_mode_and_counters(void **state)
{
    struct knock k;

    knock_init(&k, KNOCK_MODE_MAGIC);
    feed_events(&k, "xy$3", 4);
    knock_restart(&k);
    EXPECT_EQ(k.mode, KNOCK_MODE_MAGIC);
    EXPECT_EQ(k.noise, 2);
    /* the partial "$3" is forgotten: "#33" alone does not complete it */
    EXPECT_STR_EQ(feed_events(&k, "#33", 3), "Pnn");
}

static void test_mode_validity(void **state)
{
    static const struct {
        long mode;
        bool valid;
    } t[] = {{-2, false}, {-1, true}, {0, true}, {1, true}, {2, false}, {127, false}};

    for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
        EXPECT_TRUE(knock_mode_valid(t[i].mode) == t[i].valid, "knock_mode_valid(%ld): want %d",
                    t[i].mode, t[i].valid);
}

static void test_prompt_text_names_the_knock(void **state)
{
    EXPECT_CONTAINS(knock_prompt(KNOCK_MODE_MAGIC), MAGIC);
    EXPECT_CONTAINS(knock_prompt(KNOCK_MODE_RETURN), "return");
    EXPECT_TRUE(knock_prompt(KNOCK_MODE_ANY_FIQ) == NULL, "mode -1 has no prompt");
}

/* --- the noise path's filter ------------------------------------------------------------ */

/* What the FIQ's noise path drops, as far as the detector decides it (the noise gate's
 * other conditions are the monitor's): a plain byte on a quiet line. */
static bool dropped(const struct knock *k, uint8_t c)
{
    return k->quiet && knock_quiet_byte(c);
}

static void test_quiet_filter_takes_nothing_before_the_line_is_prompted(void **state)
{
    struct knock k;

    knock_init(&k, KNOCK_MODE_MAGIC);
    EXPECT_EQ(dropped(&k, 'a'), false);
    EXPECT_EQ(knock_feed(&k, 'a'), KNOCK_NOISE_PROMPT);
    EXPECT_EQ(dropped(&k, 'b'), true);
}

static void test_quiet_filter_never_takes_dollar_cr_or_lf(void **state)
{
    static const uint8_t keep[] = {'$', '\r', '\n'};

    for (int mode = KNOCK_MODE_RETURN; mode <= KNOCK_MODE_MAGIC; mode++) {
        for (size_t i = 0; i < sizeof(keep); i++) {
            struct knock k;
            knock_init(&k, mode);
            knock_feed(&k, 'a');
            EXPECT_TRUE(!dropped(&k, keep[i]), "mode %d: byte 0x%02x was filtered", mode,
                        keep[i]);
        }
    }
}

static void test_quiet_filter_is_off_during_a_partial_knock_and_after_cr(void **state)
{
    struct knock k;

    knock_init(&k, KNOCK_MODE_MAGIC);
    knock_feed(&k, 'a');
    knock_feed(&k, '$');
    EXPECT_EQ(dropped(&k, '3'), false);
    knock_restart(&k);
    knock_feed(&k, 'a');
    knock_feed(&k, '\r');
    EXPECT_EQ(dropped(&k, 'b'), false);
}

static void test_quiet_filter_is_off_in_any_fiq_mode(void **state)
{
    struct knock k;

    knock_init(&k, KNOCK_MODE_ANY_FIQ);
    knock_restart_after(&k, true);
    knock_feed(&k, '\n');
    EXPECT_EQ(dropped(&k, 'x'), false);
}

static void test_restart_turns_the_quiet_filter_off(void **state)
{
    struct knock k;

    knock_init(&k, KNOCK_MODE_MAGIC);
    knock_feed(&k, 'a');
    knock_restart(&k);
    EXPECT_EQ(dropped(&k, 'b'), false);
}

/* --- long streams ---------------------------------------------------------------------- */

static uint32_t xorshift_state;

static uint32_t xorshift32(void)
{
    uint32_t x = xorshift_state;

    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return xorshift_state = x;
}

static size_t find(const uint8_t *d, size_t n, size_t from, const char *s)
{
    size_t m = strlen(s);

    for (size_t i = from; i + m <= n; i++)
        if (memcmp(d + i, s, m) == 0)
            return i;
    return SIZE_MAX;
}

static size_t count_magic(const uint8_t *d, size_t n)
{
    size_t count = 0;

    for (size_t at = find(d, n, 0, MAGIC); at != SIZE_MAX; at = find(d, n, at + 1, MAGIC))
        count++;
    return count;
}

#define MIB (1024u * 1024u)

/* One stream buffer and two event buffers, static so that a failing test leaks nothing. */
static uint8_t stream[MIB];
static char events_plain[MIB], events_fast[MIB];

/* seeded random bytes with no knock in them */
static uint8_t *noise_stream(size_t n, uint32_t seed)
{
    uint8_t *d = stream;

    assert_true(n <= sizeof(stream));
    xorshift_state = seed;
    for (size_t i = 0; i < n; i++)
        d[i] = (uint8_t)(xorshift32() >> 24);
    for (size_t at = find(d, n, 0, MAGIC); at != SIZE_MAX; at = find(d, n, at, MAGIC))
        d[at] ^= 0xff; /* no '$' is created, so this cannot make a new knock */
    EXPECT_EQ(count_magic(d, n), 0);
    return d;
}

/* Independent count of the prompts a knock-free stream must give in mode 1: one per line
 * (CR, LF and CRLF end a line), plus one for an unterminated last line unless all it holds
 * is the start of a knock, still pending. */
static size_t lines_of_noise(const uint8_t *d, size_t n)
{
    size_t lines = 0, line_start = 0;

    for (size_t i = 0; i < n; i++) {
        bool crlf_tail = d[i] == '\n' && i > 0 && d[i - 1] == '\r';
        if (d[i] == '\r' || (d[i] == '\n' && !crlf_tail))
            lines++;
        if (d[i] == '\r' || d[i] == '\n')
            line_start = i + 1;
    }
    size_t tail = n - line_start;
    if (tail && !(tail < MAGIC_LEN && memcmp(d + line_start, MAGIC, tail) == 0))
        lines++;
    return lines;
}

struct run {
    size_t enters, prompts, first_enter;
    uint32_t noise; /* the detector's noise and the bytes the filter dropped */
    struct knock k;
};

/* Feeds a stream. With filter, each byte first goes through the filter as the FIQ's
 * noise path does, and only what it leaves reaches knock_feed. events (optional) gets each
 * byte's letter, '-' for a filtered byte. */
static struct run feed_stream(int mode, const uint8_t *d, size_t n, bool filter, char *events)
{
    struct run r = {.first_enter = SIZE_MAX};
    uint32_t filtered = 0;

    knock_init(&r.k, mode);
    for (size_t i = 0; i < n; i++) {
        if (filter && dropped(&r.k, d[i])) {
            filtered++;
            if (events)
                events[i] = '-';
            continue;
        }
        enum knock_event ev = knock_feed(&r.k, d[i]);
        if (events)
            events[i] = event_letter(ev);
        if (ev == KNOCK_ENTER) {
            if (!r.enters)
                r.first_enter = i;
            r.enters++;
        }
        if (ev == KNOCK_NOISE_PROMPT)
            r.prompts++;
    }
    r.noise = r.k.noise + filtered;
    return r;
}

static void test_noise_never_enters_debugger(void **state)
{
    uint8_t *d = noise_stream(MIB, 0xf1c0ffeeu);

    for (int filter = 0; filter <= 1; filter++) {
        struct run r = feed_stream(KNOCK_MODE_MAGIC, d, MIB, filter, NULL);
        EXPECT_TRUE(r.enters == 0, "%s: %zu enters in 1 MiB of noise, the first at byte %zu",
                    filter ? "filtered" : "unfiltered", r.enters, r.first_enter);
        /* every byte is noise, except a knock prefix still pending at the end */
        EXPECT_EQ(r.noise + r.k.matched, MIB);
    }
}

static void test_noise_prompts_exactly_once_per_line(void **state)
{
    uint8_t *d = noise_stream(MIB, 0x5eed0001u);
    size_t want = lines_of_noise(d, MIB);

    EXPECT_TRUE(want > 1000, "the stream should hold many lines (%zu)", want);
    for (int filter = 0; filter <= 1; filter++) {
        struct run r = feed_stream(KNOCK_MODE_MAGIC, d, MIB, filter, NULL);
        EXPECT_TRUE(r.prompts == want, "%s: %zu prompts for %zu lines of noise",
                    filter ? "filtered" : "unfiltered", r.prompts, want);
    }
}

static void test_one_knock_in_noise_enters_once_at_its_last_byte(void **state)
{
    uint8_t *d = noise_stream(MIB, 0xdecafbadu);
    size_t at = 1000 + xorshift32() % (MIB - 2000);

    memcpy(d + at, MAGIC, MAGIC_LEN);
    EXPECT_EQ(count_magic(d, MIB), 1);
    for (int filter = 0; filter <= 1; filter++) {
        struct run r = feed_stream(KNOCK_MODE_MAGIC, d, MIB, filter, NULL);
        EXPECT_TRUE(r.enters == 1, "%s: %zu enters, want 1", filter ? "filtered" : "unfiltered",
                    r.enters);
        EXPECT_TRUE(r.first_enter == at + MAGIC_LEN - 1,
                    "%s: entered at byte %zu, the knock ends at byte %zu",
                    filter ? "filtered" : "unfiltered", r.first_enter, at + MAGIC_LEN - 1);
    }
}

/* Bytes that exercise the detector: whole and partial knocks, line ends, plain noise. */
static uint8_t *busy_stream(size_t n, uint32_t seed)
{
    static const char *const tokens[] = {
        "$", "3", "#", "\r", "\n", "\r\n", "a", " ", "$3", "$3#", "$3#3", MAGIC, "\xff",
    };
    uint8_t *d = stream;
    size_t i = 0;

    assert_true(n <= sizeof(stream));
    xorshift_state = seed;
    while (i < n) {
        uint32_t x = xorshift32();
        if (x & 0x10000) {
            d[i++] = (uint8_t)(x >> 24); /* any byte, NUL included */
            continue;
        }
        const char *t = tokens[(x >> 20) % (sizeof(tokens) / sizeof(tokens[0]))];
        for (; *t && i < n; t++)
            d[i++] = (uint8_t)*t;
    }
    return d;
}

/* The hot path drops a byte only when knock_feed would have called it plain noise and
 * changed nothing else; every other byte gives the same event either way. */
static void test_quiet_filter_agrees_with_the_detector(void **state)
{
    const size_t n = 200000;

    for (int mode = KNOCK_MODE_RETURN; mode <= KNOCK_MODE_MAGIC; mode++) {
        uint8_t *d = busy_stream(n, 0xabcd0000u + (uint32_t)mode);
        char *plain = events_plain, *fast = events_fast;

        struct run a = feed_stream(mode, d, n, false, plain);
        struct run b = feed_stream(mode, d, n, true, fast);
        size_t filtered = 0;
        for (size_t i = 0; i < n; i++) {
            if (fast[i] == '-') {
                filtered++;
                EXPECT_TRUE(plain[i] == 'n',
                            "mode %d byte %zu (0x%02x): filtered, but "
                            "knock_feed gives '%c'",
                            mode, i, d[i], plain[i]);
            } else {
                EXPECT_TRUE(plain[i] == fast[i],
                            "mode %d byte %zu (0x%02x): '%c' unfiltered, "
                            "'%c' filtered",
                            mode, i, d[i], plain[i], fast[i]);
            }
        }
        EXPECT_TRUE(filtered > n / 20, "mode %d: the filter took only %zu bytes", mode, filtered);
        EXPECT_TRUE(a.enters > 10, "mode %d: the stream should knock (%zu)", mode, a.enters);
        EXPECT_EQ(a.noise, b.noise);
        EXPECT_EQ(a.k.matched, b.k.matched);
        EXPECT_EQ(a.k.prompted, b.k.prompted);
        EXPECT_EQ(a.k.last_cr, b.k.last_cr);
    }
}

/* "$body#cs" with the correct checksum. */
static size_t packet(char *out, const char *body, int checksum_delta)
{
    unsigned sum = 0;

    for (const char *p = body; *p; p++)
        sum += (uint8_t)*p;
    return (size_t)sprintf(out, "$%s#%02x", body, (sum + (unsigned)checksum_delta) & 0xff);
}

/* Feeds a whole string; returns the last event and how many KNOCK_GDB/ENTER events came. */
static enum knock_event feed_all(struct knock *k, const char *s, size_t n, int *hits)
{
    enum knock_event ev = KNOCK_NOISE;

    *hits = 0;
    for (size_t i = 0; i < n; i++) {
        ev = knock_feed(k, (uint8_t)s[i]);
        *hits += ev == KNOCK_GDB || ev == KNOCK_ENTER;
    }
    return ev;
}

static void test_gdb_openers_start_a_session(void **state)
{
    static const struct {
        const char *body;
        char opener;
    } openers[] = {
        {"?", '?'},
        {"qSupported", 'q'},
        {"qSupported:multiprocess+;swbreak+;hwbreak+;qRelocInsn+;fork-events+;xmlRegisters=i386",
         'q'},
    };
    char buf[256];
    int hits;

    (void)state;
    for (size_t i = 0; i < sizeof(openers) / sizeof(openers[0]); i++) {
        struct knock k;
        knock_init(&k, KNOCK_MODE_MAGIC);
        size_t n = packet(buf, openers[i].body, 0);
        assert_int_equal(feed_all(&k, buf, n, &hits), KNOCK_GDB);
        assert_int_equal(hits, 1);
        assert_int_equal(k.gdb_opener, openers[i].opener);
    }
}

static void test_nothing_looser_than_the_openers_starts_a_session(void **state)
{
    static const char *const bodies[] = {"??", "q", "qSupporte", "qSupportedX", "qC", "g", "m0,4",
                                         "33", "vCont?", "qsupported", "QSupported"};
    char buf[128];
    int hits;

    (void)state;
    for (size_t i = 0; i < sizeof(bodies) / sizeof(bodies[0]); i++) {
        struct knock k;
        knock_init(&k, KNOCK_MODE_MAGIC);
        feed_all(&k, buf, packet(buf, bodies[i], 0), &hits);
        if (hits)
            fail_msg("packet body \"%s\" must not start a session", bodies[i]);
    }
    /* the right bodies with a wrong checksum */
    for (int delta = 1; delta < 256; delta += 51) {
        struct knock k;
        knock_init(&k, KNOCK_MODE_MAGIC);
        feed_all(&k, buf, packet(buf, "?", delta), &hits);
        assert_int_equal(hits, 0);
        feed_all(&k, buf, packet(buf, "qSupported", delta), &hits);
        assert_int_equal(hits, 0);
        feed_all(&k, buf, packet(buf, "3", delta), &hits);
        assert_int_equal(hits, 0);
    }
}

static void test_16_mib_of_noise_never_starts_a_gdb_session(void **state)
{
    struct knock k;
    uint8_t block[4096];
    int sessions = 0, knocks = 0;

    (void)state;
    knock_init(&k, KNOCK_MODE_MAGIC);
    xorshift_state = 0x9e3779b9u;
    for (size_t done = 0; done < 16u << 20; done += sizeof(block)) {
        for (size_t i = 0; i < sizeof(block); i++)
            block[i] = (uint8_t)(xorshift32() >> 24);
        for (size_t i = 0; i < sizeof(block); i++) {
            enum knock_event ev = knock_feed(&k, block[i]);
            sessions += ev == KNOCK_GDB;
            knocks += ev == KNOCK_ENTER;
        }
    }
    assert_int_equal(sessions, 0);
    assert_int_equal(knocks, 0);
    /* and the detector still works afterwards */
    char buf[32];
    int hits;
    feed_all(&k, buf, packet(buf, "?", 0), &hits);
    assert_int_equal(hits, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gdb_openers_start_a_session),
        cmocka_unit_test(test_nothing_looser_than_the_openers_starts_a_session),
        cmocka_unit_test(test_16_mib_of_noise_never_starts_a_gdb_session),
        cmocka_unit_test(test_each_byte_gives_the_expected_event),
        cmocka_unit_test(test_pending_prefix_is_counted_as_noise_once_abandoned),
        cmocka_unit_test(test_knock_bytes_are_never_counted_as_noise),
        cmocka_unit_test(test_restart_keeps_mode_and_counters),
        cmocka_unit_test(test_mode_validity),
        cmocka_unit_test(test_prompt_text_names_the_knock),
        cmocka_unit_test(test_quiet_filter_takes_nothing_before_the_line_is_prompted),
        cmocka_unit_test(test_quiet_filter_never_takes_dollar_cr_or_lf),
        cmocka_unit_test(test_quiet_filter_is_off_during_a_partial_knock_and_after_cr),
        cmocka_unit_test(test_quiet_filter_is_off_in_any_fiq_mode),
        cmocka_unit_test(test_restart_turns_the_quiet_filter_off),
        cmocka_unit_test(test_noise_never_enters_debugger),
        cmocka_unit_test(test_noise_prompts_exactly_once_per_line),
        cmocka_unit_test(test_one_knock_in_noise_enters_once_at_its_last_byte),
        cmocka_unit_test(test_quiet_filter_agrees_with_the_detector),
    };

    return cmocka_run_group_tests_name("knock", tests, NULL, NULL);
}
