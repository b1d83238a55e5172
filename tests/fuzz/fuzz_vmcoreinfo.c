/* SPDX-License-Identifier: MIT */
/* libFuzzer harness for the VMCOREINFO parser: arbitrary text through vmci_parse_byte(),
 * checked against the harness's own line-by-line reading of the same text (split at '\n',
 * key before the first '=', hex after SYMBOL(...) and decimal otherwise, 32 bits, first
 * occurrence wins, an unterminated last line dropped). Keys are compared by the parser's
 * hash (vmci_key_hash; the unit test checks the hashes against the names). Then the same
 * bytes as a page in RAM: kernel_vmcoreinfo() must not fault, hang or leave the port in
 * physical mode, and what it accepts must agree with the uts it read. */
#include <stdbool.h>
#include <string.h>

#include "fake_port.h"
#include "kernel_support.h"
#include "support.h"
#include "vmcoreinfo.h"

static int key_of(const uint8_t *k, size_t n)
{
    uint32_t h = VMCI_HASH_START;
    int key = -1;

    for (size_t i = 0; i < n; i++)
        h = vmci_hash(h, k[i]);
    for (int i = 0; i <= VMCI_KEYS; i++)
        if (vmci_key_hash[i] == h)
            key = i;
    return key;
}

static bool number(const uint8_t *s, size_t n, bool hex, uint32_t *out)
{
    uint64_t v = 0;

    if (!n)
        return false;
    for (size_t i = 0; i < n; i++) {
        unsigned c = s[i], d;
        if (c >= '0' && c <= '9')
            d = c - '0';
        else if (hex && (c | 0x20) >= 'a' && (c | 0x20) <= 'f')
            d = (c | 0x20) - 'a' + 10;
        else
            return false;
        v = v * (hex ? 16 : 10) + d;
        if (v > 0xffffffffu)
            return false;
    }
    *out = (uint32_t)v;
    return true;
}

static void reference(const uint8_t *d, size_t n, struct vmci *ref)
{
    memset(ref, 0, sizeof(*ref));
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && d[j] != '\n' && d[j] != 0)
            j++;
        if (j == n || d[j] == 0)
            return; /* the end; an unterminated line does not count */
        const uint8_t *eq = memchr(d + i, '=', j - i);
        if (eq) {
            int k = key_of(d + i, (size_t)(eq - (d + i)));
            const uint8_t *val = eq + 1;
            size_t vn = (size_t)(d + j - val);
            if (k == VMCI_OSRELEASE && !ref->release[0]) {
                bool ok = vn >= 1 && vn <= VMCI_RELEASE_MAX;
                for (size_t m = 0; ok && m < vn; m++)
                    ok = val[m] > ' ' && val[m] <= '~';
                if (ok) {
                    memcpy(ref->release, val, vn);
                    ref->release[vn] = '\0';
                }
            } else if (k >= 0 && k < VMCI_KEYS && !(ref->have & VMCI_BIT(k))) {
                uint32_t v;
                if (number(val, vn, k >= VMCI_FIRST_SYMBOL, &v)) {
                    ref->have |= VMCI_BIT(k);
                    ref->value[k] = v;
                }
            }
        }
        i = j + 1;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct vmci got, ref;
    struct vmci_parser p;

    vmci_parse_start(&p, &got);
    for (size_t i = 0; i < size; i++)
        if (!vmci_parse_byte(&p, data[i]))
            break;
    vmci_parse_byte(&p, '\0');
    reference(data, size, &ref);
    FUZZ_CHECK(got.have == ref.have, "keys found %08x, reference %08x", (unsigned)got.have,
               (unsigned)ref.have);
    for (int k = 0; k < VMCI_KEYS; k++)
        FUZZ_CHECK(!(got.have & VMCI_BIT(k)) || got.value[k] == ref.value[k],
                   "key %d: %08x, reference %08x", k, (unsigned)got.value[k],
                   (unsigned)ref.value[k]);
    FUZZ_CHECK(strcmp(got.release, ref.release) == 0, "release '%s', reference '%s'", got.release,
               ref.release);

    /* the same bytes as a page of RAM, with a uts naming what they name */
    fk_reset();
    if (size > 4096)
        size = 4096;
    fake_mem_write(FAKE_RAM_BASE + 0x3000, data, size);
    if (ref.have & VMCI_BIT(VMCI_SYM_INIT_UTS_NS)) {
        uint32_t uts = ref.value[VMCI_SYM_INIT_UTS_NS] +
                       (ref.have & VMCI_BIT(VMCI_UTS_NAME) ? ref.value[VMCI_UTS_NAME] : 0);
        if (uts >= FK_BASE && uts < FK_BASE + FK_SIZE - 0x200)
            fake_mem_write(uts + 130, ref.release, strlen(ref.release));
    }
    const struct vmci *v = kernel_vmcoreinfo(true);
    FUZZ_CHECK(fake.space == PORT_MEM_VIRTUAL, "left in memory space %d", (int)fake.space);
    if (v) {
        FUZZ_CHECK(v->release[0] && strlen(v->release) <= VMCI_RELEASE_MAX, "bad release");
        FUZZ_CHECK(kernel_vmcoreinfo(false) == v, "a kernel just found fails revalidation");
    }
    return 0;
}
