/* SPDX-License-Identifier: MIT */
/* Numbers and words typed at the fiqmon prompt.
 * Numbers are hex by default ("1000", "0x1000"); a leading '#' makes them decimal ("#4096"). */
#ifndef FIQMON_PARSE_H
#define FIQMON_PARSE_H

#include <stdint.h>

#include "target.h"

enum parse_status {
    PARSE_OK = 0,
    PARSE_EMPTY,     /* no digits */
    PARSE_BAD_DIGIT, /* a character that is not a digit of the base */
    PARSE_OVERFLOW,  /* more than 32 bits (an address: the target's width) */
};

enum parse_status parse_u32(const char *s, uint32_t *out);
/* An address of the interrupted system (target.h: 32 or 64 bits). */
enum parse_status parse_addr(const char *s, target_addr_t *out);
/* 0-15 for a hex digit (either case), else -1. */
int parse_hex_digit(char c);
/* Signed decimal, for small settings such as the knock mode ("-1"). */
enum parse_status parse_int(const char *s, long *out);
const char *parse_status_text(enum parse_status st);

#define PARSE_MAX_ARGS 8
/* Splits line in place at spaces and tabs. Returns the word count, or -1 if there are more
 * than max words. */
int parse_words(char *line, char **argv, int max);

#endif
