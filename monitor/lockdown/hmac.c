/* SPDX-License-Identifier: MIT */
#include "hmac.h"

#include <string.h>

void crypto_wipe(void *p, size_t n)
{
    volatile uint8_t *v = p;

    while (n--)
        *v++ = 0;
}

bool crypto_equal(const void *a, const void *b, size_t n)
{
    const volatile uint8_t *x = a, *y = b;
    uint8_t diff = 0;

    for (size_t i = 0; i < n; i++)
        diff |= x[i] ^ y[i];
    return diff == 0;
}

void hmac_sha256(const void *key, size_t key_len, const void *msg, size_t msg_len,
                 uint8_t mac[HMAC_SHA256_SIZE])
{
    uint8_t pad[SHA256_BLOCK_SIZE] = {0};
    uint8_t inner[SHA256_DIGEST_SIZE];
    struct sha256 s;

    if (key_len > SHA256_BLOCK_SIZE)
        sha256(key, key_len, pad);
    else
        memcpy(pad, key, key_len);
    /* H((K ^ opad) || H((K ^ ipad) || msg)) */
    for (unsigned i = 0; i < SHA256_BLOCK_SIZE; i++)
        pad[i] ^= 0x36;
    sha256_init(&s);
    sha256_update(&s, pad, sizeof(pad));
    sha256_update(&s, msg, msg_len);
    sha256_final(&s, inner);
    for (unsigned i = 0; i < SHA256_BLOCK_SIZE; i++)
        pad[i] ^= 0x36 ^ 0x5c;
    sha256_init(&s);
    sha256_update(&s, pad, sizeof(pad));
    sha256_update(&s, inner, sizeof(inner));
    sha256_final(&s, mac);
    crypto_wipe(pad, sizeof(pad));
    crypto_wipe(inner, sizeof(inner));
    crypto_wipe(&s, sizeof(s));
}

bool hmac_sha256_verify(const void *key, size_t key_len, const void *msg, size_t msg_len,
                        const uint8_t mac[HMAC_SHA256_SIZE])
{
    uint8_t want[HMAC_SHA256_SIZE];
    bool ok;

    hmac_sha256(key, key_len, msg, msg_len, want);
    ok = crypto_equal(want, mac, sizeof(want));
    crypto_wipe(want, sizeof(want));
    return ok;
}
