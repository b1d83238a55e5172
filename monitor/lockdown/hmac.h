/* SPDX-License-Identifier: MIT */
/* HMAC-SHA256 (RFC 2104, FIPS 198-1) and the two helpers every secret comparison needs:
 * a constant-time compare and a wipe the compiler may not drop. No heap; about 300 bytes
 * of stack. */
#ifndef FIQMON_HMAC_H
#define FIQMON_HMAC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sha256.h"

#define HMAC_SHA256_SIZE SHA256_DIGEST_SIZE

/* Keys longer than a block (64 bytes) are hashed first, as the standard says. */
void hmac_sha256(const void *key, size_t key_len, const void *msg, size_t msg_len,
                 uint8_t mac[HMAC_SHA256_SIZE]);

/* Is mac HMAC-SHA256(key, msg)? The comparison takes the same time wherever the first
 * difference is; the expected value is wiped before returning. */
bool hmac_sha256_verify(const void *key, size_t key_len, const void *msg, size_t msg_len,
                        const uint8_t mac[HMAC_SHA256_SIZE]);

/* a[0..n) == b[0..n), in time that depends on n only. */
bool crypto_equal(const void *a, const void *b, size_t n);

/* Zeroes p[0..n) even if the memory is never read again. */
void crypto_wipe(void *p, size_t n);

#endif
