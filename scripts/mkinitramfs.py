#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A busybox initramfs with known processes and modules, for the task-list tests
(docs/tasks.md): Debian's busybox-static and three modules of the kernel package LINUX_DIR
came from (make linux), both of ARCH (armhf, the default, or arm64) and fetched with
apt-get download. Writes a gzipped newc cpio.

    mkinitramfs.py LINUX_DIR OUT.cpio.gz [armhf|arm64]

/init mounts proc, sys and devtmpfs, installs the applets, insmods three small modules
that need no others (crc7, crc8 and crc-itu-t; arm64 has crc8 built in: crc16), starts
sleepy1..3 (`sleep 1000` run through symlinks of those names: the kernel takes comm from
the file name, busybox its applet from argv[0]) and spinner (a shell spinning in
`while :; do :; done`), prints a ready line, and runs a shell on the console."""

import gzip
import subprocess
import sys
import tempfile
from pathlib import Path

MODULES = {"armhf": ("crc7", "crc8", "crc-itu-t"), "arm64": ("crc7", "crc16", "crc-itu-t")}
SLEEPERS = ("sleepy1", "sleepy2", "sleepy3")

INIT = """#!/bin/busybox sh
/bin/busybox mount -t proc proc /proc
/bin/busybox mount -t sysfs sysfs /sys
/bin/busybox mount -t devtmpfs devtmpfs /dev
/bin/busybox --install -s
for m in {modules}; do insmod /lib/modules/$m.ko; done
for s in {sleepers}; do (exec -a sleep /bin/$s 1000) & done
(exec -a sh /bin/spinner -c 'while :; do :; done') &
echo fiqmon-initramfs-ready
exec setsid cttyhack sh -l
"""


def download(pkg, work):
    into = Path(work) / pkg.split(":")[0]
    into.mkdir()
    subprocess.run(["apt-get", "download", pkg], cwd=into, check=True,
                   stdout=subprocess.DEVNULL)
    deb = next(into.glob("*.deb"))
    root = into / "root"
    subprocess.run(["dpkg-deb", "-x", str(deb), str(root)], check=True)
    return root


class Cpio:
    """newc ("070701") entries, every field 8 hex digits, names and data 4-aligned."""

    def __init__(self):
        self.out = bytearray()
        self.ino = 1

    def add(self, name, mode, data=b"", rdev=(0, 0)):
        fields = [self.ino, mode, 0, 0, 1, 0, len(data), 0, 0, rdev[0], rdev[1],
                  len(name) + 1, 0]
        self.ino += 1
        self.out += b"070701" + b"".join(b"%08x" % f for f in fields) + name.encode() + b"\0"
        self.out += b"\0" * (-len(self.out) % 4)
        self.out += data + b"\0" * (-len(data) % 4)

    def finish(self):
        self.add("TRAILER!!!", 0)
        return bytes(self.out)


def main():
    linux_dir, out = Path(sys.argv[1]), Path(sys.argv[2])
    arch = sys.argv[3] if len(sys.argv) > 3 else "armhf"
    if arch not in ("armhf", "arm64"):
        sys.exit(f"mkinitramfs.py: no initramfs for '{arch}' (armhf or arm64)")
    fields = (linux_dir / "version").read_text().split()
    pkg, version = fields[1], fields[3]  # "Package: NAME Version: V"
    with tempfile.TemporaryDirectory() as work:
        bb = download(f"busybox-static:{arch}", work)
        kernel = download(f"{pkg}:{arch}={version}", work)
        c = Cpio()
        for d in ("bin", "sbin", "usr", "usr/bin", "usr/sbin", "dev", "proc", "sys", "tmp", "lib",
                  "lib/modules"):
            c.add(d, 0o40755)
        c.add("dev/console", 0o20600, rdev=(5, 1))
        c.add("bin/busybox", 0o100755, (bb / "bin/busybox").read_bytes())
        for s in SLEEPERS + ("spinner",):
            c.add(f"bin/{s}", 0o120777, b"busybox")
        for m in MODULES[arch]:
            ko = next(kernel.glob(f"lib/modules/*/kernel/lib/{m}.ko*"))
            data = ko.read_bytes()
            if ko.suffix == ".xz":  # busybox insmod takes plain .ko files only
                data = subprocess.run(["xz", "-dc", str(ko)], check=True,
                                      capture_output=True).stdout
            c.add(f"lib/modules/{m}.ko", 0o100644, data)
        init = INIT.format(modules=" ".join(MODULES[arch]), sleepers=" ".join(SLEEPERS))
        c.add("init", 0o100755, init.encode())
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_suffix(".tmp")
        tmp.write_bytes(gzip.compress(c.finish(), 9))
        tmp.rename(out)
    print(f"fiqmon: {out} ({out.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
