/* SPDX-License-Identifier: MIT */
/* Production lockdown: the permission check for every command and category, the lock
 * states as the shell sees them, unlock nonces (100,000 without a repeat), the answer
 * check, back-off and lockout, readonly, relock on leaving, and what GDB packets need. */
#include "expect.h"

#include <stdio.h>
#include <stdlib.h>

#include "command.h"
#include "fake_port.h"
#include "gdb_stub.h"
#include "hmac.h"
#include "knock.h"
#include "lockdown.h"
#include "fiqmon_features.h"
#include "monitor.h"

/* A key with every awkward byte: NUL, newline, quote, backslash, 0xff. */
static const uint8_t key[32] = {0x00, 0x0a, 0x22, 0x5c, 0xff, 0x10, 0x32, 0x54,
                                0x76, 0x98, 0xba, 0xdc, 0xfe, 0x01, 0x23, 0x45,
                                0x67, 0x89, 0xab, 0xcd, 0xef, 0x0f, 0x1e, 0x2d,
                                0x3c, 0x4b, 0x5a, 0x69, 0x78, 0x87, 0x96, 0xa5};

#define CATEGORIES 7
static const struct {
    uint32_t flag;
    const char *name;
} categories[CATEGORIES] = {
    {CMD_READS_REGS, "reads registers"},   {CMD_READS_MEM, "reads memory"},
    {CMD_WRITES_MEM, "writes memory"},     {CMD_CONTROLS_KERNEL, "controls the kernel"},
    {CMD_REBOOTS, "reboots"},              {CMD_GDB, "GDB"},
    {CMD_READS_KLOG, "reads the kernel log"},
};

static void boot(bool production, bool with_key)
{
    fake_port_reset();
    lockdown_configure(production, with_key ? key : NULL, with_key ? sizeof(key) : 0);
    monitor_init(KNOCK_MODE_MAGIC, &fiqmon_features);
}

static int setup_production(void **state)
{
    boot(true, true);
    return 0;
}

static int setup_dev(void **state)
{
    boot(false, false);
    return 0;
}

static int teardown(void **state)
{
    lockdown_configure(false, NULL, 0); /* the build's own (none on the host) */
    return 0;
}

/* Runs one line as the shell does (the dispatcher with monitor_permissions()); returns
 * what it printed, CRs removed. */
static const char *shell(const char *line)
{
    static char buf[256], out[4096];

    snprintf(buf, sizeof(buf), "%s", line);
    fake_output_reset();
    command_execute(command_tables, buf, monitor_permissions());
    snprintf(out, sizeof(out), "%s", fake_output_text());
    return out;
}

static const char *hex(const uint8_t *b, size_t n)
{
    static char out[2 * HMAC_SHA256_SIZE + 1];

    for (size_t i = 0; i < n; i++)
        snprintf(out + 2 * i, 3, "%02x", b[i]);
    return out;
}

/* `unlock`: the nonce it prints (checked to be 32 hex digits on a line of its own). */
static void challenge(uint8_t nonce[LOCKDOWN_NONCE_SIZE])
{
    const char *out = shell("unlock");
    unsigned v;

    EXPECT_TRUE(starts_with(out, "nonce ") && out[6 + 2 * LOCKDOWN_NONCE_SIZE] == '\n',
                "unlock printed %s", expect_escape(out));
    EXPECT_CONTAINS(out, "answer: unlock $(tools/fiqmon-unlock KEYFILE NONCE)\n");
    for (unsigned i = 0; i < LOCKDOWN_NONCE_SIZE; i++) {
        EXPECT_TRUE(sscanf(out + 6 + 2 * i, "%2x", &v) == 1, "nonce digit %u", i);
        nonce[i] = (uint8_t)v;
    }
}

/* The line that answers this nonce with this key. */
static const char *answer_line(const uint8_t *k, size_t k_len, const uint8_t *nonce)
{
    static char line[128];
    uint8_t mac[HMAC_SHA256_SIZE];

    hmac_sha256(k, k_len, nonce, LOCKDOWN_NONCE_SIZE, mac);
    snprintf(line, sizeof(line), "unlock %s", hex(mac, sizeof(mac)));
    return line;
}

static void unlock_with_the_key(void)
{
    uint8_t nonce[LOCKDOWN_NONCE_SIZE];

    challenge(nonce);
    EXPECT_STR_EQ(shell(answer_line(key, sizeof(key), nonce)), "fiqmon: unlocked\n");
}

static const char *wrong_answer(void)
{
    uint8_t nonce[LOCKDOWN_NONCE_SIZE], other[sizeof(key)];

    memcpy(other, key, sizeof(key));
    other[31] ^= 1;
    challenge(nonce);
    return shell(answer_line(other, sizeof(other), nonce));
}

/* --- every command x every category ------------------------------------------------------ */

/* core_commands with each handler replaced by a recorder, so every command can be
 * dispatched without its effect (reboot, halt, boot ...). */
static struct command shadow[64];
static const struct command *const shadow_tables[] = {shadow, NULL};
static const char *ran;

static int record(int argc, char **argv)
{
    (void)argc;
    ran = argv[0];
    return 0;
}

static size_t build_shadow(void)
{
    size_t n = 0;

    for (const struct command *c = core_commands; c->name; c++) {
        EXPECT_TRUE(n + 1 < sizeof(shadow) / sizeof(shadow[0]), "too many commands");
        shadow[n] = *c;
        shadow[n].min_args = 0; /* bare names are dispatched: permissions, not arguments */
        shadow[n++].run = record;
    }
    memset(&shadow[n], 0, sizeof(shadow[n]));
    return n;
}

/* Dispatches NAME under allowed: true if its handler ran. A refusal must be exactly the
 * dispatcher's one error line. */
static bool runs(const char *name, uint32_t allowed)
{
    char line[32];

    snprintf(line, sizeof(line), "%s", name);
    ran = NULL;
    fake_output_reset();
    enum command_result r = command_execute(shadow_tables, line, allowed);
    if (ran) {
        EXPECT_EQ(r, CMD_RESULT_OK);
        EXPECT_STR_EQ(fake_output_text(), "");
        return true;
    }
    EXPECT_EQ(r, CMD_RESULT_ERROR);
    EXPECT_STR_EQ(fake_output_text(), tfmt("error: '%s' is not permitted now\n", name));
    return false;
}

static void test_every_command_is_refused_exactly_when_it_has_a_forbidden_category(void **state)
{
    size_t n = build_shadow();

    for (size_t i = 0; i < n; i++) {
        EXPECT_TRUE(runs(shadow[i].name, CMD_ALL_PERMISSIONS), "'%s' refused with everything",
                    shadow[i].name);
        for (unsigned c = 0; c < CATEGORIES; c++) {
            bool want = !(shadow[i].flags & categories[c].flag);
            EXPECT_TRUE(runs(shadow[i].name, CMD_ALL_PERMISSIONS & ~categories[c].flag) == want,
                        "'%s' (flags 0x%x) with '%s' forbidden: %s", shadow[i].name,
                        (unsigned)shadow[i].flags, categories[c].name,
                        want ? "refused" : "ran");
            /* only that category allowed (plus none): runs iff it needs nothing else */
            want = !(shadow[i].flags & ~categories[c].flag);
            EXPECT_TRUE(runs(shadow[i].name, categories[c].flag) == want,
                        "'%s' (flags 0x%x) with only '%s' allowed: %s", shadow[i].name,
                        (unsigned)shadow[i].flags, categories[c].name,
                        want ? "refused" : "ran");
        }
    }
}

static void test_every_category_is_a_flag_of_its_own_and_all_are_covered(void **state)
{
    uint32_t all = 0;

    for (unsigned c = 0; c < CATEGORIES; c++) {
        EXPECT_EQ(categories[c].flag & (categories[c].flag - 1), 0); /* one bit */
        EXPECT_EQ(all & categories[c].flag, 0);
        all |= categories[c].flag;
    }
    EXPECT_EQ(all, CMD_ALL_PERMISSIONS);
}

/* The commands a lock or readonly exists to stop carry the flags that stop them. (Which
 * commands run while locked is pinned by locked_set below: a new command without flags
 * fails there until someone decides it may run locked.) */
static void test_commands_that_write_or_move_the_kernel_say_so(void **state)
{
    static const struct {
        const char *name;
        uint32_t needs; /* at least these flags */
    } reviewed[] = {
        {"pc", CMD_READS_REGS},        {"regs", CMD_READS_REGS},
        {"allregs", CMD_READS_REGS},   {"md", CMD_READS_MEM},
        {"mw", CMD_WRITES_MEM},        {"irqs", CMD_READS_REGS},
        {"stats", CMD_READS_REGS},     {"knock", CMD_CONTROLS_KERNEL},
        {"halt", CMD_CONTROLS_KERNEL}, {"continue", CMD_CONTROLS_KERNEL},
        {"c", CMD_CONTROLS_KERNEL},    {"release", CMD_CONTROLS_KERNEL},
        {"boot", CMD_CONTROLS_KERNEL}, {"go", CMD_CONTROLS_KERNEL},
        {"reboot", CMD_REBOOTS},       {"last", CMD_READS_REGS | CMD_READS_KLOG},
    };
    size_t n = build_shadow();

    for (size_t j = 0; j < sizeof(reviewed) / sizeof(reviewed[0]); j++) {
        size_t i = 0;
        while (i < n && strcmp(reviewed[j].name, shadow[i].name) != 0)
            i++;
        EXPECT_TRUE(i < n, "no command '%s'", reviewed[j].name);
        EXPECT_TRUE((shadow[i].flags & reviewed[j].needs) == reviewed[j].needs,
                    "command '%s' has flags 0x%x, without 0x%x", shadow[i].name,
                    (unsigned)shadow[i].flags, (unsigned)reviewed[j].needs);
    }
}

/* --- the lock states as the shell sees them --------------------------------------------- */

/* Which core commands the shell lets through now, as "name name ...". */
static const char *permitted_now(void)
{
    static char list[512];
    size_t n = build_shadow(), at = 0;

    list[0] = '\0';
    for (size_t i = 0; i < n; i++)
        if (runs(shadow[i].name, monitor_permissions()))
            at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%s", at ? " " : "",
                                   shadow[i].name);
    return list;
}

/* The core commands whose flags are all in allowed, as "name name ..." (core_commands
 * order). */
static const char *commands_within(uint32_t allowed)
{
    static char list[2][512];
    static unsigned which;
    char *out = list[which++ % 2];
    size_t at = 0;

    out[0] = '\0';
    for (const struct command *c = core_commands; c->name; c++)
        if (!(c->flags & ~allowed))
            at += (size_t)snprintf(out + at, sizeof(list[0]) - at, "%s%s", at ? " " : "",
                                   c->name);
    return out;
}

#define everything   commands_within(CMD_ALL_PERMISSIONS)
#define readonly_set commands_within(CMD_ALL_PERMISSIONS & ~LOCKDOWN_READONLY_FORBIDDEN)
/* Pinned, not derived: what anyone with a cable may run on a locked production device. */
static const char *const locked_set = "help version unlock lock readonly exit";

static void test_production_starts_with_only_help_version_unlock_lock(void **state)
{
    EXPECT_TRUE(lockdown_locked(), "a production build starts unlocked");
    EXPECT_EQ(monitor_permissions(), LOCKDOWN_LOCKED_PERMISSIONS);
    EXPECT_STR_EQ(permitted_now(), locked_set);
}

static void test_dev_allows_everything_and_has_no_key(void **state)
{
    EXPECT_EQ(monitor_permissions(), CMD_ALL_PERMISSIONS);
    EXPECT_STR_EQ(permitted_now(), everything);
    EXPECT_STR_EQ(shell("unlock"), "error: no unlock key in this build\n");
    EXPECT_STR_EQ(shell("lock"), "error: no unlock key in this build\n");
    EXPECT_EQ(monitor_permissions(), CMD_ALL_PERMISSIONS);
    EXPECT_CONTAINS(shell("version"), "\nprofile dev, unlocked, no unlock key\n");
}

static void test_restricted_commands_are_refused_with_one_line_before_unlock(void **state)
{
    EXPECT_STR_EQ(shell("md 10000000"), "error: 'md' is not permitted now\n");
    EXPECT_STR_EQ(shell("mw 10000000 1"), "error: 'mw' is not permitted now\n");
    EXPECT_STR_EQ(shell("reboot"), "error: 'reboot' is not permitted now\n");
    EXPECT_STR_EQ(shell("halt"), "error: 'halt' is not permitted now\n");
    EXPECT_EQ(fake.reboots, 0);
    EXPECT_TRUE(!monitor_halted(), "halt ran while locked");
    EXPECT_EQ(fake.writes[4], 0);
}

static void test_the_right_answer_unlocks_everything(void **state)
{
    unlock_with_the_key();
    EXPECT_TRUE(!lockdown_locked(), "still locked");
    EXPECT_EQ(monitor_permissions(), CMD_ALL_PERMISSIONS);
    EXPECT_STR_EQ(permitted_now(), everything);
    EXPECT_STR_EQ(shell("unlock"), "fiqmon: unlocked already\n");
    const char *v = shell("version");
    EXPECT_CONTAINS(v, "profile production, unlocked\n");
}

static void test_lock_relocks(void **state)
{
    unlock_with_the_key();
    EXPECT_STR_EQ(shell("lock"), "fiqmon: locked\n");
    EXPECT_EQ(monitor_permissions(), LOCKDOWN_LOCKED_PERMISSIONS);
    EXPECT_STR_EQ(permitted_now(), locked_set);
    EXPECT_STR_EQ(shell("lock extra"), "error: usage: lock\n");
}

static void test_leaving_the_debugger_relocks_in_production(void **state)
{
    unlock_with_the_key();
    EXPECT_STR_EQ(shell("exit"), "fiqmon: left; no kernel was started: fiqmon idles\n");
    EXPECT_EQ(monitor_permissions(), LOCKDOWN_LOCKED_PERMISSIONS);
    unlock_with_the_key();
    monitor_leave(); /* boot, go, GDB detach */
    EXPECT_TRUE(lockdown_locked(), "monitor_leave left it unlocked");
    unlock_with_the_key();
    EXPECT_EQ(monitor_release(), 0); /* the kernel re-arms the port later: a new session */
    EXPECT_TRUE(lockdown_locked(), "release left it unlocked");
    EXPECT_EQ(monitor_permissions(), LOCKDOWN_LOCKED_PERMISSIONS);
}

static void test_a_dev_build_with_a_key_locks_until_the_session_ends(void **state)
{
    boot(false, true);
    EXPECT_EQ(monitor_permissions(), CMD_ALL_PERMISSIONS);
    EXPECT_STR_EQ(shell("lock"), "fiqmon: locked\n");
    EXPECT_STR_EQ(permitted_now(), locked_set);
    unlock_with_the_key();
    EXPECT_STR_EQ(shell("lock"), "fiqmon: locked\n");
    monitor_leave();
    EXPECT_EQ(monitor_permissions(), CMD_ALL_PERMISSIONS);
}

static const char *entry_line(void)
{
    static struct cpu_frame frame;

    frame.pc = 0xc0123456u;
    frame.cpsr = 0x600000d3u;
    monitor_leave();
    fake_output_reset();
    monitor_request_entry(REASON_KNOCK);
    monitor_fiq_full(&frame);
    return fake_output_text();
}

static void test_a_locked_entry_shows_no_register(void **state)
{
    EXPECT_STR_EQ(entry_line(), "\nfiqmon: entered by knock (locked)\nfiqmon> ");
    boot(false, false);
    EXPECT_STR_EQ(entry_line(), "\nfiqmon: entered by knock at pc=c0123456 (svc)\nfiqmon> ");
}

/* --- readonly --------------------------------------------------------------------------- */

static void test_readonly_forbids_every_write_and_flow_change_even_unlocked(void **state)
{
    unlock_with_the_key();
    EXPECT_STR_EQ(shell("readonly"), "fiqmon: read-only until reset\n");
    EXPECT_EQ(monitor_permissions(), CMD_ALL_PERMISSIONS & ~(CMD_WRITES_MEM | CMD_CONTROLS_KERNEL |
                                                             CMD_REBOOTS));
    EXPECT_STR_EQ(permitted_now(), readonly_set);
    EXPECT_CONTAINS(readonly_set, "pc regs allregs md");
    EXPECT_STR_EQ(shell("mw 10000000 1"), "error: 'mw' is not permitted now\n");
    EXPECT_STR_EQ(shell("halt"), "error: 'halt' is not permitted now\n");
    EXPECT_CONTAINS(shell("version"), "profile production, unlocked, read-only\n");
}

static void test_readonly_lasts_until_reset(void **state)
{
    EXPECT_STR_EQ(shell("readonly"), "fiqmon: read-only until reset\n"); /* locked: allowed */
    unlock_with_the_key();
    EXPECT_STR_EQ(permitted_now(), readonly_set);
    EXPECT_STR_EQ(shell("lock"), "fiqmon: locked\n");
    monitor_leave();
    unlock_with_the_key();
    EXPECT_STR_EQ(permitted_now(), readonly_set);
    boot(true, true);
    unlock_with_the_key();
    EXPECT_STR_EQ(permitted_now(), everything);
}

static void test_readonly_in_a_dev_build(void **state)
{
    EXPECT_STR_EQ(shell("readonly"), "fiqmon: read-only until reset\n");
    EXPECT_STR_EQ(permitted_now(), readonly_set);
    monitor_leave();
    EXPECT_STR_EQ(permitted_now(), readonly_set);
}

/* --- answers, back-off, lockout ---------------------------------------------------------- */

static void test_a_wrong_answer_is_refused_with_one_line_and_a_delay(void **state)
{
    EXPECT_STR_EQ(wrong_answer(), "error: wrong answer (1 of 5 failures)\n");
    EXPECT_TRUE(lockdown_locked(), "a wrong answer unlocked");
    EXPECT_EQ(fake.delays, 1);
    EXPECT_EQ(fake.delay_ms_last, LOCKDOWN_DELAY_MS);
    EXPECT_STR_EQ(permitted_now(), locked_set);
}

static void test_the_delay_grows_and_five_failures_lock_out_until_reset(void **state)
{
    uint8_t nonce[LOCKDOWN_NONCE_SIZE];

    for (unsigned i = 1; i < LOCKDOWN_MAX_FAILURES; i++) {
        EXPECT_STR_EQ(wrong_answer(), tfmt("error: wrong answer (%u of 5 failures)\n", i));
        EXPECT_EQ(fake.delay_ms_last, LOCKDOWN_DELAY_MS * i);
        EXPECT_EQ(lockdown_failures(), i);
    }
    EXPECT_STR_EQ(wrong_answer(),
                  "error: wrong answer (5 of 5 failures): locked out until reset\n");
    EXPECT_EQ(fake.delay_ms_last, LOCKDOWN_DELAY_MS * 5);
    EXPECT_EQ(fake.delay_ms_total, LOCKDOWN_DELAY_MS * (1 + 2 + 3 + 4 + 5));
    EXPECT_TRUE(lockdown_locked_out(), "not locked out after 5 failures");

    /* no further attempt: no nonce, no check of any answer, no more waiting */
    EXPECT_STR_EQ(shell("unlock"), "error: locked out until reset\n");
    EXPECT_STR_EQ(shell(answer_line(key, sizeof(key), nonce)), "error: locked out until reset\n");
    EXPECT_STR_EQ(shell("unlock zz"), "error: locked out until reset\n");
    EXPECT_EQ(fake.delays, 5);
    EXPECT_CONTAINS(shell("version"), "profile production, locked, locked out until reset\n");

    /* neither lock nor leaving clears it; reset does */
    shell("lock");
    monitor_leave();
    EXPECT_STR_EQ(shell("unlock"), "error: locked out until reset\n");
    boot(true, true);
    unlock_with_the_key();
}

static void test_a_right_answer_clears_the_failures(void **state)
{
    wrong_answer();
    wrong_answer();
    EXPECT_EQ(lockdown_failures(), 2);
    unlock_with_the_key();
    EXPECT_EQ(lockdown_failures(), 0);
    shell("lock");
    EXPECT_STR_EQ(wrong_answer(), "error: wrong answer (1 of 5 failures)\n");
}

static void test_each_nonce_takes_one_answer(void **state)
{
    uint8_t first[LOCKDOWN_NONCE_SIZE], second[LOCKDOWN_NONCE_SIZE];
    char stale[128];

    challenge(first);
    snprintf(stale, sizeof(stale), "%s", answer_line(key, sizeof(key), first));
    challenge(second); /* a new nonce replaces the first */
    EXPECT_TRUE(memcmp(first, second, sizeof(first)) != 0, "the nonce repeated");
    EXPECT_STR_EQ(shell(stale), "error: wrong answer (1 of 5 failures)\n");
    /* the second nonce was used up by that answer */
    EXPECT_STR_EQ(shell(answer_line(key, sizeof(key), second)),
                  "error: no challenge: type unlock first\n");
    /* a right answer can be replayed neither */
    unlock_with_the_key();
    shell("lock");
    EXPECT_STR_EQ(shell(stale), "error: no challenge: type unlock first\n");
    EXPECT_TRUE(lockdown_locked(), "a replayed answer unlocked");
}

static void test_malformed_answers_are_not_failures_and_keep_the_nonce(void **state)
{
    static const char *const bad[] = {
        "unlock 1234",
        "unlock 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff00",
        "unlock g0112233445566778899aabbccddeeff00112233445566778899aabbccddeeff",
        "unlock 0x112233445566778899aabbccddeeff00112233445566778899aabbccddeeff",
    };
    uint8_t nonce[LOCKDOWN_NONCE_SIZE];

    challenge(nonce);
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        EXPECT_STR_EQ(shell(bad[i]), "error: the answer is 64 hex digits\n");
    EXPECT_STR_EQ(shell("unlock a b"), "error: usage: unlock [ANSWER]\n");
    EXPECT_EQ(lockdown_failures(), 0);
    EXPECT_EQ(fake.delays, 0);
    /* upper-case hex is the same answer */
    char line[128];
    snprintf(line, sizeof(line), "%s", answer_line(key, sizeof(key), nonce));
    for (char *p = line + 7; *p; p++)
        if (*p >= 'a' && *p <= 'f')
            *p = (char)(*p - 'a' + 'A');
    EXPECT_STR_EQ(shell(line), "fiqmon: unlocked\n");
}

static void test_an_answer_without_a_challenge_is_refused_and_not_counted(void **state)
{
    uint8_t zero[LOCKDOWN_NONCE_SIZE] = {0};

    EXPECT_STR_EQ(shell(answer_line(key, sizeof(key), zero)),
                  "error: no challenge: type unlock first\n");
    EXPECT_EQ(lockdown_failures(), 0);
    EXPECT_TRUE(lockdown_locked(), "unlocked without a challenge");
}

static void test_leaving_forgets_the_outstanding_nonce(void **state)
{
    uint8_t nonce[LOCKDOWN_NONCE_SIZE];

    challenge(nonce);
    monitor_leave();
    EXPECT_STR_EQ(shell(answer_line(key, sizeof(key), nonce)),
                  "error: no challenge: type unlock first\n");
}

static void test_no_output_ever_shows_the_key(void **state)
{
    static const char *const lines[] = {"help", "version", "unlock", "lock", "readonly",
                                        "unlock 00", "help unlock"};
    char key_hex[2 * sizeof(key) + 1];

    snprintf(key_hex, sizeof(key_hex), "%s", hex(key, sizeof(key)));
    for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
        EXPECT_NOT_CONTAINS(shell(lines[i]), key_hex + 8); /* any 12 bytes of it */
}

/* --- nonces ------------------------------------------------------------------------------ */

#define DRAWS 100000u

static int compare_nonces(const void *a, const void *b)
{
    return memcmp(a, b, LOCKDOWN_NONCE_SIZE);
}

static void expect_all_distinct(uint8_t (*n)[LOCKDOWN_NONCE_SIZE], size_t count)
{
    qsort(n, count, LOCKDOWN_NONCE_SIZE, compare_nonces);
    for (size_t i = 1; i < count; i++)
        EXPECT_TRUE(memcmp(n[i - 1], n[i], LOCKDOWN_NONCE_SIZE) != 0,
                    "nonce %s drawn twice in %zu draws", hex(n[i], LOCKDOWN_NONCE_SIZE), count);
}

static void test_nonces_never_repeat_in_100000_draws_even_with_a_stopped_timer(void **state)
{
    static uint8_t n[DRAWS][LOCKDOWN_NONCE_SIZE];

    fake.entropy = 0x12345678u;
    fake.entropy_step = 0; /* the worst timer: it never moves */
    for (size_t i = 0; i < DRAWS; i++)
        lockdown_nonce(n[i]);
    expect_all_distinct(n, DRAWS);
}

static void test_nonces_differ_across_boots_with_a_running_timer(void **state)
{
    enum { BOOTS = 10, PER_BOOT = 1000 };
    static uint8_t n[BOOTS * PER_BOOT][LOCKDOWN_NONCE_SIZE];

    for (unsigned b = 0; b < BOOTS; b++) {
        uint32_t now = fake.entropy;
        boot(true, true); /* counter and chain start again; only the timer differs */
        fake.entropy = now + 24000u * 1500u; /* the next boot's `unlock`, 1.5 s later */
        fake.entropy_step = 2400u;
        for (unsigned i = 0; i < PER_BOOT; i++)
            lockdown_nonce(n[b * PER_BOOT + i]);
    }
    expect_all_distinct(n, BOOTS * PER_BOOT);
}

static void test_each_unlock_shows_a_fresh_nonce(void **state)
{
    uint8_t a[LOCKDOWN_NONCE_SIZE], b[LOCKDOWN_NONCE_SIZE];

    challenge(a);
    challenge(b);
    EXPECT_TRUE(memcmp(a, b, sizeof(a)) != 0, "unlock repeated its nonce");
    EXPECT_TRUE(fake.entropy_reads >= 2, "the timer was not read for the nonces");
}

/* --- GDB --------------------------------------------------------------------------------- */

struct packet_case {
    const char *body;
    uint32_t needs;
};

static void test_gdb_packets_need_their_categories(void **state)
{
    static const struct packet_case cases[] = {
        /* the connection handshake and the ways out: answered even when locked */
        {"qSupported:multiprocess+;swbreak+;xmlRegisters=i386", 0},
        {"vMustReplyEmpty", 0},
        {"QStartNoAckMode", 0},
        {"Hg0", 0},
        {"Hc-1", 0},
        {"qXfer:features:read:target.xml:0,ffb", 0},
        {"qTStatus", 0},
        {"?", 0},
        {"qfThreadInfo", 0},
        {"qsThreadInfo", 0},
        {"qC", 0},
        {"T02", 0},
        {"qThreadExtraInfo,02", 0},
        {"qAttached", 0},
        {"qOffsets", 0},
        {"qSymbol::", 0},
        {"vCont?", 0},
        {"D", 0},
        {"D;1", 0},
        {"k", 0},
        {"3", 0},
        {"qRcmd,756e6c6f636b", 0}, /* the command meets the dispatcher's own check */
        /* reads */
        {"g", CMD_GDB | CMD_READS_REGS},
        {"p0f", CMD_GDB | CMD_READS_REGS},
        {"m8000,4", CMD_GDB | CMD_READS_MEM},
        {"qCRC:8000,100", CMD_GDB | CMD_READS_MEM},
        {"qSearch:memory:8000;100;41", CMD_GDB | CMD_READS_MEM},
        /* writes and flow changes */
        {"M8000,4:00000000", CMD_GDB | CMD_WRITES_MEM},
        {"X8000,0:", CMD_GDB | CMD_WRITES_MEM},
        {"Z0,8000,4", CMD_GDB | CMD_WRITES_MEM},
        {"z0,8000,4", CMD_GDB | CMD_WRITES_MEM},
        {"G00000000", CMD_GDB | CMD_WRITES_MEM | CMD_CONTROLS_KERNEL},
        {"P0f=00800000", CMD_GDB | CMD_WRITES_MEM | CMD_CONTROLS_KERNEL},
        {"c", CMD_GDB},
        {"c8000", CMD_GDB | CMD_CONTROLS_KERNEL},
        {"C05", CMD_GDB},
        {"C05;8000", CMD_GDB | CMD_CONTROLS_KERNEL},
        {"vCont;c", CMD_GDB},
        {"vCont;c:1;C05", CMD_GDB},
        {"vCont;s:1", CMD_GDB | CMD_CONTROLS_KERNEL},
        {"vCont;c;t", CMD_GDB | CMD_CONTROLS_KERNEL},
        {"s", CMD_GDB | CMD_CONTROLS_KERNEL},
        /* unknown: fail closed */
        {"", CMD_GDB},
        {"vFile:open:2f6574632f706173737764,0,0", CMD_ALL_PERMISSIONS},
        {"qCRCX", CMD_ALL_PERMISSIONS},
        {"qCx", CMD_ALL_PERMISSIONS},
        {"R00", CMD_ALL_PERMISSIONS},
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        uint32_t got = gdb_packet_needs(cases[i].body, strlen(cases[i].body));
        EXPECT_TRUE(got == cases[i].needs, "packet '%s' needs 0x%x, want 0x%x", cases[i].body,
                    (unsigned)got, (unsigned)cases[i].needs);
    }
}

static bool gdb_refused(const char *body)
{
    return (gdb_packet_needs(body, strlen(body)) & ~monitor_permissions()) != 0;
}

static void test_a_locked_stub_answers_only_the_handshake(void **state)
{
    EXPECT_TRUE(!gdb_refused("qSupported:xmlRegisters=arm"), "handshake refused");
    EXPECT_TRUE(!gdb_refused("?"), "? refused");
    EXPECT_TRUE(!gdb_refused("D"), "detach refused");
    EXPECT_TRUE(gdb_refused("g"), "g answered while locked");
    EXPECT_TRUE(gdb_refused("m0,4"), "m answered while locked");
    EXPECT_TRUE(gdb_refused("c"), "c answered while locked");
    unlock_with_the_key();
    EXPECT_TRUE(!gdb_refused("g") && !gdb_refused("M0,1:00") && !gdb_refused("c8000"),
                "unlocked GDB refused");
}

static void test_readonly_gdb_reads_but_never_writes_or_redirects(void **state)
{
    unlock_with_the_key();
    shell("readonly");
    EXPECT_TRUE(!gdb_refused("g") && !gdb_refused("p0") && !gdb_refused("m0,4") &&
                    !gdb_refused("c") && !gdb_refused("vCont;c"),
                "readonly GDB refused a read or a plain continue");
    EXPECT_TRUE(gdb_refused("M0,1:00"), "M allowed in readonly");
    EXPECT_TRUE(gdb_refused("X0,1:a"), "X allowed in readonly");
    EXPECT_TRUE(gdb_refused("G00"), "G allowed in readonly");
    EXPECT_TRUE(gdb_refused("P0=00"), "P allowed in readonly");
    EXPECT_TRUE(gdb_refused("c8000"), "c ADDR allowed in readonly");
    EXPECT_TRUE(gdb_refused("Z0,0,4"), "a breakpoint allowed in readonly");
}

/* The stub itself, on a halted frame: what goes out for each packet. */
static const char *stub(const char *body)
{
    static struct cpu_frame frame;

    fake_output_reset();
    if (!gdb_stub_active(&gdb))
        gdb_stub_start(&gdb, &frame);
    gdb_stub_packet(&gdb, body, strlen(body));
    return fake_output();
}

static void test_the_stub_says_E01_while_locked_and_to_writes_when_readonly(void **state)
{
    EXPECT_TRUE(starts_with(stub("qSupported"), "$PacketSize="), "handshake: %s",
                expect_escape(fake_output()));
    EXPECT_STR_EQ(stub("g"), "$E01#a6");
    EXPECT_STR_EQ(stub("m10000000,4"), "$E01#a6");
    EXPECT_STR_EQ(stub("M10000000,1:5a"), "$E01#a6");
    EXPECT_EQ(fake.writes[1], 0);
    unlock_with_the_key();
    EXPECT_STR_EQ(stub("m10000000,1"), "$00#60");
    shell("readonly");
    EXPECT_STR_EQ(stub("M10000000,1:5a"), "$E01#a6");
    EXPECT_STR_EQ(stub("G00"), "$E01#a6");
    EXPECT_STR_EQ(stub("P0=00000000"), "$E01#a6");
    EXPECT_STR_EQ(stub("X10000000,1:Z"), "$E01#a6");
    EXPECT_EQ(fake.writes[1] + fake.writes[4], 0);
    EXPECT_STR_EQ(stub("m10000000,1"), "$00#60");
    gdb_stub_packet(&gdb, "D", 1);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup_production, teardown)
#define T_DEV(fn) cmocka_unit_test_setup_teardown(fn, setup_dev, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_every_command_is_refused_exactly_when_it_has_a_forbidden_category),
        T(test_every_category_is_a_flag_of_its_own_and_all_are_covered),
        T(test_commands_that_write_or_move_the_kernel_say_so),
        T(test_production_starts_with_only_help_version_unlock_lock),
        T_DEV(test_dev_allows_everything_and_has_no_key),
        T(test_restricted_commands_are_refused_with_one_line_before_unlock),
        T(test_the_right_answer_unlocks_everything),
        T(test_lock_relocks),
        T(test_leaving_the_debugger_relocks_in_production),
        T(test_a_dev_build_with_a_key_locks_until_the_session_ends),
        T(test_a_locked_entry_shows_no_register),
        T(test_readonly_forbids_every_write_and_flow_change_even_unlocked),
        T(test_readonly_lasts_until_reset),
        T_DEV(test_readonly_in_a_dev_build),
        T(test_a_wrong_answer_is_refused_with_one_line_and_a_delay),
        T(test_the_delay_grows_and_five_failures_lock_out_until_reset),
        T(test_a_right_answer_clears_the_failures),
        T(test_each_nonce_takes_one_answer),
        T(test_malformed_answers_are_not_failures_and_keep_the_nonce),
        T(test_an_answer_without_a_challenge_is_refused_and_not_counted),
        T(test_leaving_forgets_the_outstanding_nonce),
        T(test_no_output_ever_shows_the_key),
        T(test_nonces_never_repeat_in_100000_draws_even_with_a_stopped_timer),
        T(test_nonces_differ_across_boots_with_a_running_timer),
        T(test_each_unlock_shows_a_fresh_nonce),
        T(test_gdb_packets_need_their_categories),
        T(test_a_locked_stub_answers_only_the_handshake),
        T(test_readonly_gdb_reads_but_never_writes_or_redirects),
        T(test_the_stub_says_E01_while_locked_and_to_writes_when_readonly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
