/* SPDX-License-Identifier: MIT */
/* GDB remote packets for the stub's tests (gdb_packets.h). */
#include "gdb_packets.h"

#include "expect.h"

#include <stdio.h>

static int hexval(int c)
{
    return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

const char *pktn(const void *body, size_t n)
{
    const uint8_t *b = body;
    static char out[4][8192];
    static unsigned slot_;
    char *o = out[slot_++ % 4];
    unsigned sum = 0;

    assert_true(n + 5 <= sizeof(out[0]));
    o[0] = '$';
    memcpy(o + 1, b, n);
    for (size_t i = 0; i < n; i++)
        sum += b[i];
    snprintf(o + 1 + n, 4, "#%02x", sum & 0xff);
    return o;
}

const char *pkt(const char *body)
{
    return pktn(body, strlen(body));
}

/* --- an independent reader of the stub's run-length encoding ------------------------------ */

const char *expand_wire(const char *out, size_t len)
{
    static char res[1u << 20];
    size_t rn = 0;
    const char *end = out + len;

    while (out < end) {
        if (*out != '$') {
            assert_true(rn + 1 < sizeof(res));
            res[rn++] = *out++;
            continue;
        }
        const char *hash = memchr(out + 1, '#', (size_t)(end - out - 1));
        EXPECT_TRUE(hash && end - hash >= 3, "unterminated packet %s", expect_escape(out));
        unsigned wsum = 0, esum = 0, lit_run = 0;
        char lit_c = 0;
        for (const char *p = out + 1; p < hash; p++)
            wsum += (uint8_t)*p;
        EXPECT_EQ(wsum & 0xff, (unsigned)(hexval(hash[1]) << 4 | hexval(hash[2])));
        size_t start = rn;
        assert_true(rn + 1 < sizeof(res));
        res[rn++] = '$';
        for (const char *p = out + 1; p < hash; p++) {
            if (*p == '*') {
                EXPECT_TRUE(rn > start + 1, "'*' first in %s", expect_escape(out));
                EXPECT_TRUE(p + 1 < hash, "'*' without a count");
                char k = p[1];
                EXPECT_TRUE(k >= ' ' && k <= '~', "count character 0x%02x", (uint8_t)k);
                EXPECT_TRUE(!strchr("#$+-", k), "forbidden count character '%c'", k);
                for (int i = 0; i < k - 29; i++) {
                    assert_true(rn + 1 < sizeof(res));
                    res[rn] = res[rn - 1];
                    rn++;
                }
                p++;
                lit_run = 0;
                continue;
            }
            lit_run = *p == lit_c ? lit_run + 1 : 1;
            lit_c = *p;
            EXPECT_TRUE(lit_run < 4, "four literal '%c' in a row: not encoded", *p);
            assert_true(rn + 1 < sizeof(res));
            res[rn++] = *p;
        }
        for (size_t i = start + 1; i < rn; i++)
            esum += (uint8_t)res[i];
        assert_true(rn + 4 < sizeof(res));
        rn += (size_t)snprintf(res + rn, 4, "#%02x", esum & 0xff);
        out = hash + 3;
    }
    res[rn] = '\0';
    return res;
}
