/* SPDX-License-Identifier: MIT */
#include "text.h"

void text_expand(unsigned char c, void (*emit)(void *ctx, char c), void *ctx)
{
    unsigned char stack[TEXT_DEPTH + 1];
    unsigned n = 0;

    stack[n++] = c;
    while (n) {
        c = stack[--n];
        if (c < 0x80 || c - 0x80u >= text_token_count) {
            emit(ctx, (char)c);
            continue;
        }
        /* a token: its second half waits below its first */
        stack[n++] = text_tokens[c - 0x80][1];
        stack[n++] = text_tokens[c - 0x80][0];
    }
}
