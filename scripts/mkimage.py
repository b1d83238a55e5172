#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Build a "flashed ahead of the kernel" image: fiqmon, then a payload header, then the
kernel (and optionally a device tree and a command line). The header layout is
monitor/payload.h; fiqmon checks both CRCs before it boots anything.

    mkimage.py --fiqmon fiqmon.bin --kernel FILE [--dtb FILE] [--cmdline TEXT]
               [--kind bare|linux] [--load ADDR] [--entry ADDR] --linux-load ADDR -o OUT

An ELF kernel (32- or 64-bit, little-endian) is laid out from its program headers (kind
bare unless --kind linux; every address must fit the header's 32 bits);
any other file is a Linux image (zImage/Image) loaded at --load or --linux-load."""

import argparse
import struct
import sys
import zlib

MAGIC = 0x504D5146
VERSION = 1
HEADER_SIZE = 64
ALIGN = 16
KINDS = {"bare": 1, "linux": 2}


# ELF class -> (format of e_entry and e_phoff at 0x18, offset of e_phentsize and e_phnum,
# format of a program header, where p_type, p_offset, p_paddr, p_filesz, p_memsz are in it)
ELF_CLASSES = {
    1: ("<II", 0x2A, "<IIIIII", (0, 1, 3, 4, 5)),      # ELFCLASS32
    2: ("<QQ", 0x36, "<IIQQQQQ", (0, 2, 4, 5, 6)),     # ELFCLASS64 (p_flags second)
}


def elf_segments(data):
    """(entry, [(paddr, file bytes, memsz)]) of a little-endian ELF, 32- or 64-bit."""
    if data[4] not in ELF_CLASSES or data[5] != 1:
        sys.exit("mkimage: only little-endian 32- or 64-bit ELF kernels")
    entry_fmt, phnum_at, phdr_fmt, picks = ELF_CLASSES[data[4]]
    e_entry, e_phoff = struct.unpack_from(entry_fmt, data, 0x18)
    e_phentsize, e_phnum = struct.unpack_from("<HH", data, phnum_at)
    segs = []
    for i in range(e_phnum):
        phdr = struct.unpack_from(phdr_fmt, data, e_phoff + i * e_phentsize)
        p_type, p_offset, p_paddr, p_filesz, p_memsz = (phdr[k] for k in picks)
        if p_type == 1 and p_memsz:
            segs.append((p_paddr, data[p_offset:p_offset + p_filesz], p_memsz))
    return e_entry, segs


def elf_image(data):
    if data[:4] != b"\x7fELF":
        return None
    entry, segs = elf_segments(data)
    if not segs:
        sys.exit("mkimage: ELF has no loadable segment")
    base = min(s[0] for s in segs)
    end = max(s[0] + s[2] for s in segs)   # bss included: the payload copy zero-fills it
    # the payload header has 32-bit addresses (monitor/handoff/payload.h)
    if end > 1 << 32 or entry >= 1 << 32:
        sys.exit(f"mkimage: ELF loads or enters above 4 GiB (0x{base:x}-0x{end:x}, "
                 f"entry 0x{entry:x}); the payload header's addresses are 32-bit")
    image = bytearray(end - base)
    for paddr, body, _ in segs:
        image[paddr - base:paddr - base + len(body)] = body
    return bytes(image), base, entry


def read(path, what):
    """The whole file, or one clear line and exit 2 (no traceback for a missing file)."""
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        sys.stderr.write(f"mkimage: cannot read the {what} {path}: {e.strerror}\n")
        sys.exit(2)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fiqmon", required=True)
    ap.add_argument("--kernel", required=True)
    ap.add_argument("--dtb")
    ap.add_argument("--cmdline")
    ap.add_argument("--kind", choices=KINDS)
    ap.add_argument("--load", type=lambda s: int(s, 0))
    ap.add_argument("--entry", type=lambda s: int(s, 0))
    ap.add_argument("--linux-load", type=lambda s: int(s, 0), required=True)
    ap.add_argument("-o", "--out", required=True)
    a = ap.parse_args()

    fiqmon = read(a.fiqmon, "fiqmon image")
    kernel = read(a.kernel, "kernel")
    elf = elf_image(kernel)
    if elf:
        image, load, entry = elf
        kind = a.kind or "bare"
    else:
        image, load, entry = kernel, a.linux_load, None
        kind = a.kind or "linux"
    load = a.load if a.load is not None else load
    entry = a.entry if a.entry is not None else (entry if entry is not None else load)
    dtb = read(a.dtb, "device tree") if a.dtb else b""
    cmdline = (a.cmdline.encode() + b"\0") if a.cmdline else b""
    if cmdline and dtb:
        sys.exit("mkimage: with a device tree, put the command line in its /chosen bootargs")

    def pad4(b):
        return b + b"\0" * (-len(b) % 4)

    data = pad4(image) + pad4(dtb) + cmdline
    fields = [MAGIC, VERSION, HEADER_SIZE, KINDS[kind], load, entry, len(image), len(dtb),
              len(cmdline), zlib.crc32(data), 0, 0, 0, 0, 0]
    header = struct.pack("<15I", *fields)
    header += struct.pack("<I", zlib.crc32(header))
    out = fiqmon + b"\0" * (-len(fiqmon) % ALIGN) + header + data
    try:
        with open(a.out, "wb") as f:
            f.write(out)
    except OSError as e:
        sys.stderr.write(f"mkimage: cannot write {a.out}: {e.strerror}\n")
        sys.exit(2)
    print(f"mkimage: {a.out}: fiqmon {len(fiqmon)} bytes + {kind} payload {len(image)} bytes "
          f"(load 0x{load:08x}, entry 0x{entry:08x}"
          + (f", dtb {len(dtb)} bytes" if dtb else "")
          + (f", cmdline {a.cmdline!r}" if cmdline else "") + ")")


if __name__ == "__main__":
    main()
