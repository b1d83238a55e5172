/* SPDX-License-Identifier: MIT */
/* Line editor for the fiqmon shell: echo, Backspace/DEL, Ctrl-U, Ctrl-C, TAB as a space,
 * escape sequences swallowed (Up/Down recall earlier lines), and a hard limit.
 * Fed one byte per call from FIQ context; never blocks. */
#ifndef FIQMON_LINE_EDITOR_H
#define FIQMON_LINE_EDITOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LINE_MAX_CHARS 128
/* Earlier lines, packed NUL-terminated, oldest dropped first: a dozen typical commands,
 * and always room for one of the longest. */
#define LINE_HISTORY_BYTES 256
/* An escape sequence longer than this is not a key: give up on it. */
#define LINE_ESC_MAX 16

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
    uint8_t esc;     /* where in an escape sequence (line_editor.c), 0 outside one */
    uint8_t esc_len; /* bytes of it so far */
    uint8_t recalled; /* 0: a new line; n: showing the nth most recent history line */
    uint16_t history_used;
    char history[LINE_HISTORY_BYTES];
    void (*echo)(const char *s, size_t n);
};

/* A fresh editor with an empty history. */
void line_init(struct line_editor *le, void (*echo)(const char *s, size_t n));
/* Start a fresh line (the history stays). after_cr: a CR just ended the previous input, so
 * a following LF is its CRLF tail and must not end the new line. */
void line_reset(struct line_editor *le, bool after_cr);
enum line_event line_feed(struct line_editor *le, uint8_t c);
/* Forget every earlier line (a lower privilege must not recall what a higher one typed). */
void line_history_clear(struct line_editor *le);

#endif
