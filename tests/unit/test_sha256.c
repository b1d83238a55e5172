/* SPDX-License-Identifier: MIT */
/* SHA-256: the FIPS 180-2 / NIST example vectors (the million 'a' one included), every
 * padding boundary, incremental updates split anywhere, and random inputs against the
 * host's own sha256sum (coreutils). */
#define _DEFAULT_SOURCE /* mkdtemp, popen */
#include "expect.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "sha256.h"

static const char *hex(const uint8_t *b, size_t n)
{
    static char out[2 * 64 + 1];

    for (size_t i = 0; i < n && i < 64; i++)
        snprintf(out + 2 * i, 3, "%02x", b[i]);
    return out;
}

static const char *digest_hex(const void *data, size_t len)
{
    uint8_t d[SHA256_DIGEST_SIZE];

    sha256(data, len, d);
    return hex(d, sizeof(d));
}

/* --- published vectors ------------------------------------------------------------------ */

struct vector {
    const char *msg;
    const char *digest;
};

static void test_published_vectors(void **state)
{
    static const struct vector v[] = {
        {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
        {"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqr"
         "lmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"},
    };

    for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
        EXPECT_STR_EQ(digest_hex(v[i].msg, strlen(v[i].msg)), v[i].digest);
}

static void test_a_million_as_in_chunks_of_every_awkward_size(void **state)
{
    static const size_t chunks[] = {1000000, 1, 55, 63, 64, 65, 1000};
    uint8_t a[1000], d[SHA256_DIGEST_SIZE];

    memset(a, 'a', sizeof(a));
    for (size_t c = 0; c < sizeof(chunks) / sizeof(chunks[0]); c++) {
        struct sha256 s;
        size_t left = 1000000, step = chunks[c];
        sha256_init(&s);
        while (left) {
            size_t n = step < left ? step : left;
            for (size_t done = 0; done < n;) { /* at most sizeof(a) per update */
                size_t k = n - done < sizeof(a) ? n - done : sizeof(a);
                sha256_update(&s, a, k);
                done += k;
            }
            left -= n;
        }
        sha256_final(&s, d);
        EXPECT_STR_EQ(hex(d, sizeof(d)),
                      "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    }
}

/* --- against the host ------------------------------------------------------------------- */

static uint32_t rng = 0x2545f491u;

static uint32_t next_random(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

#define HOST_CASES 160u
#define HOST_MAX_LEN 5000u

/* Writes each input to a file in a temporary directory, asks `sha256sum` for all of them
 * in one run, and returns its output lines ("<hex>  <path>") in order. */
static char host_out[HOST_CASES][SHA256_DIGEST_SIZE * 2 + 1];

static void host_digests(uint8_t (*inputs)[HOST_MAX_LEN], const size_t *lens, unsigned n)
{
    char dir[] = "/tmp/fiqmon-sha256-XXXXXX";
    char cmd[64 + HOST_CASES * 48], path[64], line[256];
    size_t at;

    EXPECT_TRUE(mkdtemp(dir) != NULL, "mkdtemp failed");
    at = (size_t)snprintf(cmd, sizeof(cmd), "sha256sum");
    for (unsigned i = 0; i < n; i++) {
        snprintf(path, sizeof(path), "%s/%03u", dir, i);
        FILE *f = fopen(path, "wb");
        EXPECT_TRUE(f != NULL, "cannot write %s", path);
        EXPECT_EQ(fwrite(inputs[i], 1, lens[i], f), lens[i]);
        fclose(f);
        at += (size_t)snprintf(cmd + at, sizeof(cmd) - at, " %s", path);
    }
    FILE *p = popen(cmd, "r");
    EXPECT_TRUE(p != NULL, "cannot run sha256sum");
    for (unsigned i = 0; i < n; i++) {
        EXPECT_TRUE(fgets(line, sizeof(line), p) != NULL, "sha256sum gave %u lines, want %u", i,
                    n);
        memcpy(host_out[i], line, SHA256_DIGEST_SIZE * 2);
        host_out[i][SHA256_DIGEST_SIZE * 2] = '\0';
    }
    EXPECT_EQ(pclose(p), 0);
    for (unsigned i = 0; i < n; i++) {
        snprintf(path, sizeof(path), "%s/%03u", dir, i);
        unlink(path);
    }
    rmdir(dir);
}

static void test_random_inputs_match_the_hosts_sha256sum(void **state)
{
    static uint8_t inputs[HOST_CASES][HOST_MAX_LEN];
    static size_t lens[HOST_CASES];

    /* every length from 0 to 129 (each padding case, twice over), then random ones */
    for (unsigned i = 0; i < HOST_CASES; i++) {
        lens[i] = i < 130 ? i : next_random() % HOST_MAX_LEN;
        for (size_t j = 0; j < lens[i]; j++)
            inputs[i][j] = (uint8_t)next_random();
    }
    host_digests(inputs, lens, HOST_CASES);
    for (unsigned i = 0; i < HOST_CASES; i++) {
        const char *got = digest_hex(inputs[i], lens[i]);
        EXPECT_TRUE(strcmp(got, host_out[i]) == 0, "input %u (%zu bytes): fiqmon %s, host %s", i,
                    lens[i], got, host_out[i]);
    }
}

static void test_any_split_into_updates_gives_the_one_shot_digest(void **state)
{
    uint8_t msg[300], one[SHA256_DIGEST_SIZE], parts[SHA256_DIGEST_SIZE];

    for (size_t i = 0; i < sizeof(msg); i++)
        msg[i] = (uint8_t)next_random();
    for (size_t len = 0; len <= sizeof(msg); len += 7) {
        sha256(msg, len, one);
        for (unsigned trial = 0; trial < 20; trial++) {
            struct sha256 s;
            size_t at = 0;
            sha256_init(&s);
            while (at < len) {
                size_t n = next_random() % 80;
                if (n > len - at)
                    n = len - at;
                sha256_update(&s, msg + at, n);
                at += n;
            }
            sha256_final(&s, parts);
            EXPECT_TRUE(memcmp(one, parts, sizeof(one)) == 0, "length %zu, trial %u differs", len,
                        trial);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_published_vectors),
        cmocka_unit_test(test_a_million_as_in_chunks_of_every_awkward_size),
        cmocka_unit_test(test_random_inputs_match_the_hosts_sha256sum),
        cmocka_unit_test(test_any_split_into_updates_gives_the_one_shot_digest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
