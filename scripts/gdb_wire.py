# SPDX-License-Identifier: MIT
"""GDB at the wire's limit: 256 KiB `dump binary memory` of three regions of Debian's
kernel on virt, through fiqmon's stub (with the serial traffic counted) and through QEMU's
own gdbstub (the reference). Shared by scripts/bench_gdb.py and tests/qemu/test_gdb_wire.py.

Regions (kernel virtual addresses; found with fiqmon's shell before GDB connects):
  kernel-text  from _stext (kallsyms)
  kernel-data  from init_task, whose address show_state_filter builds with movw/movt
  zeroed       free RAM high in the linear map, checked to be all zero
QEMU's stub reads the same ranges physically (Qqemu.PhyMemMode:1): Debian's armmp kernel
maps its lowmem at 0xc0000000 = RAM's 0x40000000, so PA = VA - LINEAR_OFFSET."""

import os
import re
import select
import socket
import subprocess
import threading
import time
from pathlib import Path

REGION = 256 * 1024
LINEAR_OFFSET = 0xC0000000 - 0x40000000
ZERO_CANDIDATES = (0xE0000000, 0xE8000000, 0xD8000000, 0xD0000000)
REGION_NAMES = ("kernel-text", "kernel-data", "zeroed")


def md_words(md_output):
    return [int(w, 16) for row in md_output.splitlines() if ":" in row
            for w in row.split(":")[1].split("  ")[0].split()]


def movw_movt_targets(words):
    low, found = {}, []
    for w in words:
        rd = (w >> 12) & 0xF
        imm = ((w >> 4) & 0xF000) | (w & 0xFFF)
        if w & 0x0FF00000 == 0x03000000:             # movw rd, #imm
            low[rd] = imm
        elif w & 0x0FF00000 == 0x03400000 and rd in low:   # movt rd, #imm
            found.append(imm << 16 | low[rd])
    return found


def find_regions(cmd):
    """cmd(line) -> output of a fiqmon shell command. Returns {name: virtual address}."""
    m = re.search(r"^([0-9a-f]{8}) _stext\+", cmd("sym _stext"), re.M)
    assert m, "no _stext in the kernel's kallsyms"
    text = int(m.group(1), 16)
    m = re.search(r"^([0-9a-f]{8}) show_state_filter\+0x0/0x([0-9a-f]+)",
                  cmd("sym show_state_filter"), re.M)
    assert m, "no show_state_filter in kallsyms"
    start, size = int(m.group(1), 16), int(m.group(2), 16)
    data = None
    for addr in movw_movt_targets(md_words(cmd(f"md {start:x} {min(size, 0x400):x}"))):
        # init_task: in the kernel's image, "swapper" (its comm) within its first 2 KiB
        if 0xC0000000 <= addr < 0xD0000000 and "swapper" in cmd(f"md {addr:x} 800 b"):
            data = addr & ~0xFFF
            break
    assert data, "no movw/movt pair in show_state_filter loads init_task"
    zero = None
    for va in ZERO_CANDIDATES:
        # a first look (the dumps are checked whole); md shows "fiqmon: ..." on a fault
        if all(w == 0 for w in md_words(cmd(f"md {va:x} 100"))) and "error" not in cmd(f"md {va:x} 4"):
            zero = va
            break
    assert zero, "no zeroed RAM at any candidate address"
    return {"kernel-text": text, "kernel-data": data, "zeroed": zero}


class Relay:
    """GDB <-> fiqmon's debug socket, counting the bytes each way: the serial line's own
    traffic (what a 115200-baud wire would carry), both directions."""

    def __init__(self, listen_path, target_path):
        self.listen_path = Path(listen_path)
        self.listen_path.unlink(missing_ok=True)
        self.server = socket.socket(socket.AF_UNIX)
        self.server.bind(str(self.listen_path))
        self.server.listen(1)
        self.target_path = target_path
        self.to_target = self.from_target = 0
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        client, _ = self.server.accept()
        target = socket.socket(socket.AF_UNIX)
        target.connect(str(self.target_path))
        peers = {client: target, target: client}
        try:
            while True:
                for s in select.select(list(peers), [], [])[0]:
                    data = s.recv(65536)
                    if not data:
                        return
                    peers[s].sendall(data)
                    with self.lock:
                        if s is client:
                            self.to_target += len(data)
                        else:
                            self.from_target += len(data)
        except OSError:
            return
        finally:
            client.close()
            target.close()

    def counts(self):
        with self.lock:
            return self.to_target, self.from_target

    def close(self):
        self.server.close()
        self.listen_path.unlink(missing_ok=True)


class Gdb:
    """An interactive gdb-multiarch on pipes; cmd() waits for a marker GDB echoes after the
    command (output, not time)."""

    def __init__(self, target, setup=()):
        self.proc = subprocess.Popen(
            ["gdb-multiarch", "-q", "-nx", "-ex", "set confirm off", "-ex", "set pagination off",
             "-ex", "set architecture arm", "-ex", "set remotetimeout 30"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self.n = 0
        for c in setup:
            self.cmd(c)
        self.cmd(f"target remote {target}", timeout=60)

    def cmd(self, line, timeout=300):
        self.n += 1
        marker = f"gdb-wire-mark-{self.n}"
        self.proc.stdin.write(f"{line}\necho {marker}\\n\n".encode())
        self.proc.stdin.flush()
        got, deadline = b"", time.monotonic() + timeout
        while marker.encode() + b"\n" not in got:
            left = deadline - time.monotonic()
            assert left > 0, f"GDB: no answer to {line!r} within {timeout} s: {got[-2000:]!r}"
            if select.select([self.proc.stdout], [], [], left)[0]:
                chunk = os.read(self.proc.stdout.fileno(), 65536)
                assert chunk, f"GDB exited during {line!r}: {got[-2000:]!r}"
                got += chunk
        return got.decode(errors="replace")

    def close(self):
        """Detach (the kernel runs on) and quit."""
        try:
            self.proc.stdin.write(b"detach\nquit\n")
            self.proc.stdin.flush()
            self.proc.communicate(timeout=30)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()


def dump(gdb, va, out):
    """dump binary memory of one region; fails loudly unless the whole file arrived."""
    out = Path(out)
    out.unlink(missing_ok=True)
    said = gdb.cmd(f"dump binary memory {out} 0x{va:x} 0x{va + REGION:x}")
    assert out.exists() and out.stat().st_size == REGION, f"dump at {va:#x} failed: {said}"
    return out.read_bytes()


def qemu_dumps(qemu_gdb_sock, regions, workdir):
    """The same ranges through QEMU's gdbstub, physically. It stops the whole machine while
    attached; detaching resumes it. Returns {name: bytes}."""
    workdir = Path(workdir)
    args = ["gdb-multiarch", "-q", "-nx", "-batch", "-ex", "set confirm off",
            "-ex", "set architecture arm", "-ex", f"target remote {qemu_gdb_sock}",
            "-ex", "maintenance packet Qqemu.PhyMemMode:1"]
    files = {}
    for name, va in regions.items():
        files[name] = workdir / f"qemu-{name}.bin"
        files[name].unlink(missing_ok=True)
        pa = va - LINEAR_OFFSET
        args += ["-ex", f"dump binary memory {files[name]} 0x{pa:x} 0x{pa + REGION:x}"]
    args += ["-ex", "detach"]
    res = subprocess.run(args, capture_output=True, text=True, timeout=300)
    out = {}
    for name, f in files.items():
        assert f.exists() and f.stat().st_size == REGION, \
            f"QEMU's gdbstub dump of {name} failed:\n{res.stdout}{res.stderr}"
        out[name] = f.read_bytes()
    return out
