/* SPDX-License-Identifier: MIT */
/* SHA-256 (FIPS 180-4), incremental. No heap: the context lives wherever the caller puts
 * it (104 bytes); a compression uses about 100 bytes of stack more. */
#ifndef FIQMON_SHA256_H
#define FIQMON_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_BLOCK_SIZE  64u
#define SHA256_DIGEST_SIZE 32u

struct sha256 {
    uint32_t h[8];                    /* chaining state */
    uint64_t bytes;                   /* message length so far */
    uint8_t block[SHA256_BLOCK_SIZE]; /* the partial block */
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t len);
/* Writes the digest; the context must be initialised again before reuse. */
void sha256_final(struct sha256 *s, uint8_t digest[SHA256_DIGEST_SIZE]);
/* The digest of one buffer. */
void sha256(const void *data, size_t len, uint8_t digest[SHA256_DIGEST_SIZE]);

#endif
