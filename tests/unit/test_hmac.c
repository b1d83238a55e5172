/* SPDX-License-Identifier: MIT */
/* HMAC-SHA256: the RFC 4231 test cases, random keys and messages against the host's own
 * implementation (Python's hmac module, run once for all of them), and the verify and
 * compare helpers the unlock check relies on. */
#define _DEFAULT_SOURCE /* mkstemp, popen */
#include "expect.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "hmac.h"

static const char *hex(const uint8_t *b, size_t n)
{
    static char out[2 * 64 + 1];

    for (size_t i = 0; i < n && i < 64; i++)
        snprintf(out + 2 * i, 3, "%02x", b[i]);
    return out;
}

/* --- RFC 4231 --------------------------------------------------------------------------- */

struct rfc4231_case {
    const char *name;
    uint8_t key_byte; /* the key is key_len copies of it, unless key is set */
    size_t key_len;
    const char *key;
    uint8_t data_byte; /* likewise for the data */
    size_t data_len;
    const char *data;
    const char *mac; /* hex; case 5 gives only the first 128 bits */
};

static const uint8_t case4_key[25] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13,
                                      14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25};

static void test_rfc4231_test_cases(void **state)
{
    static const struct rfc4231_case c[] = {
        {"1", 0x0b, 20, NULL, 0, 0, "Hi There",
         "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"},
        {"2 (key shorter than the output)", 0, 4, "Jefe", 0, 0, "what do ya want for nothing?",
         "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"},
        {"3", 0xaa, 20, NULL, 0xdd, 50, NULL,
         "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"},
        {"4", 0, 25, (const char *)case4_key, 0xcd, 50, NULL,
         "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"},
        {"5 (truncated to 128 bits)", 0x0c, 20, NULL, 0, 0, "Test With Truncation",
         "a3b6167473100ee06e0c796c2955552b"},
        {"6 (key larger than a block)", 0xaa, 131, NULL, 0, 0,
         "Test Using Larger Than Block-Size Key - Hash Key First",
         "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"},
        {"7 (key and data larger than a block)", 0xaa, 131, NULL, 0, 0,
         "This is a test using a larger than block-size key and a larger than block-size data. "
         "The key needs to be hashed before being used by the HMAC algorithm.",
         "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"},
    };

    for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
        uint8_t key[131], data[200], mac[HMAC_SHA256_SIZE];
        size_t data_len = c[i].data ? strlen(c[i].data) : c[i].data_len;
        if (c[i].key)
            memcpy(key, c[i].key, c[i].key_len);
        else
            memset(key, c[i].key_byte, c[i].key_len);
        if (c[i].data)
            memcpy(data, c[i].data, data_len);
        else
            memset(data, c[i].data_byte, data_len);
        hmac_sha256(key, c[i].key_len, data, data_len, mac);
        const char *got = hex(mac, strlen(c[i].mac) / 2);
        EXPECT_TRUE(strcmp(got, c[i].mac) == 0, "RFC 4231 case %s: got %s, want %s", c[i].name,
                    got, c[i].mac);
    }
}

/* --- against the host ------------------------------------------------------------------- */

#define HOST_CASES 200u
#define HOST_MAX 300u

static uint32_t rng = 0x9e3779b9u;

static uint32_t next_random(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

static const char host_hmac_py[] =
    "import hmac, hashlib, sys\n"
    "for line in open(sys.argv[1]):\n"
    "    k, m = (bytes.fromhex(x) for x in line.split(\",\"))\n"
    "    print(hmac.new(k, m, hashlib.sha256).hexdigest())\n";

static void test_random_keys_and_messages_match_pythons_hmac(void **state)
{
    static uint8_t keys[HOST_CASES][HOST_MAX], msgs[HOST_CASES][HOST_MAX];
    static size_t key_lens[HOST_CASES], msg_lens[HOST_CASES];
    char path[] = "/tmp/fiqmon-hmac-XXXXXX", cmd[512], line[256];
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");

    EXPECT_TRUE(fd >= 0 && f, "cannot create %s", path);
    for (unsigned i = 0; i < HOST_CASES; i++) {
        /* keys around the block size matter most: 0..130 in turn, then random */
        key_lens[i] = i < 131 ? i : next_random() % HOST_MAX;
        msg_lens[i] = next_random() % HOST_MAX;
        for (size_t j = 0; j < key_lens[i]; j++)
            keys[i][j] = (uint8_t)next_random();
        for (size_t j = 0; j < msg_lens[i]; j++)
            msgs[i][j] = (uint8_t)next_random();
        for (size_t j = 0; j < key_lens[i]; j++)
            fprintf(f, "%02x", keys[i][j]);
        fputc(',', f);
        for (size_t j = 0; j < msg_lens[i]; j++)
            fprintf(f, "%02x", msgs[i][j]);
        fputc('\n', f);
    }
    fclose(f);
    snprintf(cmd, sizeof(cmd), "/usr/bin/python3 -c '%s' %s", host_hmac_py, path);
    FILE *p = popen(cmd, "r");
    EXPECT_TRUE(p != NULL, "cannot run python3");
    for (unsigned i = 0; i < HOST_CASES; i++) {
        uint8_t mac[HMAC_SHA256_SIZE];
        EXPECT_TRUE(fgets(line, sizeof(line), p) != NULL, "python3 gave %u lines, want %u", i,
                    HOST_CASES);
        line[strcspn(line, "\n")] = '\0';
        hmac_sha256(keys[i], key_lens[i], msgs[i], msg_lens[i], mac);
        EXPECT_TRUE(strcmp(hex(mac, sizeof(mac)), line) == 0,
                    "case %u (key %zu bytes, message %zu): fiqmon %s, python %s", i, key_lens[i],
                    msg_lens[i], hex(mac, sizeof(mac)), line);
    }
    EXPECT_EQ(pclose(p), 0);
    unlink(path);
}

/* --- verify, compare, wipe -------------------------------------------------------------- */

static void test_verify_accepts_the_mac_and_refuses_every_single_bit_flip(void **state)
{
    /* the last byte is not 0: HMAC pads short keys with zeros, so a trailing zero byte
     * would make the shorter key the same key */
    static const uint8_t key[32] = {0x00, 0xff, 0x0a, 0x0d, 0x22, 0x5c, [31] = 0x36};
    static const uint8_t nonce[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    uint8_t mac[HMAC_SHA256_SIZE];

    hmac_sha256(key, sizeof(key), nonce, sizeof(nonce), mac);
    EXPECT_TRUE(hmac_sha256_verify(key, sizeof(key), nonce, sizeof(nonce), mac),
                "the right mac was refused");
    for (unsigned bit = 0; bit < 8 * sizeof(mac); bit++) {
        mac[bit / 8] ^= (uint8_t)(1u << bit % 8);
        EXPECT_TRUE(!hmac_sha256_verify(key, sizeof(key), nonce, sizeof(nonce), mac),
                    "a mac with bit %u flipped was accepted", bit);
        mac[bit / 8] ^= (uint8_t)(1u << bit % 8);
    }
    /* the same mac under another key, or for another message */
    EXPECT_TRUE(!hmac_sha256_verify(key, sizeof(key) - 1, nonce, sizeof(nonce), mac),
                "a shorter key was accepted");
    EXPECT_TRUE(!hmac_sha256_verify(key, sizeof(key), nonce, sizeof(nonce) - 1, mac),
                "a shorter message was accepted");
}

static void test_crypto_equal_and_wipe(void **state)
{
    uint8_t a[40], b[40];

    for (size_t i = 0; i < sizeof(a); i++)
        a[i] = b[i] = (uint8_t)(i * 7 + 1);
    EXPECT_TRUE(crypto_equal(a, b, sizeof(a)), "equal buffers compare unequal");
    EXPECT_TRUE(crypto_equal(a, b, 0), "empty buffers compare unequal");
    for (size_t i = 0; i < sizeof(a); i++) {
        b[i] ^= 0x80;
        EXPECT_TRUE(!crypto_equal(a, b, sizeof(a)), "a difference at byte %zu was missed", i);
        b[i] ^= 0x80;
    }
    crypto_wipe(a, sizeof(a) - 1);
    for (size_t i = 0; i + 1 < sizeof(a); i++)
        EXPECT_EQ(a[i], 0);
    EXPECT_EQ(a[sizeof(a) - 1], (uint8_t)((sizeof(a) - 1) * 7 + 1));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rfc4231_test_cases),
        cmocka_unit_test(test_random_keys_and_messages_match_pythons_hmac),
        cmocka_unit_test(test_verify_accepts_the_mac_and_refuses_every_single_bit_flip),
        cmocka_unit_test(test_crypto_equal_and_wipe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
