/* SPDX-License-Identifier: MIT */
#include "knock.h"

#define MAGIC_LEN (sizeof(KNOCK_MAGIC) - 1)

void knock_init(struct knock *k, int mode)
{
    k->mode = (int8_t)mode;
    k->noise = 0;
    k->noise_fast = 0;
    knock_restart(k);
}

void knock_restart(struct knock *k)
{
    knock_restart_after(k, false);
}

void knock_restart_after(struct knock *k, bool after_cr)
{
    k->matched = 0;
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
     * are plain noise until a '$', CR or LF: knock_quiet_noise may take them. */
    k->quiet = k->mode != KNOCK_MODE_ANY_FIQ && k->prompted && !k->matched && !k->last_cr &&
               (ev == KNOCK_NOISE || ev == KNOCK_NOISE_PROMPT);
    return ev;
}

static enum knock_event feed(struct knock *k, uint8_t c)
{
    if (k->mode == KNOCK_MODE_MAGIC) {
        bool prompt = false;

        if (c == (uint8_t)KNOCK_MAGIC[k->matched]) {
            k->last_cr = false;
            if (++k->matched < MAGIC_LEN)
                return KNOCK_PARTIAL;
            knock_restart(k);
            return KNOCK_ENTER;
        }
        if (k->matched) {
            /* the prefix seen so far was noise after all */
            k->noise += k->matched;
            k->matched = 0;
            prompt = take_prompt(k);
            if (c == (uint8_t)KNOCK_MAGIC[0]) { /* '$' occurs once: a knock may restart here */
                k->matched = 1;
                k->last_cr = false;
                return prompt ? KNOCK_NOISE_PROMPT : KNOCK_PARTIAL;
            }
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
