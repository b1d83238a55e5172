# SPDX-License-Identifier: MIT
"""GDB throughput: `dump binary memory` of the same range through fiqmon's stub (on the
debug UART) and through QEMU's own gdbstub, in one QEMU run (versatilepb, the `spin`
guest as payload). Both rates are wall-clock and measured back to back on the same host,
so only their ratio is comparable between hosts."""

import re
import statistics
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASE = 0x00200000                 # the guest's image and the RAM after it
QEMU_VERSATILEPB = ["qemu-system-arm", "-M", "versatilepb", "-cpu", "arm926", "-m", "128M",
                    "-global", "pl041.audiodev=snd0", "-audiodev", "none,id=snd0",
                    "-nographic", "-nic", "none", "-monitor", "none"]


def wait_for_file_text(path, pattern, proc, timeout=30):
    deadline = time.monotonic() + timeout
    while not (path.exists() and re.search(pattern, path.read_bytes())):
        if proc.poll() is not None:
            raise RuntimeError(f"QEMU exited {proc.returncode}")
        if time.monotonic() > deadline:
            raise TimeoutError(f"no {pattern!r} in {path} within {timeout} s")
        time.sleep(0.02)   # polling a file for output, bounded by the deadline


def wait_for_socket(path, proc, timeout=30):
    deadline = time.monotonic() + timeout
    while not path.exists():
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"QEMU did not create {path}")
        time.sleep(0.02)


def gdb_dump(target, elf, out, size, timeout):
    """Seconds the dump itself takes, timed inside GDB (connection set-up excluded)."""
    args = ["gdb-multiarch", "-q", "-nx", "-batch", "-ex", "set confirm off",
            "-ex", "set remotetimeout 30", "-ex", f"target remote {target}",
            "-ex", "python import time; t0 = time.monotonic()",
            "-ex", f"dump binary memory {out} 0x{BASE:x} 0x{BASE + size:x}",
            "-ex", "python print('bench-elapsed %.6f' % (time.monotonic() - t0))",
            "-ex", "detach", str(elf)]
    res = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
    m = re.search(r"bench-elapsed ([0-9.]+)", res.stdout)
    if not m or not out.exists() or out.stat().st_size != size:
        raise RuntimeError(f"gdb dump through {target} failed:\n{res.stdout}{res.stderr}")
    return float(m.group(1))


def gdb_throughput(image, elf, work, size, pairs=1):
    """image: fiqmon + the spin guest (make image); `pairs` back-to-back dumps through
    each stub. Returns median rates in bytes/s and the median of the pairs' ratios."""
    work.mkdir(parents=True, exist_ok=True)
    debug, qgdb, console = work / "debug.sock", work / "qemu-gdb.sock", work / "console.txt"
    for p in (debug, qgdb, console):
        p.unlink(missing_ok=True)
    args = [*QEMU_VERSATILEPB, "-serial", f"unix:{debug},server=on,wait=off",
            "-serial", f"file:{console}",
            "-device", f"loader,file={image},addr=0x10000,force-raw=on",
            "-device", "loader,addr=0x10000,cpu-num=0",
            "-gdb", f"unix:{qgdb},server=on,wait=off"]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_file_text(console, rb"guest spin: entering spin_forever", proc)
        wait_for_socket(debug, proc)
        wait_for_socket(qgdb, proc)
        fiq_out, qemu_out = work / "fiqmon.dump", work / "qemu.dump"
        t_fiq, t_qemu = [], []
        for _ in range(pairs):
            for p in (fiq_out, qemu_out):
                p.unlink(missing_ok=True)
            # fiqmon first: QEMU's stub stops the whole machine (detach resumes it)
            t_fiq.append(gdb_dump(debug, elf, fiq_out, size, timeout=600))
            t_qemu.append(gdb_dump(qgdb, elf, qemu_out, size, timeout=120))
            if fiq_out.read_bytes() != qemu_out.read_bytes():
                raise RuntimeError("fiqmon's and QEMU's dumps of the same memory differ")
    finally:
        proc.terminate()
        proc.wait()
    return {"bytes": size, "pairs": pairs,
            "fiqmon_bytes_per_s": size / statistics.median(t_fiq),
            "qemu_bytes_per_s": size / statistics.median(t_qemu),
            "ratio": statistics.median(q / f for f, q in zip(t_fiq, t_qemu)),
            "identical": True}
