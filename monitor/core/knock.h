/* SPDX-License-Identifier: MIT */
/* Knock detector: decides, byte by byte, when line traffic is a request to enter fiqmon.
 * Runs on every received byte while the monitor waits, so it must stay cheap. */
#ifndef FIQMON_KNOCK_H
#define FIQMON_KNOCK_H

#include <stdbool.h>
#include <stdint.h>

enum knock_mode {
    KNOCK_MODE_ANY_FIQ = -1, /* any FIQ enters: a dedicated NMI button */
    KNOCK_MODE_RETURN = 0,   /* Return enters */
    KNOCK_MODE_MAGIC = 1,    /* "$3#33" enters (default) */
};

enum knock_event {
    KNOCK_NOISE,        /* byte ignored */
    KNOCK_NOISE_PROMPT, /* byte ignored; first noise of a line: show the prompt */
    KNOCK_PARTIAL,      /* byte may be part of a knock */
    KNOCK_ENTER,        /* knock complete */
    KNOCK_GDB,          /* a GDB connection's first packet: see knock.gdb_opener */
};

#define KNOCK_MAGIC "$3#33"

/* In mode 1 the knock is recognised as what it is, a GDB packet: "$body#cs" with a correct
 * checksum and one of exactly three bodies: "3" (the knock, kgdb's escape to the shell),
 * "?" or "qSupported[:...]" (how GDB opens a connection). Nothing looser: random noise
 * forms some short valid packet now and then, never one of these. */
#define KNOCK_GDB_MAX_BODY 1024

struct knock {
    int8_t mode;
    uint8_t phase;       /* where in a candidate packet: 0 none, body, checksum digits */
    uint8_t possible;    /* bodies the candidate may still be (KNOCK_BODY_* bits) */
    uint8_t sum;         /* checksum of the body so far */
    uint8_t csum_hi;     /* first checksum digit */
    char gdb_opener;     /* after KNOCK_GDB: '?' or 'q' (qSupported) */
    uint16_t matched;    /* bytes of the candidate packet seen so far (0: none) */
    bool prompted;       /* prompt already shown on this line of noise */
    bool last_cr;        /* previous byte was CR (so LF completes CRLF) */
    bool quiet;          /* mid-line of noise: any byte but '$', CR, LF is plain noise */
    uint32_t noise;      /* bytes ignored by knock_feed */
};

void knock_init(struct knock *k, int mode);
/* Back to the start of a line; keeps mode and counters. */
void knock_restart(struct knock *k);
/* The same, when the previous input ended with CR: a following LF completes that CRLF and
 * is neither a knock (mode 0, -1) nor a prompt-worthy line of noise. */
void knock_restart_after(struct knock *k, bool after_cr);
enum knock_event knock_feed(struct knock *k, uint8_t c);

/* While k->quiet, a byte for which this is true is certainly noise that changes nothing,
 * so knock_feed need not see it: the FIQ's noise path drops it (noise_gate.h; its
 * assembly makes the same three compares). It agrees with knock_feed, which keeps `quiet`
 * up to date. */
static inline bool knock_quiet_byte(uint8_t c)
{
    return c != '$' && c != '\r' && c != '\n';
}
bool knock_mode_valid(long mode);
/* The waiting prompt for a mode, or NULL when the mode has none. */
const char *knock_prompt(int mode);
/* What stops the boot countdown in a mode: the knock itself ("Type $3#33 to stay in
 * fiqmon"); in mode -1 any byte does. */
const char *knock_stay_prompt(int mode);

#endif
