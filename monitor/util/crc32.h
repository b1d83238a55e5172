/* SPDX-License-Identifier: MIT */
/* CRC-32 (IEEE 802.3, reflected, as zlib's crc32), bitwise: small, and only run at boot. */
#ifndef FIQMON_CRC32_H
#define FIQMON_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* crc32_update(0, ...) starts; feed chunks with the previous result. */
uint32_t crc32_update(uint32_t crc, const uint8_t *data, size_t len);

#endif
