/* SPDX-License-Identifier: MIT */
#include "knock.h"

#include "parse.h"

enum { PHASE_NONE, PHASE_BODY, PHASE_CSUM_HI, PHASE_CSUM_LO };

#define BODY_KNOCK      1u /* "3" */
#define BODY_STATUS     2u /* "?" */
#define BODY_QSUPPORTED 4u /* "qSupported" or "qSupported:..." */
#define QSUPPORTED "qSupported"
#define QSUPPORTED_LEN (sizeof(QSUPPORTED) - 1)

void knock_init(struct knock *k, int mode)
{
    k->mode = (int8_t)mode;
    k->noise = 0;
    knock_restart(k);
}

void knock_restart(struct knock *k)
{
    knock_restart_after(k, false);
}

void knock_restart_after(struct knock *k, bool after_cr)
{
    k->matched = 0;
    k->phase = PHASE_NONE;
    k->prompted = false;
    k->last_cr = after_cr;
    k->quiet = false;
}

bool knock_mode_valid(long mode)
{
    return mode >= KNOCK_MODE_ANY_FIQ && mode <= KNOCK_MODE_MAGIC;
}

const char *knock_prompt(int mode)
{
    if (mode == KNOCK_MODE_MAGIC)
        return "Type " KNOCK_MAGIC " to enter the debugger>";
    if (mode == KNOCK_MODE_RETURN)
        return "Hit <return> to enter the debugger>";
    return 0;
}

const char *knock_stay_prompt(int mode)
{
    if (mode == KNOCK_MODE_MAGIC)
        return "Type " KNOCK_MAGIC " to stay in fiqmon";
    if (mode == KNOCK_MODE_RETURN)
        return "Hit <return> to stay in fiqmon";
    return "Hit any key to stay in fiqmon";
}

static inline bool is_eol(uint8_t c)
{
    return c == '\r' || c == '\n';
}

/* The prompt is due once per line of noise. */
static bool take_prompt(struct knock *k)
{
    if (k->prompted)
        return false;
    k->prompted = true;
    return true;
}

/* A byte that is not part of a knock. The LF that completes a CRLF belongs to the line
 * the CR ended, so it neither starts a new line nor asks for a prompt. */
static enum knock_event noise(struct knock *k, uint8_t c)
{
    bool crlf_tail = c == '\n' && k->last_cr;
    bool prompt = !crlf_tail && take_prompt(k);

    k->noise++;
    k->last_cr = c == '\r';
    if (is_eol(c))
        k->prompted = false;
    return prompt ? KNOCK_NOISE_PROMPT : KNOCK_NOISE;
}

static enum knock_event feed(struct knock *k, uint8_t c);

enum knock_event knock_feed(struct knock *k, uint8_t c)
{
    enum knock_event ev = feed(k, c);

    /* After a noise byte that left no partial knock on a prompted line, the next bytes
     * are plain noise until a '$', CR or LF (knock_quiet_byte): the noise path may drop them. */
    k->quiet = k->mode != KNOCK_MODE_ANY_FIQ && k->prompted && !k->phase && !k->last_cr &&
               (ev == KNOCK_NOISE || ev == KNOCK_NOISE_PROMPT);
    return ev;
}

/* Which bodies a candidate may still be after its body byte number len (1-based) is c. */
static uint8_t still_possible(uint8_t possible, uint16_t len, uint8_t c)
{
    if (len > 1 || c != '3')
        possible &= (uint8_t)~BODY_KNOCK;
    if (len > 1 || c != '?')
        possible &= (uint8_t)~BODY_STATUS;
    if (len <= QSUPPORTED_LEN ? c != (uint8_t)QSUPPORTED[len - 1]
                              : (len == QSUPPORTED_LEN + 1 && c != ':') || c == '#' || c == '$')
        possible &= (uint8_t)~BODY_QSUPPORTED;
    return possible;
}

/* One byte of a candidate packet (phase != NONE). */
static enum knock_event packet_byte(struct knock *k, uint8_t c)
{
    k->matched++;
    k->last_cr = false;
    switch (k->phase) {
    case PHASE_BODY:
        if (c == '#') {
            unsigned body = k->matched - 2u;
            bool whole = k->possible & BODY_QSUPPORTED ? body >= QSUPPORTED_LEN : body == 1;
            if (!k->possible || !whole)
                return KNOCK_NOISE; /* caller abandons */
            k->phase = PHASE_CSUM_HI;
            return KNOCK_PARTIAL;
        }
        if (k->matched - 1 > KNOCK_GDB_MAX_BODY)
            return KNOCK_NOISE;
        k->sum = (uint8_t)(k->sum + c);
        k->possible = still_possible(k->possible, (uint16_t)(k->matched - 1), c);
        return k->possible ? KNOCK_PARTIAL : KNOCK_NOISE;
    case PHASE_CSUM_HI:
        if (parse_hex_digit((char)c) < 0)
            return KNOCK_NOISE;
        k->csum_hi = (uint8_t)parse_hex_digit((char)c);
        k->phase = PHASE_CSUM_LO;
        return KNOCK_PARTIAL;
    default:
        if (parse_hex_digit((char)c) < 0 || (uint8_t)(k->csum_hi << 4 | parse_hex_digit((char)c)) != k->sum)
            return KNOCK_NOISE;
        if (k->possible & BODY_KNOCK) {
            knock_restart(k);
            return KNOCK_ENTER;
        }
        k->gdb_opener = k->possible & BODY_STATUS ? '?' : 'q';
        knock_restart(k);
        return KNOCK_GDB;
    }
}

static void start_packet(struct knock *k)
{
    k->phase = PHASE_BODY;
    k->matched = 1;
    k->sum = 0;
    k->possible = BODY_KNOCK | BODY_STATUS | BODY_QSUPPORTED;
    k->last_cr = false;
}

static enum knock_event feed(struct knock *k, uint8_t c)
{
    if (k->mode == KNOCK_MODE_MAGIC) {
        bool prompt = false;

        if (k->phase != PHASE_NONE) {
            enum knock_event ev = packet_byte(k, c);
            if (ev != KNOCK_NOISE)
                return ev;
            /* the candidate seen so far, this byte included, was noise after all */
            k->matched--;
            k->noise += k->matched;
            k->matched = 0;
            k->phase = PHASE_NONE;
            prompt = take_prompt(k);
        }
        if (c == '$') { /* a packet, and so a knock, may start here */
            start_packet(k);
            return prompt ? KNOCK_NOISE_PROMPT : KNOCK_PARTIAL;
        }
        enum knock_event ev = noise(k, c);
        return prompt ? KNOCK_NOISE_PROMPT : ev;
    }
    if (c == '\n' && k->last_cr) {
        /* the LF of a CRLF whose CR was already seen (e.g. the end of "exit\r\n") */
        k->last_cr = false;
        k->noise++;
        return KNOCK_NOISE;
    }
    if (k->mode == KNOCK_MODE_RETURN) {
        if (is_eol(c)) {
            knock_restart(k);
            return KNOCK_ENTER;
        }
        return noise(k, c);
    }
    return KNOCK_ENTER;
}
