/* SPDX-License-Identifier: MIT */
/* libFuzzer harness for the ARM unwinder: a kernel whose code range is known (a two-symbol
 * kallsyms the harness writes), an .ARM.exidx at a page boundary whose functions the input
 * spaces and whose second words (inline instructions, extab pointers, "cannot unwind") the
 * input gives, and extab words, stack and registers from the input. bt, with the tables
 * and as a heuristic scan, must stay bounded (at most 64 frames with the tables, 32 as a
 * scan) and never fault.
 *
 * Input: bytes 0-15 pc, lr, sp, r11 (pc and lr as offsets into the code), byte 16 flags
 * (bit 0: heuristic scan), byte 17 the entry count (8-263), then per entry one spacing
 * byte and a second word, then the rest fills the extab area and the stack. */
#include <stdio.h>
#include <string.h>

#include "fake_port.h"
#include "kallsyms.h"
#include "kernel_support.h"
#include "support.h"
#include "unwind.h"

#define TEXT (FK_BASE + 0x1000u) /* code: 0x1000-0x8000 */
#define TEXT_END (FK_BASE + 0x8000u)
#define EXIDX (FK_BASE + 0x8000u) /* index: page aligned, so the page scan meets it */
#define EXTAB (FK_BASE + 0xa000u) /* extab words and the stack: the rest of the input */
#define KSYMS (FK_BASE + 0x400u)  /* the harness's kallsyms */

/* kallsyms with two symbols, "_stext" at TEXT and "_etext" at TEXT_END, one-character
 * tokens. */
static const char *kallsyms(void)
{
    static char lines[400];
    uint32_t offsets = KSYMS, base = KSYMS + 8, num = KSYMS + 12, names = KSYMS + 16;
    uint32_t markers = KSYMS + 0x40, table = KSYMS + 0x44, index = KSYMS + 0x244;
    static const uint8_t name_bytes[] = {7, 'T', '_', 's', 't', 'e', 'x', 't',
                                         7, 'T', '_', 'e', 't', 'e', 'x', 't'};

    fk_w32(offsets, 0);
    fk_w32(offsets + 4, TEXT_END - TEXT);
    fk_w32(base, TEXT);
    fk_w32(num, 2);
    fake_mem_write(names, name_bytes, sizeof(name_bytes));
    fk_w32(markers, 0);
    for (unsigned t = 0; t < 256; t++) {
        uint8_t tok[2] = {(uint8_t)t, 0};
        uint8_t ix[2] = {(uint8_t)(2 * t), (uint8_t)(2 * t >> 8)};
        fake_mem_write(table + 2 * t, tok, 2);
        fake_mem_write(index + 2 * t, ix, 2);
    }
    snprintf(lines, sizeof(lines),
             "SYMBOL(kallsyms_offsets)=%x\nSYMBOL(kallsyms_relative_base)=%x\n"
             "SYMBOL(kallsyms_names)=%x\nSYMBOL(kallsyms_token_table)=%x\n"
             "SYMBOL(kallsyms_token_index)=%x\nSYMBOL(kallsyms_num_syms)=%x\n",
             offsets, base, names, table, index, num);
    return lines;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint32_t regs[16] = {0}, fn = TEXT;
    size_t pos = 18;
    unsigned entries;

    if (size < pos)
        return 0;
    fk_reset();
    entries = 8u + data[17];
    for (unsigned i = 0; i < entries && pos + 5 <= size; i++, pos += 5) {
        uint32_t e = EXIDX + 8 * i;
        fn += 4u + 4u * data[pos];
        if (fn >= TEXT_END)
            break;
        fk_w32(e, (fn - e) & 0x7fffffffu);
        fk_w32(e + 4, fk_le32(data + pos + 1));
    }
    if (pos < size) {
        size_t n = size - pos < FK_DATA_MAX - (EXTAB - FK_BASE) ? size - pos
                                                                : FK_DATA_MAX - (EXTAB - FK_BASE);
        fake_mem_write(EXTAB, data + pos, n);
    }
    regs[15] = TEXT + fk_le32(data) % (TEXT_END - TEXT + 64);
    regs[14] = TEXT + fk_le32(data + 4) % (TEXT_END - TEXT + 64);
    regs[13] = EXTAB + fk_le32(data + 8) % 0x2000u;
    regs[11] = EXTAB + fk_le32(data + 12) % 0x2000u;
    const struct vmci *v = fk_kernel(kallsyms());
    FUZZ_CHECK(ksyms_ready(v), "the harness's kallsyms were refused");
    fake_output_reset();
    unwind_backtrace(regs, data[16] & 1);
    fk_check_text(fake_output(), fake_output_len(), 66); /* a header, 64 frames, the end */
    return 0;
}
