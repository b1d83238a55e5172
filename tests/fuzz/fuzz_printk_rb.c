/* SPDX-License-Identifier: MIT */
/* libFuzzer harness for the printk ring buffer decoder: a ring whose every byte comes
 * from the input (header, descriptors, infos, text data), with the 6.1 offsets published.
 * The decoder must not fault, loop or print more than the records asked for; its output is
 * dmesg lines, record marks, or exactly one error line.
 *
 * Input: byte 0 flags (bit 0: point the ring's pointers into the region, so the fuzzer
 * need not guess addresses), byte 1 how many records to show (1-256), bytes 2-7 the
 * pointer targets (16-bit offsets) and bits, then the region's bytes from FK_BASE. */
#include <string.h>

#include "fake_port.h"
#include "kernel_support.h"
#include "printk_rb.h"
#include "support.h"

#define RING (FK_BASE + 0x10u)
#define HEADER 8u

static const char layout[] =
    "SYMBOL(prb)=c0000000\n"
    "OFFSET(printk_ringbuffer.desc_ring)=0\nOFFSET(printk_ringbuffer.text_data_ring)=24\n"
    "OFFSET(prb_desc_ring.count_bits)=0\nOFFSET(prb_desc_ring.descs)=4\n"
    "OFFSET(prb_desc_ring.infos)=8\nOFFSET(prb_desc_ring.head_id)=12\n"
    "OFFSET(prb_desc_ring.tail_id)=16\nSIZE(prb_desc)=12\nOFFSET(prb_desc.state_var)=0\n"
    "OFFSET(prb_desc.text_blk_lpos)=4\nOFFSET(prb_data_blk_lpos.begin)=0\n"
    "OFFSET(prb_data_blk_lpos.next)=4\nSIZE(printk_info)=88\nOFFSET(printk_info.seq)=0\n"
    "OFFSET(printk_info.ts_nsec)=8\nOFFSET(printk_info.text_len)=16\n"
    "OFFSET(prb_data_ring.size_bits)=0\nOFFSET(prb_data_ring.data)=4\n"
    "OFFSET(atomic_long_t.counter)=0\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint32_t n;
    int rc;

    if (size < HEADER)
        return 0;
    fk_reset();
    fk_fill(data + HEADER, size - HEADER);
    n = 1u + data[1];
    if (data[0] & 1) {
        fk_w32(FK_BASE, RING);
        fk_w32(RING + 0, data[6] & 7);                        /* count_bits */
        fk_w32(RING + 4, FK_BASE + ((uint32_t)data[2] << 6)); /* descs */
        fk_w32(RING + 8, FK_BASE + ((uint32_t)data[3] << 6)); /* infos */
        fk_w32(RING + 24, 3u + (data[7] & 7));                /* size_bits */
        fk_w32(RING + 28, FK_BASE + ((uint32_t)(data[4] | data[5] << 8) & 0xfff0u)); /* data */
    }
    const struct vmci *v = fk_kernel(layout);
    fake_output_reset();
    rc = printk_rb_show(v, n);
    FUZZ_CHECK(rc == 0 || rc == -1, "returned %d", rc);
    const char *out = fake_output();
    size_t len = fake_output_len();
    /* printable lines; a record's text has at most as many lines as the region bytes */
    fk_check_text(out, len, n * (FK_SIZE + 2));
    if (rc) { /* one error line, the last */
        const char *err = strstr(out, "error: ");
        FUZZ_CHECK(err && strchr(err, '\n') == out + len - 1, "error is not the last line");
    }
    FUZZ_CHECK(fake.space == PORT_MEM_VIRTUAL, "left in memory space %d", (int)fake.space);
    return 0;
}
