/* SPDX-License-Identifier: MIT */
#include "kernel_support.h"

#include <stdio.h>
#include <string.h>

#include "fake_port.h"
#include "support.h"

#define VMCI_PA (FAKE_RAM_BASE + 0x1000u)

void fk_reset(void)
{
    fake_port_reset();
    kernel_vmcoreinfo_forget();
    fake_mem_map(FK_BASE, FK_SIZE);
}

void fk_fill(const uint8_t *data, size_t len)
{
    if (len > FK_DATA_MAX)
        len = FK_DATA_MAX;
    if (len)
        fake_mem_write(FK_BASE, data, len);
}

void fk_w32(uint32_t addr, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};

    fake_mem_write(addr, b, 4);
}

uint32_t fk_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

const struct vmci *fk_kernel(const char *lines)
{
    static char text[4096];
    const struct vmci *v;
    int n = snprintf(text, sizeof(text),
                     "OSRELEASE=6.1.0-fuzz\nPAGESIZE=4096\n"
                     "SYMBOL(init_uts_ns)=%x\n%s",
                     FK_UTS, lines);

    FUZZ_CHECK(n > 0 && (size_t)n < sizeof(text), "VMCOREINFO text too long");
    memset(fake_mem(VMCI_PA), 0, 4096);
    fake_mem_write(VMCI_PA, text, (size_t)n + 1);
    memset(fake_mem(FK_UTS), 0, 6 * 65);
    fake_mem_write(FK_UTS + 130, "6.1.0-fuzz", 10);
    fake_mem_write(FK_UTS + 195, "#1 fuzz", 7);
    v = kernel_vmcoreinfo(true);
    FUZZ_CHECK(v != NULL, "the harness's kernel was not found");
    return v;
}

unsigned fk_check_text(const char *out, size_t len, unsigned max_lines)
{
    unsigned lines = 0;

    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)out[i];
        if (c == '\n') {
            FUZZ_CHECK(i > 0 && out[i - 1] == '\r', "LF without CR at %zu", i);
            lines++;
        } else if (c == '\r') {
            FUZZ_CHECK(i + 1 < len && out[i + 1] == '\n', "CR without LF at %zu", i);
        } else {
            FUZZ_CHECK((c >= 0x20 && c < 0x7f) || c == '\t', "byte 0x%02x in the output at %zu", c,
                       i);
        }
    }
    FUZZ_CHECK(lines <= max_lines, "%u lines (at most %u expected)", lines, max_lines);
    return lines;
}
