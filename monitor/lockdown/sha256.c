/* SPDX-License-Identifier: MIT */
/* SHA-256 as FIPS 180-4 section 6.2 writes it, sized for fiqmon: one round loop, the
 * message schedule kept as a 16-word window. */
#include "sha256.h"

#include <string.h>

static const uint32_t k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
    0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
    0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
    0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
    0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
    0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
    0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2,
};

static const uint32_t h0[8] = {
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
    0x5be0cd19,
};

static uint32_t ror(uint32_t x, unsigned n)
{
    return x >> n | x << (32 - n);
}

static uint32_t load_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void store_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static void compress(uint32_t h[8], const uint8_t block[SHA256_BLOCK_SIZE])
{
    uint32_t w[16];
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];

    for (unsigned i = 0; i < 16; i++)
        w[i] = load_be32(block + 4 * i);
    for (unsigned i = 0; i < 64; i++) {
        if (i >= 16) { /* w[i] = s1(w[i-2]) + w[i-7] + s0(w[i-15]) + w[i-16] */
            uint32_t w15 = w[(i + 1) & 15], w2 = w[(i + 14) & 15];
            w[i & 15] += (ror(w2, 17) ^ ror(w2, 19) ^ w2 >> 10) + w[(i + 9) & 15] +
                         (ror(w15, 7) ^ ror(w15, 18) ^ w15 >> 3);
        }
        uint32_t t1 = hh + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + k[i] +
                      w[i & 15];
        uint32_t t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        hh = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += hh;
}

void sha256_init(struct sha256 *s)
{
    memcpy(s->h, h0, sizeof(h0));
    s->bytes = 0;
}

void sha256_update(struct sha256 *s, const void *data, size_t len)
{
    const uint8_t *p = data;
    size_t used = (size_t)(s->bytes & (SHA256_BLOCK_SIZE - 1));

    s->bytes += len;
    while (len) {
        size_t n = SHA256_BLOCK_SIZE - used < len ? SHA256_BLOCK_SIZE - used : len;
        memcpy(s->block + used, p, n);
        used += n;
        p += n;
        len -= n;
        if (used == SHA256_BLOCK_SIZE) {
            compress(s->h, s->block);
            used = 0;
        }
    }
}

void sha256_final(struct sha256 *s, uint8_t digest[SHA256_DIGEST_SIZE])
{
    uint8_t length[8];
    uint8_t pad = 0x80;

    /* a 1 bit, zeros to 56 mod 64 bytes, the length in bits as a 64-bit big-endian number */
    store_be32(length, (uint32_t)(s->bytes >> 29));
    store_be32(length + 4, (uint32_t)(s->bytes << 3));
    do {
        sha256_update(s, &pad, 1);
        pad = 0;
    } while ((s->bytes & (SHA256_BLOCK_SIZE - 1)) != SHA256_BLOCK_SIZE - 8);
    sha256_update(s, length, sizeof(length));
    for (unsigned i = 0; i < 8; i++)
        store_be32(digest + 4 * i, s->h[i]);
}

void sha256(const void *data, size_t len, uint8_t digest[SHA256_DIGEST_SIZE])
{
    struct sha256 s;

    sha256_init(&s);
    sha256_update(&s, data, len);
    sha256_final(&s, digest);
}
