# SPDX-License-Identifier: MIT
"""GDB through fiqmon's stub.

wire(): what a user waits for on a real wire. `dump binary memory` of 256 KiB of Debian's
kernel text, kernel data and zeroed RAM (scripts/gdb_wire.py) on virt, through a relay that
counts the serial traffic both ways: wire bytes per payload byte, seconds at 115200 baud
(11,520 bytes/s), and instructions per payload byte from QEMU's exec log (one instruction
per block, switched on at run time through QMP around a dump of its own): every
instruction from the entry of the stub's byte handler to its return, i.e. parsing, memory
reads, hex, run-length encoding, checksum and the UART writes; the session loop's polling
of the receiver, whose count depends on how fast the host sends, is not counted. Every
dump must equal QEMU's gdbstub's read of the same range.

The old wall-clock comparison with QEMU's gdbstub measured QEMU's PL011 emulation more than
fiqmon and is gone."""

import json
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import gdb_wire

ROOT = Path(__file__).resolve().parents[1]
# --- the wire's limit (issue 21) ------------------------------------------------------------

LINE_RATE = 11520                 # bytes/s of a 115200 8N1 UART
TRACED_QUICK = 16 * 1024          # bench-quick traces this much of each region


class Qmp:
    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX)
        self.sock.connect(str(path))
        self.f = self.sock.makefile("rwb")
        json.loads(self.f.readline())                      # greeting
        self.call("qmp_capabilities")

    def call(self, execute, **args):
        self.f.write(json.dumps({"execute": execute, "arguments": args}).encode() + b"\n")
        self.f.flush()
        while True:
            r = json.loads(self.f.readline())
            if "return" in r or "error" in r:
                assert "error" not in r, r
                return r["return"]

    def hmp(self, line):
        out = self.call("human-monitor-command", **{"command-line": line})
        assert not out.strip(), f"HMP {line!r}: {out}"

    def close(self):
        self.sock.close()


def instruction_sizes(elf):
    """{address: bytes} of every instruction objdump shows in the ELF."""
    sizes = {}
    for line in sh_out("arm-none-eabi-objdump", "-d", str(elf)).splitlines():
        parts = line.split("\t")
        if len(parts) >= 3 and re.fullmatch(r"\s*[0-9a-f]+:", parts[0]):
            words = parts[1].split()
            if words and all(re.fullmatch(r"[0-9a-f]{4}|[0-9a-f]{8}", w) for w in words):
                sizes[int(parts[0].strip()[:-1], 16)] = sum(len(w) // 2 for w in words)
    return sizes


def sh_out(*args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


class FeedCounter:
    """Reads an exec log and counts the instructions inside the byte handler: from its
    entry to the instruction after the call that entered it."""

    def __init__(self, fifo, entry, sizes):
        self.fifo, self.entry, self.sizes = fifo, entry, sizes
        self.count = self.calls = 0
        self.callers = set()

    def run(self):
        ret, prev = None, None
        with open(self.fifo, "rb") as f:
            for line in f:
                parts = line.split(b"/", 2)
                if len(parts) < 3:
                    continue
                pc = int(parts[1], 16)
                if ret is None:
                    if pc == self.entry and prev is not None:
                        ret = prev + self.sizes[prev]
                        self.callers.add(prev)
                        self.calls += 1
                        self.count += 1
                elif pc == ret:
                    ret = None
                else:
                    self.count += 1
                prev = pc


def wire(build_dir, work, quick=False):
    """build_dir: a virt build (BOOT_DELAY_MS=0). Returns {region: figures}."""
    sys.path.insert(0, str(ROOT / "tests/qemu"))
    import harness
    work = Path(work)
    work.mkdir(parents=True, exist_ok=True)
    qgdb, qmp_path = work / "qemu-gdb.sock", work / "qmp.sock"
    for p in (qgdb, qmp_path):
        p.unlink(missing_ok=True)
    elf = build_dir / "fiqmon.elf"
    syms = {}
    for line in sh_out("arm-none-eabi-nm", str(elf)).splitlines():
        parts = line.split()
        if len(parts) == 3:
            syms[parts[2]] = int(parts[0], 16)
    entry = [a for n, a in syms.items() if n == "gdb_stub_feed" or n.startswith("feed.")]
    assert len(entry) == 1, f"the stub's byte handler in {elf}: {entry}"
    sizes = instruction_sizes(elf)
    fm = harness.Fiqmon(work / "q", {"PLATFORM": "virt", "BUILD": str(build_dir.relative_to(ROOT)),
                                     "BOOT_DELAY_MS": "0", "KERNEL": "debian"},
                        qemu_extra=f"-gdb unix:{qgdb},server=on,wait=off "
                                   f"-qmp unix:{qmp_path},server=on,wait=off "
                                   "-dfilter 0x0e000000..0x0effffff", gdb=True)
    relay = gdb = qmp = None
    try:
        fm.console.expect(r"Kernel panic - not syncing", timeout=120)
        fm.attach_debug()
        fm.knock()
        regions = gdb_wire.find_regions(lambda line: fm.cmd(line, timeout=30))
        fm.leave()
        fm.debug.close()
        relay = gdb_wire.Relay(work / "relay.sock", fm.debug_path)
        gdb = gdb_wire.Gdb(relay.listen_path)
        qmp = Qmp(qmp_path)
        results, ours = {}, {}
        for name, va in regions.items():
            before = relay.counts()
            ours[name] = gdb_wire.dump(gdb, va, work / f"fiqmon-{name}.bin")
            to_t, from_t = (b - a for a, b in zip(before, relay.counts()))
            # the same dump again, with every instruction logged
            traced = TRACED_QUICK if quick else gdb_wire.REGION
            fifo = work / f"exec-{name}.log"
            fifo.unlink(missing_ok=True)
            counter = FeedCounter(fifo, entry[0], sizes)
            qmp.hmp("singlestep on")
            qmp.hmp(f"logfile {fifo}")
            qmp.hmp("log exec,nochain")
            out = work / f"traced-{name}.bin"
            out.unlink(missing_ok=True)
            gdb.cmd(f"dump binary memory {out} 0x{va:x} 0x{va + traced:x}")
            # a new log file while logging is on closes (and flushes) the old one
            qmp.hmp("logfile /dev/null")
            qmp.hmp("log none")
            qmp.hmp("singlestep off")
            size, deadline = -1, time.monotonic() + 60
            while fifo.stat().st_size != size and time.monotonic() < deadline:
                size = fifo.stat().st_size
                time.sleep(0.5)   # until the log file stops growing (the close is deferred)
            counter.run()
            fifo.unlink()
            assert out.read_bytes() == ours[name][:traced], f"traced dump of {name} differs"
            assert counter.calls > 0, "no call of the byte handler in the exec log"
            assert len(counter.callers) == 1, f"byte handler called from {counter.callers}"
            total = to_t + from_t
            results[name] = {
                "address": f"0x{va:08x}", "bytes": gdb_wire.REGION,
                "wire_bytes": total, "wire_to_target": to_t, "wire_from_target": from_t,
                "wire_per_byte": total / gdb_wire.REGION,
                "seconds_at_115200": total / LINE_RATE,
                "instructions_per_byte": counter.count / traced,
                "instructions_traced_bytes": traced,
            }
        theirs = gdb_wire.qemu_dumps(qgdb, regions, work)   # the kernel still held
        for name in regions:
            if ours[name] != theirs[name]:
                raise RuntimeError(f"fiqmon's dump of {name} differs from QEMU's gdbstub's")
            results[name]["identical_to_qemu_gdbstub"] = True
        if set(ours["zeroed"]) != {0}:
            raise RuntimeError("the 'zeroed' region is not all zero")
        return results
    finally:
        if qmp:
            qmp.close()
        if gdb:
            gdb.close()
        if relay:
            relay.close()
        fm.close()
