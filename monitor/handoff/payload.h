/* SPDX-License-Identifier: MIT */
/* The payload header that `make image` (scripts/mkimage.py) writes after fiqmon's image:
 * what to boot, where, and CRCs that let fiqmon refuse junk instead of jumping into it.
 * All fields little-endian 32-bit words. The data follows the header: image, then the
 * device tree (4-byte aligned), then the command line (NUL-terminated). */
#ifndef FIQMON_PAYLOAD_H
#define FIQMON_PAYLOAD_H

#include <stdint.h>

#define PAYLOAD_MAGIC       0x504d5146u /* "FQMP" */
#define PAYLOAD_VERSION     1u
#define PAYLOAD_HEADER_SIZE 64u
#define PAYLOAD_ALIGN       16u  /* the header starts at fiqmon's image size, rounded up */

enum payload_kind {
    PAYLOAD_BARE = 1,  /* jump to entry, r0-r3 = 0 */
    PAYLOAD_LINUX = 2, /* Linux ARM boot protocol: r0 = 0, r1 = machine, r2 = ATAGs or DTB */
};

struct payload_header {
    uint32_t magic;
    uint32_t version;
    uint32_t header_size;
    uint32_t kind;
    uint32_t load_addr;
    uint32_t entry;
    uint32_t image_size;
    uint32_t dtb_size;     /* 0: no device tree (Linux gets ATAGs) */
    uint32_t cmdline_size; /* including the NUL; 0: none */
    uint32_t data_crc;     /* CRC-32 of everything after the header */
    uint32_t reserved[5];
    uint32_t header_crc;   /* CRC-32 of the 60 bytes before it */
};

_Static_assert(sizeof(struct payload_header) == PAYLOAD_HEADER_SIZE, "payload header size");

/* Offsets of the parts after the header. */
static inline uint32_t payload_dtb_offset(const struct payload_header *h)
{
    return PAYLOAD_HEADER_SIZE + ((h->image_size + 3u) & ~3u);
}

static inline uint32_t payload_cmdline_offset(const struct payload_header *h)
{
    return payload_dtb_offset(h) + ((h->dtb_size + 3u) & ~3u);
}

static inline uint32_t payload_total_size(const struct payload_header *h)
{
    return payload_cmdline_offset(h) + h->cmdline_size;
}

#endif
