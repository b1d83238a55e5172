/* SPDX-License-Identifier: MIT */
/* libFuzzer harness for the kallsyms reader: tables made of input bytes, at addresses the
 * input chooses inside the region. Whatever they hold, ksyms_ready() must decide without
 * faulting or looping; when it accepts them, every lookup must return a symbol that
 * contains the address and a printable, terminated name, and a name search must only
 * return symbols of that name.
 *
 * Input: bytes 0-1 the symbol count (1-1024), 2-11 the offsets of kallsyms_offsets,
 * relative_base, names, token_table and token_index (16-bit, 4-aligned), 12 flags (bit 0:
 * also publish SYMBOL(kallsyms_markers), at region offset 0x100), 13-20 two lookup
 * addresses (offsets from the first symbol), 21-28 a name to search (NUL-padded), then the
 * region's bytes. */
#include <stdio.h>
#include <string.h>

#include "fake_port.h"
#include "kallsyms.h"
#include "kernel_support.h"
#include "support.h"

#define HEADER 29u
#define NUM_SYMS (FK_BASE + FK_DATA_MAX - 4u) /* the count: written by the harness */

static const char *want;

static void found(const struct ksym *s)
{
    FUZZ_CHECK(strlen(s->name) < KSYM_NAME_MAX, "name not terminated");
    FUZZ_CHECK(strncmp(s->name, want, KSYM_NAME_MAX - 1) == 0, "searched '%s', found '%s'", want,
               s->name);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char lines[512], name[9];
    uint32_t a[5], lo, hi;
    struct ksym s;

    if (size < HEADER)
        return 0;
    fk_reset();
    fk_fill(data + HEADER, size - HEADER);
    for (unsigned i = 0; i < 5; i++)
        a[i] = FK_BASE + ((uint32_t)(data[2 + 2 * i] | data[3 + 2 * i] << 8) & 0xfffcu);
    fk_w32(NUM_SYMS, 1u + ((data[0] | data[1] << 8) & 0x3ffu));
    snprintf(lines, sizeof(lines),
             "SYMBOL(kallsyms_offsets)=%x\nSYMBOL(kallsyms_relative_base)=%x\n"
             "SYMBOL(kallsyms_names)=%x\nSYMBOL(kallsyms_token_table)=%x\n"
             "SYMBOL(kallsyms_token_index)=%x\nSYMBOL(kallsyms_num_syms)=%x\n%s",
             a[0], a[1], a[2], a[3], a[4], NUM_SYMS,
             data[12] & 1 ? "SYMBOL(kallsyms_markers)=c0000100\n" : "");
    const struct vmci *v = fk_kernel(lines);
    if (!ksyms_ready(v))
        return 0;
    ksyms_range(&lo, &hi);
    FUZZ_CHECK(lo < hi, "accepted a range %08x-%08x", (unsigned)lo, (unsigned)hi);
    for (unsigned i = 0; i < 2; i++) {
        uint32_t addr = lo + fk_le32(data + 13 + 4 * i) % (hi - lo + 16);
        if (ksym_lookup(addr, &s)) {
            FUZZ_CHECK(strlen(s.name) < KSYM_NAME_MAX, "name not terminated");
            FUZZ_CHECK(s.size && addr - s.addr < s.size, "%08x outside %08x+%x", (unsigned)addr,
                       (unsigned)s.addr, (unsigned)s.size);
            for (const char *c = s.name; *c; c++)
                FUZZ_CHECK(*c > ' ' && *c <= '~', "unprintable name");
        }
    }
    memcpy(name, data + 21, 8);
    name[8] = '\0';
    want = name;
    int n = ksym_find(name, 4, found);
    FUZZ_CHECK(n >= -1 && n <= 4, "ksym_find returned %d", n);
    return 0;
}
