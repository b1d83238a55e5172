/* SPDX-License-Identifier: MIT */
/* Line editor for the fiqmon shell: echo, Backspace/DEL, Ctrl-U, Ctrl-C, and a hard limit.
 * Fed one byte per call from FIQ context; never blocks. */
#ifndef FIQMON_LINE_EDITOR_H
#define FIQMON_LINE_EDITOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LINE_MAX_CHARS 128

enum line_event {
    LINE_NONE,      /* keep typing */
    LINE_READY,     /* a complete line is in buf (NUL-terminated) */
    LINE_CANCELLED, /* Ctrl-C: line abandoned */
    LINE_TOO_LONG,  /* limit exceeded: the rest of this line will be discarded */
    LINE_DISCARDED, /* end of a line that was too long: nothing to run */
};

struct line_editor {
    char buf[LINE_MAX_CHARS + 1];
    uint16_t len;
    bool overflow; /* past the limit: swallow until end of line */
    bool last_cr;  /* LF right after CR is part of the same line end */
    void (*echo)(const char *s, size_t n);
};

void line_init(struct line_editor *le, void (*echo)(const char *s, size_t n));
/* Start a fresh line. after_cr: a CR just ended the previous input, so a following LF is
 * its CRLF tail and must not end the new line. */
void line_reset(struct line_editor *le, bool after_cr);
enum line_event line_feed(struct line_editor *le, uint8_t c);

#endif
