/* SPDX-License-Identifier: MIT */
/* Packed texts: the build packs fiqmon's output literals (scripts/strpack.py), and byte
 * 0x80 + i of such a literal stands for the pair text_tokens[i], each half a plain byte or
 * a token again. Only the formatter's format and con_puts() expand: bytes from the kernel
 * or the user (%s arguments, con_write) are shown as they are. */
#ifndef FIQMON_TEXT_H
#define FIQMON_TEXT_H

/* How deeply tokens nest at most: the packer keeps to it, the expander's stack holds it. */
#define TEXT_DEPTH 12

/* A literal that reaches the port only through con_puts(): the build may pack it. */
#define TEXT(s) s

extern const unsigned char text_tokens[][2]; /* generated: text_tokens.c */
extern const unsigned text_token_count;

/* Calls emit(ctx, c) for every plain byte that byte c of a packed text stands for. */
void text_expand(unsigned char c, void (*emit)(void *ctx, char c), void *ctx);

#endif
