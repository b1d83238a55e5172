/* SPDX-License-Identifier: MIT */
#include "line_editor.h"

#define CTRL(c) ((c) & 0x1f)
#define DEL 0x7f

static const char rubout[] = "\b \b";

void line_init(struct line_editor *le, void (*echo)(const char *s, size_t n))
{
    le->echo = echo;
    line_reset(le, false);
}

void line_reset(struct line_editor *le, bool after_cr)
{
    le->len = 0;
    le->buf[0] = '\0';
    le->overflow = false;
    le->last_cr = after_cr;
}

static enum line_event end_of_line(struct line_editor *le)
{
    if (le->overflow) {
        line_reset(le, le->last_cr);
        return LINE_DISCARDED;
    }
    le->buf[le->len] = '\0';
    return LINE_READY;
}

enum line_event line_feed(struct line_editor *le, uint8_t c)
{
    bool crlf_tail = c == '\n' && le->last_cr;

    le->last_cr = c == '\r';
    if (crlf_tail)
        return LINE_NONE;
    if (c == '\r' || c == '\n')
        return end_of_line(le);
    if (c == CTRL('C')) {
        line_reset(le, false);
        return LINE_CANCELLED;
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
