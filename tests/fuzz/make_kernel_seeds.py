#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Seed inputs for the kernel-introspection fuzz harnesses, in each harness's input format
(see the comment at the top of tests/fuzz/fuzz_<name>.c), built from the kernel's layouts:
a 6.1-style VMCOREINFO text, a small printk ring as the 6.1 writer leaves it, kallsyms
tables, an .ARM.exidx with every kind of entry. Synthetic: no kernel memory is copied.

    tests/fuzz/make_kernel_seeds.py      (re)writes tests/fuzz/corpus/fuzz_{vmcoreinfo,...}/
"""
import struct
from pathlib import Path

CORPUS = Path(__file__).resolve().parent / "corpus"
FK_BASE = 0xC0000000


def write(name, seed, data):
    d = CORPUS / f"fuzz_{name}"
    d.mkdir(parents=True, exist_ok=True)
    (d / seed).write_bytes(data)


def vmcoreinfo():
    text = (
        "OSRELEASE=6.1.0-57-armmp\nBUILD-ID=7fabb78ae97af51e834ff4fa2c129159a6490853\n"
        "PAGESIZE=4096\nSYMBOL(init_uts_ns)=c0000100\nOFFSET(uts_namespace.name)=0\n"
        "SYMBOL(swapper_pg_dir)=c0204000\nSYMBOL(_stext)=c0300000\nSIZE(page)=36\n"
        "SYMBOL(prb)=c142e878\nSIZE(printk_ringbuffer)=44\n"
        "OFFSET(printk_ringbuffer.desc_ring)=0\nOFFSET(printk_ringbuffer.text_data_ring)=24\n"
        "OFFSET(prb_desc_ring.count_bits)=0\nOFFSET(prb_desc_ring.descs)=4\n"
        "OFFSET(prb_desc_ring.infos)=8\nOFFSET(prb_desc_ring.head_id)=12\n"
        "OFFSET(prb_desc_ring.tail_id)=16\nSIZE(prb_desc)=12\nOFFSET(prb_desc.state_var)=0\n"
        "OFFSET(prb_desc.text_blk_lpos)=4\nOFFSET(prb_data_blk_lpos.begin)=0\n"
        "OFFSET(prb_data_blk_lpos.next)=4\nSIZE(printk_info)=88\nOFFSET(printk_info.seq)=0\n"
        "OFFSET(printk_info.ts_nsec)=8\nOFFSET(printk_info.text_len)=16\n"
        "OFFSET(prb_data_ring.size_bits)=0\nOFFSET(prb_data_ring.data)=4\n"
        "OFFSET(atomic_long_t.counter)=0\nNUMBER(PAGE_BUDDY_MAPCOUNT_VALUE)=-129\n"
        "SYMBOL(kallsyms_names)=c0f80578\nSYMBOL(kallsyms_num_syms)=c0f80574\n"
        "SYMBOL(kallsyms_token_table)=c102d9b8\nSYMBOL(kallsyms_token_index)=c102dcf8\n"
        "SYMBOL(kallsyms_offsets)=c0f53a38\nSYMBOL(kallsyms_relative_base)=c0f80570\n")
    write("vmcoreinfo", "debian-61-like", text.encode() + b"\0")
    write("vmcoreinfo", "cut-short", text.encode()[:700])
    write("vmcoreinfo", "odd-values", b"OSRELEASE=x y\nSYMBOL(prb)=zz\nSIZE(prb_desc)=99999999999\n"
          b"OSRELEASE=6.1\nSYMBOL(prb)=C0000000\nOSRELEASE=again\n\0")


def printk_rb():
    count_bits, size_bits = 3, 10
    count, size = 1 << count_bits, 1 << size_bits
    descs, infos, data = 0x400, 0x800, 0x1000          # region offsets
    region = bytearray(0x1400)
    desc0 = (-(count + 1)) & 0x3FFFFFFF
    lpos = (-size) & 0xFFFFFFFF
    # the bootstrap descriptor (the initial tail): reusable, no data, seq 0
    struct.pack_into("<III", region, descs + 12 * (count - 1), 3 << 30 | desc0, 1, 1)
    struct.pack_into("<Q", region, infos, (-count) & (2**64 - 1))
    texts = [b"Booting Linux on physical CPU 0x0", b"", b"two\nlines",
             b"Kernel panic - not syncing: VFS: Unable to mount root fs on unknown-block(0,0)",
             b"---[ end Kernel panic ]---"]
    ident = desc0
    for seq, t in enumerate(texts):
        ident = (ident + 1) & 0x3FFFFFFF
        i = ident & (count - 1)
        blk = (4 + len(t) + 3) & ~3
        begin, nxt = lpos, (lpos + blk) & 0xFFFFFFFF
        off = data + (begin & (size - 1))
        struct.pack_into("<I", region, off, ident)
        region[off + 4:off + 4 + len(t)] = t
        struct.pack_into("<III", region, descs + 12 * i, 2 << 30 | ident, begin, nxt)
        struct.pack_into("<QQH", region, infos + 88 * i, seq, 1000000 * (seq + 1), len(t))
        lpos = nxt
    ring = 0x10
    struct.pack_into("<II", region, ring + 12, ident, desc0)   # head_id, tail_id
    header = bytes([1, 19, descs >> 6, infos >> 6, data & 0xFF, data >> 8, count_bits,
                    size_bits - 3])
    write("printk_rb", "ring-of-five", header + bytes(region))
    corrupt = bytearray(region)
    struct.pack_into("<I", corrupt, data + 0x3C, 0x12345)      # record 3: a block id that lies
    write("printk_rb", "ring-corrupted", header + bytes(corrupt))


def kallsyms():
    syms = [(0xC0008000, "T_stext"), (0xC0008000, "Talias"), (0xC0008100, "tmount_block_root"),
            (0xC00082F4, "Tprepare_namespace"), (0xC0009000, "D_etext"),
            (0xC0010000, "T_einittext")]
    region = bytearray(0x1000)
    offsets, rbase, names = 0x200, 0x280, 0x300
    for i, (a, _) in enumerate(syms):
        struct.pack_into("<i", region, offsets + 4 * i, a - syms[0][0])
    struct.pack_into("<I", region, rbase, syms[0][0])
    p = names
    for _, n in syms:
        region[p] = len(n)
        region[p + 1:p + 1 + len(n)] = n.encode()
        p += 1 + len(n)
    markers = 0x100                                       # published (flag bit 0)
    struct.pack_into("<I", region, markers, 0)
    table, index = 0x600, 0x800
    for t in range(256):
        region[table + 2 * t] = t
        struct.pack_into("<H", region, index + 2 * t, 2 * t)
    hdr = struct.pack("<HHHHHHB", len(syms) - 1, offsets, rbase, names, table, index, 1)
    hdr += struct.pack("<II", 0x100 + 0x1EC, 0x2F4 + 8) + b"mount_bl"
    # the harness writes the symbol count itself; the region begins after the header
    write("kallsyms", "six-symbols", hdr + bytes(region))


def unwind():
    entries = [(0, 1), (4, 0x80B0B0B0), (8, 0x8001A9B0), (8, 0x809B8480), (4, 0x808000B0),
               (4, 0x80C801B0)]
    entries += [(2, 0x80B0B0B0)] * 12
    body = b""
    for space, word in entries:
        body += bytes([space]) + struct.pack("<I", word)
    stack = bytearray(0x200)
    for k in range(0, 0x200, 8):
        struct.pack_into("<II", stack, k, 0x44, FK_BASE + 0x1000 + 0x40)
    hdr = struct.pack("<IIII", 0x30, 0x44, 0x0, 0x20) + bytes([0, len(entries) - 8])
    write("unwind", "every-kind", hdr + body + bytes(stack))
    write("unwind", "every-kind-scan", hdr[:16] + bytes([1, len(entries) - 8]) + body + bytes(stack))


if __name__ == "__main__":
    vmcoreinfo()
    printk_rb()
    kallsyms()
    unwind()
