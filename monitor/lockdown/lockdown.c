/* SPDX-License-Identifier: MIT */
/* Production lockdown: the lock state, unlock nonces, the back-off, and the commands
 * unlock, lock and readonly. See lockdown.h and docs/lockdown.md. */
#include "lockdown.h"
#include "parse.h"

#include <string.h>

#include "console.h"
#include "platform.h"
#include "sections.h"
#include "sha256.h"

/* From build_info.h on the target (PROFILE=, UNLOCK_KEY=); the host tests configure. */
#ifndef FIQMON_PRODUCTION
#define FIQMON_PRODUCTION 0
#endif
#ifndef FIQMON_HAVE_UNLOCK_KEY
#define FIQMON_HAVE_UNLOCK_KEY 0
#endif

#if FIQMON_HAVE_UNLOCK_KEY
#include "unlock_key.h" /* FIQMON_UNLOCK_KEY_BYTES, generated from UNLOCK_KEY=FILE */
static const uint8_t lockdown_key[] FIQMON_SECRET("unlock_key") = {FIQMON_UNLOCK_KEY_BYTES};
#define BUILD_KEY     lockdown_key
#define BUILD_KEY_LEN ((unsigned)sizeof(lockdown_key))
#else
#define BUILD_KEY     NULL
#define BUILD_KEY_LEN 0u
#endif

static struct {
    bool production;
    const uint8_t *key;
    unsigned key_len;
} cfg = {FIQMON_PRODUCTION, BUILD_KEY, BUILD_KEY_LEN};

static struct {
    bool locked;
    bool readonly;
    bool locked_out;
    bool challenge;   /* nonce is outstanding: the next answer is checked against it */
    uint8_t failures; /* wrong answers since reset or the last unlock */
    uint8_t stirs;    /* which pool word the next stir goes to */
    uint32_t counter; /* nonces drawn since reset */
    uint32_t pool[8]; /* timer counts at every monitor entry, folded */
    uint8_t chain[SHA256_DIGEST_SIZE]; /* the previous draw's digest */
    uint8_t nonce[LOCKDOWN_NONCE_SIZE];
} st;

void lockdown_configure(bool production, const uint8_t *key, unsigned key_len)
{
    cfg.production = production;
    cfg.key = key;
    cfg.key_len = key_len;
}

void lockdown_init(void)
{
    memset(&st, 0, sizeof(st));
    st.locked = cfg.production;
    lockdown_stir();
}

void lockdown_leave(void)
{
    st.locked = cfg.production;
    st.challenge = false;
}

void lockdown_stir(void)
{
    uint32_t *p = &st.pool[st.stirs++ & 7u];

    *p = (*p << 7 | *p >> 25) + port_entropy();
}

uint32_t lockdown_permissions(void)
{
    uint32_t p = st.locked ? LOCKDOWN_LOCKED_PERMISSIONS : CMD_ALL_PERMISSIONS;

    return st.readonly ? p & ~LOCKDOWN_READONLY_FORBIDDEN : p;
}

bool lockdown_locked(void)
{
    return st.locked;
}

bool lockdown_readonly(void)
{
    return st.readonly;
}

bool lockdown_locked_out(void)
{
    return st.locked_out;
}

unsigned lockdown_failures(void)
{
    return st.failures;
}

/* SHA-256 over the previous digest, the pool, a counter and the timer: the counter makes
 * every input of one boot distinct, the timer readings (here and in the pool) make boots
 * differ. The nonce is the first half of the digest. */
void lockdown_nonce(uint8_t nonce[LOCKDOWN_NONCE_SIZE])
{
    struct sha256 s;
    uint32_t mix[2] = {++st.counter, port_entropy()};

    sha256_init(&s);
    sha256_update(&s, st.chain, sizeof(st.chain));
    sha256_update(&s, st.pool, sizeof(st.pool));
    sha256_update(&s, mix, sizeof(mix));
    sha256_final(&s, st.chain);
    memcpy(nonce, st.chain, LOCKDOWN_NONCE_SIZE);
}

enum lockdown_result lockdown_challenge(uint8_t nonce[LOCKDOWN_NONCE_SIZE])
{
    if (!cfg.key_len)
        return LOCKDOWN_NO_KEY;
    if (st.locked_out)
        return LOCKDOWN_LOCKED_OUT;
    lockdown_nonce(st.nonce);
    memcpy(nonce, st.nonce, LOCKDOWN_NONCE_SIZE);
    st.challenge = true;
    return LOCKDOWN_OK;
}

enum lockdown_result lockdown_answer(const uint8_t mac[HMAC_SHA256_SIZE])
{
    if (!cfg.key_len)
        return LOCKDOWN_NO_KEY;
    if (st.locked_out)
        return LOCKDOWN_LOCKED_OUT;
    if (!st.challenge)
        return LOCKDOWN_NO_CHALLENGE;
    st.challenge = false; /* one answer per nonce */
    if (hmac_sha256_verify(cfg.key, cfg.key_len, st.nonce, LOCKDOWN_NONCE_SIZE, mac)) {
        st.failures = 0;
        st.locked = false;
            return LOCKDOWN_OK;
    }
    st.failures++;
    port_delay_ms(LOCKDOWN_DELAY_MS * st.failures);
    if (st.failures >= LOCKDOWN_MAX_FAILURES) {
        st.locked_out = true;
        return LOCKDOWN_LOCKED_OUT;
    }
    return LOCKDOWN_WRONG;
}

bool lockdown_lock(void)
{
    if (!cfg.key_len)
        return false;
    st.locked = true;
    st.challenge = false;
    return true;
}

void lockdown_set_readonly(void)
{
    st.readonly = true;
}

const uint8_t *lockdown_build_key(unsigned *len)
{
    *len = cfg.key_len;
    return cfg.key;
}

void lockdown_report(void)
{
    con_printf("profile %s, %s%s%s%s\n", cfg.production ? "production" : "dev",
               st.locked ? "locked" : "unlocked", st.readonly ? ", read-only" : "",
               st.locked_out ? ", locked out until reset" : "",
               cfg.key_len ? "" : ", no unlock key");
}

/* --- commands ------------------------------------------------------------------------ */

/* Exactly 2 * n hex digits into out[0..n). */
static bool parse_hex_bytes(const char *s, uint8_t *out, size_t n)
{
    if (strlen(s) != 2 * n)
        return false;
    for (size_t i = 0; i < n; i++) {
        int hi = parse_hex_digit(s[2 * i]), lo = parse_hex_digit(s[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return false;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return true;
}

static int refusal(enum lockdown_result r)
{
    switch (r) {
    case LOCKDOWN_NO_KEY:
        return con_error("no unlock key in this build");
    case LOCKDOWN_LOCKED_OUT:
        return con_error("locked out until reset");
    default:
        return con_error("no challenge: type unlock first");
    }
}

int cmd_unlock(int argc, char **argv)
{
    uint8_t buf[HMAC_SHA256_SIZE];
    enum lockdown_result r;

    if (!cfg.key_len || st.locked_out)
        return refusal(cfg.key_len ? LOCKDOWN_LOCKED_OUT : LOCKDOWN_NO_KEY);
    if (argc == 1) {
        if (!st.locked) {
            con_puts("fiqmon: unlocked already\n");
            return 0;
        }
        lockdown_challenge(buf);
        con_puts("nonce ");
        for (unsigned i = 0; i < LOCKDOWN_NONCE_SIZE; i++)
            con_printf("%02x", buf[i]);
        con_puts("\nanswer: unlock $(tools/fiqmon-unlock KEYFILE NONCE)\n");
        return 0;
    }
    if (!parse_hex_bytes(argv[1], buf, sizeof(buf)))
        return con_error("the answer is %u hex digits", 2 * HMAC_SHA256_SIZE);
    r = lockdown_answer(buf);
    if (r == LOCKDOWN_OK) {
        con_puts("fiqmon: unlocked\n");
        return 0;
    }
    if (r == LOCKDOWN_WRONG || r == LOCKDOWN_LOCKED_OUT) /* it was not locked out before */
        return con_error("wrong answer (%u of %u failures)%s", st.failures, LOCKDOWN_MAX_FAILURES,
                         r == LOCKDOWN_WRONG ? "" : ": locked out until reset");
    return refusal(r);
}

int cmd_lock(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    if (!lockdown_lock())
        return refusal(LOCKDOWN_NO_KEY);
    con_puts("fiqmon: locked\n");
    return 0;
}

int cmd_readonly(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    lockdown_set_readonly();
    con_puts("fiqmon: read-only until reset\n");
    return 0;
}
