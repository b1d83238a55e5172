/* SPDX-License-Identifier: MIT */
#include "memdump.h"

#include "console.h"
#include "platform.h"

unsigned memdump_width(const char *s)
{
    if (s[0] && !s[1]) {
        switch (s[0]) {
        case 'b':
            return 1;
        case 'h':
            return 2;
        case 'w':
            return 4;
        }
    }
    return 0;
}

static char printable(uint8_t c)
{
    return c >= 0x20 && c < 0x7f ? (char)c : '.';
}

int memdump(target_addr_t addr, uint32_t len, unsigned width, memdump_read_fn read)
{
    len = (len + width - 1) & ~(width - 1);
    while (len) {
        uint8_t bytes[MEMDUMP_ROW_BYTES];
        uint32_t row = len < MEMDUMP_ROW_BYTES ? len : MEMDUMP_ROW_BYTES;
        char line[TARGET_ADDR_DIGITS + 1 + MEMDUMP_ROW_BYTES * 3 + 2 + MEMDUMP_ROW_BYTES + 2];
        char *p = line;
        static const char hex[] = "0123456789abcdef";

        /* read the whole row first, so a fault prints no half row */
        for (uint32_t i = 0; i < row; i += width) {
            uint32_t v;
            if (!read(addr + i, width, &v))
                return con_error("fault at 0x" TARGET_ADDR_FMT, (unsigned long)(addr + i));
            for (unsigned b = 0; b < width; b++)
                bytes[i + b] = (uint8_t)(v >> (8 * b)); /* little-endian memory order */
        }
        for (int s = 4 * TARGET_ADDR_DIGITS - 4; s >= 0; s -= 4)
            *p++ = hex[(addr >> s) & 0xf];
        *p++ = ':';
        for (uint32_t i = 0; i < MEMDUMP_ROW_BYTES; i += width) {
            *p++ = ' ';
            for (int b = (int)width - 1; b >= 0; b--) {
                if (i < row) {
                    *p++ = hex[bytes[i + (unsigned)b] >> 4];
                    *p++ = hex[bytes[i + (unsigned)b] & 0xf];
                } else {
                    *p++ = ' ';
                    *p++ = ' ';
                }
            }
        }
        *p++ = ' ';
        *p++ = ' ';
        for (uint32_t i = 0; i < row; i++)
            *p++ = printable(bytes[i]);
        *p++ = '\n';
        con_write(line, (size_t)(p - line));
        addr += row;
        len -= row;
    }
    return 0;
}
