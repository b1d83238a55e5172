/* SPDX-License-Identifier: MIT */
#include "line_editor.h"

#include <string.h>

#define CTRL(c) ((c) & 0x1f)
#define DEL 0x7f
#define ESC 0x1b

/* Escape sequences (ECMA-48): ESC [ params final (CSI), ESC O final (SS3), ESC x. */
enum { ESC_NONE, ESC_START, ESC_CSI, ESC_SS3 };

static const char rubout[] = "\b \b";

void line_init(struct line_editor *le, void (*echo)(const char *s, size_t n))
{
    le->echo = echo;
    line_history_clear(le);
    line_reset(le, false);
}

void line_reset(struct line_editor *le, bool after_cr)
{
    le->len = 0;
    le->buf[0] = '\0';
    le->overflow = false;
    le->last_cr = after_cr;
    le->esc = ESC_NONE;
    le->recalled = 0;
}

void line_history_clear(struct line_editor *le)
{
    le->history_used = 0;
    le->recalled = 0;
}

/* The kth most recent line (1: the last), or NULL. */
static const char *history_line(const struct line_editor *le, unsigned k)
{
    size_t end = le->history_used; /* just past the NUL ending the line looked at */

    while (end) {
        size_t start = end - 1;
        while (start && le->history[start - 1])
            start--;
        if (--k == 0)
            return le->history + start;
        end = start;
    }
    return NULL;
}

static void history_add(struct line_editor *le)
{
    size_t n = (size_t)le->len + 1;
    const char *last = history_line(le, 1);

    if (!le->len || (last && strcmp(last, le->buf) == 0))
        return;
    while (le->history_used + n > LINE_HISTORY_BYTES) { /* drop the oldest */
        size_t first = strlen(le->history) + 1;
        memmove(le->history, le->history + first, le->history_used - first);
        le->history_used -= (uint16_t)first;
    }
    memcpy(le->history + le->history_used, le->buf, n);
    le->history_used += (uint16_t)n;
}

/* Up (older) or Down (newer, and past the newest an empty line): redraw in place. */
static void recall(struct line_editor *le, bool older)
{
    unsigned k;
    const char *s;

    if (le->overflow || (!older && !le->recalled))
        return;
    k = older ? le->recalled + 1u : le->recalled - 1u;
    s = k ? history_line(le, k) : "";
    if (!s)
        return; /* no older line */
    le->recalled = (uint8_t)k;
    for (; le->len; le->len--)
        le->echo(rubout, sizeof(rubout) - 1);
    le->len = (uint16_t)strlen(s);
    memcpy(le->buf, s, le->len);
    le->echo(le->buf, le->len);
}

/* In a sequence: true if c belongs to it (swallowed). A control byte is never part of one
 * (a lost final byte must not eat the Return after it), nor is byte LINE_ESC_MAX + 1. */
static bool escape_feed(struct line_editor *le, uint8_t c)
{
    uint8_t state = le->esc;

    le->esc = ESC_NONE;
    if (c < 0x20 || c >= DEL || ++le->esc_len > LINE_ESC_MAX)
        return false;
    if (state == ESC_START) {
        /* 0x20-0x2f: intermediate bytes (ESC ( B); anything else ends ESC x */
        le->esc = c == '[' ? ESC_CSI : c == 'O' ? ESC_SS3 : c < 0x30 ? ESC_START : ESC_NONE;
        return true;
    }
    if (state == ESC_CSI && c < 0x40) { /* parameter and intermediate bytes */
        le->esc = ESC_CSI;
        return true;
    }
    if (c == 'A' || c == 'B') /* the final byte of Up or Down (with or without modifiers) */
        recall(le, c == 'A');
    return true;
}

static enum line_event end_of_line(struct line_editor *le)
{
    if (le->overflow) {
        line_reset(le, le->last_cr);
        return LINE_DISCARDED;
    }
    le->buf[le->len] = '\0';
    history_add(le);
    return LINE_READY;
}

enum line_event line_feed(struct line_editor *le, uint8_t c)
{
    bool crlf_tail = c == '\n' && le->last_cr;

    le->last_cr = c == '\r';
    if (crlf_tail)
        return LINE_NONE;
    if (le->esc && escape_feed(le, c))
        return LINE_NONE;
    if (c == '\r' || c == '\n')
        return end_of_line(le);
    if (c == CTRL('C')) {
        line_reset(le, false);
        return LINE_CANCELLED;
    }
    if (c == ESC) {
        le->esc = ESC_START;
        le->esc_len = 0;
        return LINE_NONE;
    }
    if (le->overflow)
        return LINE_NONE;
    if (c == '\b' || c == DEL) {
        if (le->len) {
            le->len--;
            le->echo(rubout, sizeof(rubout) - 1);
        }
        return LINE_NONE;
    }
    if (c == CTRL('U')) {
        for (; le->len; le->len--)
            le->echo(rubout, sizeof(rubout) - 1);
        return LINE_NONE;
    }
    if (c == '\t')
        c = ' '; /* a word separator like any other (parse_words splits at both) */
    if (c < 0x20 || c > 0x7e)
        return LINE_NONE; /* other control bytes and 8-bit noise are not part of a command */
    if (le->len == LINE_MAX_CHARS) {
        le->overflow = true;
        return LINE_TOO_LONG;
    }
    le->buf[le->len++] = (char)c;
    le->echo((const char *)&c, 1);
    return LINE_NONE;
}
