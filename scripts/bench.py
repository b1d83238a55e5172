#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""make bench: what fiqmon costs, in instructions and bytes, not seconds.

Instruction counts come from QEMU itself: with -singlestep every translation block is one
instruction and `-d exec,nochain` logs each one executed, so counting log lines between
two program counters counts instructions exactly, whatever the host is doing. A FIQ
"episode" runs from the FIQ vector to fiqmon's exception-return instruction, both taken
from the ELF.

The figures too long or too host-bound for an exec log have their own modules:
bench_flood.py (kernel throughput under a flood), bench_stamps.py (boot through U-Boot),
bench_gdb.py (GDB dumps: wire bytes and instructions per byte), bench_roundup.py
(every CPU: the roundup and the noise byte with SMP=N).

    bench.py [--quick] [--json build/bench.json]
"""

import argparse
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import bench_console
import bench_flood
import bench_gdb
import bench_hyp
import bench_roundup
import bench_stamps

ROOT = Path(__file__).resolve().parents[1]
UBOOT_ELF = "/usr/lib/u-boot/qemu_arm/uboot.elf"
LINE_RATE = 115200 // 10          # bytes/s of a 115200 8N1 UART at full rate
CPU_RATE = 10 ** 9                # instructions/s: QEMU -icount shift=0 (1 insn = 1 ns)

PLATFORMS = {
    "versatilepb": dict(qemu=["-M", "versatilepb", "-cpu", "arm926", "-m", "128M",
                              "-global", "pl041.audiodev=snd0", "-audiodev", "none,id=snd0"],
                        serial_order=("debug", "console"), load="-kernel", image="fiqmon.elf",
                        entry_fns=("fiq_noise", "fiq_entry"), vector=0x1C),
    "virt": dict(qemu=["-M", "virt,secure=on", "-cpu", "cortex-a15", "-m", "1G",
                      "-audiodev", "none,id=snd0"],
                 serial_order=("console", "debug"), load="-bios", image="fiqmon.bin",
                 entry_fns=("fiq_noise", "mon_fiq_entry"), vector=None),
    # AArch64 at EL3: an idle fiqmon takes its FIQs from EL3t (VBAR_EL3 + 0x100)
    "virt64": dict(qemu=["-M", "virt,secure=on,virtualization=on,gic-version=3",
                        "-cpu", "cortex-a57", "-m", "1G", "-audiodev", "none,id=snd0"],
                   serial_order=("console", "debug"), load="-bios", image="fiqmon.bin",
                   entry_fns=("fiq_noise", "restore_return"), vector=("el3_vectors", 0x100),
                   qemu_bin="qemu-system-aarch64", tools="aarch64-linux-gnu-"),
}


def tools(platform):
    return PLATFORMS[platform].get("tools", "arm-none-eabi-")


def qemu_bin(platform):
    return PLATFORMS[platform].get("qemu_bin", "qemu-system-arm")


def fiq_vector(platform, syms):
    v = PLATFORMS[platform]["vector"]
    if isinstance(v, tuple):
        return syms[v[0]] + v[1]
    return v if v is not None else syms["monitor_vectors"] + 0x1C


def sh(*args, **kw):
    return subprocess.run(args, check=True, capture_output=True, text=True, **kw).stdout


def build(platform, build_dir, **make_vars):
    sh("make", "-s", "-C", str(ROOT), "all", f"PLATFORM={platform}", f"BUILD={build_dir}",
       *[f"{k}={v}" for k, v in make_vars.items()])
    return ROOT / build_dir


def symbols(elf, prefix="arm-none-eabi-"):
    syms = {}
    for line in sh(f"{prefix}nm", str(elf)).splitlines():
        parts = line.split()
        if len(parts) == 3:
            syms[parts[2]] = int(parts[0], 16)
    return syms


def return_addresses(elf, fns, prefix="arm-none-eabi-"):
    """Addresses of the exception returns in fiqmon's FIQ entry: the noise path's and the
    C path's (the platform's fiq_noise and the architecture's entry code)."""
    dis = sh(f"{prefix}objdump", "-d", str(elf))
    found = set()
    for fn in fns:
        body = dis.split(f"<{fn}>:", 1)[1].split("\n\n", 1)[0]
        found |= {int(m.group(1), 16) for m in re.finditer(
            r"^\s*([0-9a-f]+):\s+\S+\s+(?:subs(?:eq)?\s+pc, lr, #4|movs\s+pc, lr|eret)",
            body, re.M)}
    return found


def section_sizes(elf, prefix="arm-none-eabi-"):
    sizes = {}
    for line in sh(f"{prefix}size", "-A", str(elf)).splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0].startswith(".") and parts[1].isdigit():
            sizes[parts[0]] = int(parts[1])
    return sizes


def footprint(elf, prefix="arm-none-eabi-"):
    s = section_sizes(elf, prefix)
    return {
        "text": s.get(".text", 0) + s.get(".rodata", 0),
        "data": s.get(".data", 0),
        "bss": s.get(".bss", 0),
        "buffers": s.get(".buffers", 0) + s.get(".noinit", 0),  # .noinit: `last` report
        "stacks": s.get(".stacks", 0),
        "resident": sum(s.get(k, 0) for k in (".text", ".rodata", ".data", ".bss",
                                               ".buffers", ".noinit", ".stacks")),
    }


def uboot_footprint():
    s = section_sizes(UBOOT_ELF)
    text = sum(v for k, v in s.items() if k.startswith((".text", ".rodata", ".efi")))
    data = sum(v for k, v in s.items() if k.startswith((".data", ".got", ".rel", ".dyn", ".hash")))
    bss = sum(v for k, v in s.items() if k.startswith(".bss"))
    return {"text": text, "data": data, "bss": bss, "resident": text + data + bss}


class TracedQemu:
    """QEMU logging every instruction; the debug port on a unix socket."""

    def __init__(self, platform, build_dir, extra=(), workdir=None, image=None, console="null"):
        p = PLATFORMS[platform]
        self.dir = Path(workdir or tempfile.mkdtemp(prefix="fiqmon-bench-"))
        self.log = self.dir / "exec.log"
        sock = self.dir / "debug.sock"
        serials = {"debug": f"unix:{sock},server=on,wait=on", "console": console}
        args = [qemu_bin(platform), *p["qemu"], "-nographic", "-nic", "none", "-monitor", "none",
                *sum((["-serial", serials[s]] for s in p["serial_order"]), []),
                p["load"], str(build_dir / (image or p["image"])), "-singlestep",
                "-d", "exec,nochain", "-D", str(self.log), *extra]
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while not sock.exists():
            if time.monotonic() > deadline:
                raise TimeoutError("QEMU did not start")
            time.sleep(0.02)
        self.sock = socket.socket(socket.AF_UNIX)
        self.sock.connect(str(sock))
        self.sock.settimeout(0.05)
        self.out = b""

    def read(self, seconds):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                self.out += self.sock.recv(65536)
            except socket.timeout:
                pass

    def wait_for(self, pattern, timeout=30):
        end = time.monotonic() + timeout
        while not re.search(pattern, self.out):
            if time.monotonic() > end:
                raise TimeoutError(f"no {pattern!r} in {self.out[-300:]!r}")
            self.read(0.05)

    def send_paced(self, data, gap=0.05):
        """One byte per FIQ: the bench measures the per-byte path, not batching."""
        for b in data:
            self.sock.send(bytes([b]))
            self.read(gap)

    def stop(self):
        self.proc.terminate()
        self.proc.wait()
        self.sock.close()

    def pcs(self):
        rx = re.compile(rb"\[[0-9a-f]+/([0-9a-f]+)/")
        with open(self.log, "rb") as f:
            for line in f:
                m = rx.search(line)
                if m:
                    yield int(m.group(1), 16)


def episodes(pcs, vector, returns):
    """Instruction counts of each FIQ, from the vector through the exception return that
    was taken (a conditional return that falls through does not end the episode)."""
    counts, n, prev = [], None, None
    for pc in pcs:
        if n is not None and prev in returns and pc != prev + 4:
            counts.append(n)
            n = None
        if n is None:
            if pc == vector:
                n = 1
        else:
            n += 1
        prev = pc
    return counts


def noise_and_commands(platform, build_dir, quick):
    p = PLATFORMS[platform]
    elf = build_dir / "fiqmon.elf"
    syms = symbols(elf, tools(platform))
    vector = fiq_vector(platform, syms)
    returns = return_addresses(elf, p["entry_fns"], tools(platform))
    q = TracedQemu(platform, build_dir)
    try:
        q.wait_for(rb"Type \$3#33 to enter the debugger>")
        q.read(0.3)
        q.send_paced(b"a")                       # first noise of a line: prints the prompt
        q.read(0.3)
        mark_noise = len(episodes(q.pcs(), vector, returns))
        nbytes = 20 if quick else 200
        q.send_paced(b"noise!%&" * (nbytes // 8))
        q.read(0.5)
        mark_knock = len(episodes(q.pcs(), vector, returns))
        q.send_paced(b"$3#33")
        q.wait_for(rb"fiqmon> ")
        q.read(0.3)
        marks = {}
        scratch = "100000" if platform == "versatilepb" else "40100000"
        for name, line in (("regs", "regs"), ("md 256 bytes", f"md {scratch} 100")):
            before = len(episodes(q.pcs(), vector, returns))
            q.send_paced(line.encode() + b"\r", gap=0.05)
            q.wait_for(rb"fiqmon> $")
            q.read(0.3)
            marks[name] = (before, len(episodes(q.pcs(), vector, returns)))
        eps = episodes(q.pcs(), vector, returns)
    finally:
        q.stop()
    noise = eps[mark_noise:mark_knock]
    cmds = {name: max(eps[a:b]) for name, (a, b) in marks.items()}
    return noise, cmds


def boot_cost(platform, quick):
    """Reset to the kernel's first instruction, fiqmon alone (no boot delay)."""
    if platform == "versatilepb":
        kernel = ROOT / "build/bench/tiny.elf"
        kernel.parent.mkdir(parents=True, exist_ok=True)
        src = kernel.with_suffix(".S")
        src.write_text(".global _start\n_start: b _start\n")
        sh("arm-none-eabi-gcc", "-mcpu=arm926ej-s", "-nostdlib", "-Ttext=0x200000", str(src),
           "-o", str(kernel))
        build_dir = build(platform, "build/bench-versatilepb", BOOT_DELAY_MS=0)
        # the same variables as the build: make rebuilds on any flag that differs
        sh("make", "-s", "-C", str(ROOT), "image", f"BUILD={build_dir.relative_to(ROOT)}",
           f"PLATFORM={platform}", "BOOT_DELAY_MS=0", f"KERNEL={kernel}")
        image, entry = build_dir / "fiqmon-image.bin", 0x200000
        args = ["qemu-system-arm", *PLATFORMS[platform]["qemu"], "-nographic", "-nic", "none",
                "-monitor", "none", "-serial", "null", "-serial", "null",
                "-device", f"loader,file={image},addr=0x10000,force-raw=on",
                "-device", "loader,addr=0x10000,cpu-num=0"]
        what = "fiqmon + 4-byte payload (header and CRC checks, copy)"
    else:
        # a kernel header fiqmon checks (zImage: its magic at 0x24; arm64 Image: "ARM\x64" at
        # 0x38) whose first instruction loops, loaded where fiqmon looks for it
        a64 = platform == "virt64"
        entry, (insn, at, magic) = (0x40200000, (b"\x00\x00\x00\x14", 0x38, 0x644D5241)) if a64 \
            else (0x40800000, (b"\xfe\xff\xff\xea", 0x24, 0x016F2818))
        build_dir = build(platform, f"build/bench-{platform}", BOOT_DELAY_MS=0)
        kernel = ROOT / f"build/bench/fake-{'arm64-image' if a64 else 'zimage'}.bin"
        kernel.parent.mkdir(parents=True, exist_ok=True)
        body = bytearray(insn + b"\0" * 0x40)
        body[at:at + 4] = magic.to_bytes(4, "little")
        kernel.write_bytes(body)
        args = [qemu_bin(platform), *PLATFORMS[platform]["qemu"], "-nographic", "-nic", "none",
                "-monitor", "none", "-serial", "null", "-serial", "null",
                "-bios", str(build_dir / "fiqmon.bin"),
                "-device", f"loader,file={kernel},addr=0x{entry:x},force-raw=on"]
        what = "fiqmon from Secure flash (EL3) to an arm64 Image in place (EL2)" if a64 else \
            "fiqmon from Secure flash to a zImage in place (Normal world)"
    log = Path(tempfile.mkdtemp(prefix="fiqmon-bench-")) / "boot.log"
    proc = subprocess.Popen(args + ["-singlestep", "-d", "exec,nochain", "-D", str(log)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    rx = re.compile(rb"\[[0-9a-f]+/([0-9a-f]+)/")
    deadline = time.monotonic() + 60
    count = None
    while count is None and time.monotonic() < deadline:
        time.sleep(0.2)
        n = 0
        with open(log, "rb") as f:
            for line in f:
                m = rx.search(line)
                if m:
                    n += 1
                    if int(m.group(1), 16) == entry:
                        count = n - 1
                        break
    proc.terminate()
    proc.wait()
    return count, what


def fmt_mmm(d, f="{:,.0f}"):
    return "/".join(f.format(d[k]) for k in ("min", "median", "max"))


def more_figures(results, quick):
    """Flood throughput (both platforms), boot through U-Boot (virt), GDB throughput."""
    rows = []
    sh("make", "-s", "-C", str(ROOT), "guests", "virt-guests")
    results["flood"] = {}
    for platform, guest in (("versatilepb", "build/guests/flood.elf"),
                            ("virt", "build/guests/virt/flood.elf")):
        flood_dir = build(platform, f"build/bench-flood-{platform}", BOOT_DELAY_MS=0)
        sh("make", "-s", "-C", str(ROOT), "image", f"PLATFORM={platform}", "BOOT_DELAY_MS=0",
           f"BUILD={flood_dir.relative_to(ROOT)}", f"KERNEL={guest}")
        fl = bench_flood.flood(flood_dir / "fiqmon-image.bin", ROOT / f"build/bench/flood-{platform}",
                               runs=1 if quick else 5, platform=platform)
        results["flood"][platform] = fl
        rows.append((f"{platform}: flood guest's loop, UART silent",
                     f"{fl['insns_per_iteration']:.3f}", "instr/iter",
                     f"{fl['window_ns'] / 1e6:.1f} ms windows of virtual time "
                     "(-icount shift=0: 1 instruction = 1 ns)"))
        for m, who in (("armed", "fiqmon armed (FIQ)"), ("released", "released (guest IRQ)")):
            if m not in fl:
                continue  # virt: the debug UART is Secure, never released
            t, pb = fl[m]["throughput"], fl[m]["per_byte"]
            rows.append((f"{platform}: throughput under full-rate flood, {who}",
                         fmt_mmm(t, "{:.3%}"), "of silent",
                         f"min/median/max of {len(fl[m]['runs'])}; slowdown "
                         f"{1 - t['median']:.3%} (median), 11,520 bytes/s in virtual time"))
            rows.append((f"{platform}: per flooded byte, {who}", fmt_mmm(pb, "{:.1f}"),
                         "instructions", "iterations lost x instructions each / bytes in "
                         "window; interrupts per byte {:.3f}-{:.3f}".format(
                             *fl[m]["interrupts_per_byte"])))

    if not (ROOT / "build/linux/vmlinuz").exists():
        sh("make", "-s", "-C", str(ROOT), "linux")
    ub = bench_stamps.uboot_chainload(ROOT / "build/bench-virt/fiqmon.bin",
                                      ROOT / "build/linux/vmlinuz", ROOT / "build/bench/uboot",
                                      runs=2 if quick else 11)
    results["boot"]["virt via u-boot"] = ub
    for part, what in (("total", "reset to kernel entry"), ("uboot", "U-Boot's part"),
                       ("fiqmon", "fiqmon's part")):
        rows.append((f"virt: U-Boot chainload, {what}", fmt_mmm(ub[part]), "instructions",
                     f"min/median/max of {ub['runs']} boots, +-16 (CNTPCT stamps)"))

    hy = bench_hyp.measure()
    results["hyp"] = hy
    for name, what in (("trapped", "trapped by the Hyp shim, passed to UART0 (HYP=1)"),
                       ("emulated", "trapped, answered by the model (CONSOLE=shared)"),
                       ("emulated-smp2", "trapped, answered by the model, SMP=2 (its lock)")):
        for k in ("read", "write"):
            a = hy["per_access"][name][k]
            rows.append((f"virt: console {k} {what}", f"{a['total']:.0f}", "instructions",
                         f"per access, exec log: shim {a['shim']:.0f}, fiqmon "
                         f"{a['fiqmon']:.0f}; a real PL011 {k}: 1"))

    for k, what in (("bkpt", "the kernel's own BKPT, reflected to it by fiqmon"),
                    ("cp14", "the kernel's DBGDIDR read, answered 0 by the shim")):
        d = hy["debug"][k]
        rows.append((f"virt: debug trap (HYP=1), {what}", f"{d['trapped']:.0f}", "instructions",
                     f"per loop pass, exec log: shim {d['shim']:.0f}, fiqmon {d['fiqmon']:.0f}; "
                     f"without the shim {d['native']:.0f}"))

    # Debian's console throughput and GDB's dumps boot Debian's kernel: make bench only
    # (make test's --quick keeps within its time; the per-access cost above stays)
    if not quick:
        cs = bench_console.measure(quick, hy)
        results["console_throughput_virtual"] = cs
        for k, what in (("real", "a real PL011 (no shim)"), ("emulated", "the model, CONSOLE=shared")):
            rows.append((f"virt: Debian's console output to {what}", f"{cs[k]['bytes_per_s']:,.0f}",
                         "bytes/s virtual", f"{cs[k]['ns_per_byte']:.0f} instructions per byte; "
                         "-icount shift=0 (docs/benchmarks.md)"))
        pb, b = cs["emulated"]["per_byte"], cs["breakdown"]
        rows.append(("virt: one wire, traps per console byte", f"{pb['traps']:.3f}", "traps",
                     f"FR reads {pb['fr_reads']:.3f}, DR writes {pb['dr_writes']:.3f}, other "
                     f"{pb['other']:.3f} (fiqmon's hyp counters)"))
        rows.append(("virt: one wire, per console byte", f"{cs['emulated']['ns_per_byte']:.0f}",
                     "instructions", f"{b['real']:.0f} as real + shim {b['shim']:.0f} + fiqmon "
                     f"{b['fiqmon']:.0f} + rest {b['rest']:.0f}"))

    # every core: one roundup + release, and the noise byte with SMP CPUs on; virt64's
    # guest idles at EL2, so its FIQs come through VBAR_EL3's lower-EL vector
    results["smp"], results["smp64"] = {}, {}
    vectors = {"virt": lambda e: symbols(e)["monitor_vectors"] + 0x1C,
               "virt64": lambda e: symbols(e, tools("virt64"))["el3_vectors"] + 0x500}
    for platform, smp in [("virt", n) for n in ((4,) if quick else (2, 4))] + [("virt64", 4)]:
        r = bench_roundup.measure(
            smp, quick,
            lambda e, p=platform: return_addresses(e, PLATFORMS[p]["entry_fns"], tools(p)),
            vectors[platform], platform)
        results["smp" if platform == "virt" else "smp64"][smp] = r
        n = r["noise"]
        rows.append((f"{platform} SMP={smp}: per noise byte",
                     f"{n['min']}/{n['median']:g}/{n['max']}", "instructions",
                     f"min/median/max of {n['samples']} bytes on CPU 0, every CPU on (smpidle "
                     "guest)"))
        rows.append((f"{platform} SMP={smp}: roundup, on the CPU that took the knock",
                     f"{r['cpu0']['instructions']}", "instructions",
                     f"SGI to the others and their answers checked; {r['cpu0']['poll_passes']} "
                     "poll passes while they answered taken out"))
        each = [o["instructions"] for o in r["others"].values()]
        rows.append((f"{platform} SMP={smp}: roundup + release, on each other CPU",
                     f"{min(each)}/{max(each)}", "instructions",
                     "min/max: FIQ entry, context saved, answer, release, exception return; "
                     "its WFE wait until the release taken out"))

    if not quick:
        # GDB at the wire's limit: 256 KiB dumps of Debian's kernel on virt (bench_gdb.wire)
        g = bench_gdb.wire(ROOT / "build/bench-virt", ROOT / "build/bench/gdb-wire", quick)
        results["gdb"] = g
        for name, r in g.items():
            rows.append((f"virt: GDB dump of 256 KiB {name}, wire", f"{r['wire_per_byte']:.3f}",
                         "bytes/byte", f"{r['wire_bytes']} serial bytes both ways; "
                         f"{r['seconds_at_115200']:.1f} s at 115200 baud; same as QEMU's gdbstub"))
            rows.append((f"virt: GDB dump of {name}, target", f"{r['instructions_per_byte']:.1f}",
                         "instr/byte", f"exec log over {r['instructions_traced_bytes'] // 1024} KiB, "
                         "the stub's byte handler"))
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="fewer samples (make test)")
    ap.add_argument("--json", default=str(ROOT / "build/bench.json"))
    a = ap.parse_args()

    results = {"footprint": {}, "noise": {}, "commands": {}, "boot": {}, "slowdown": {}}
    rows = []
    for platform in PLATFORMS:
        # The footprint is that of `make`'s own build; the bench's images boot with no
        # delay, and LTO drops the countdown code from them.
        fp = footprint(build(platform, f"build/{platform}") / "fiqmon.elf", tools(platform))
        results["footprint"][platform] = fp
        rows.append((f"{platform}: resident footprint", f"{fp['resident']}", "bytes",
                     f"text {fp['text']}, data {fp['data']}, bss {fp['bss']}, buffers "
                     f"{fp['buffers']}, stacks {fp['stacks']}"))
        # the smallest monitor: GDB, Linux introspection, lockdown and watchdog built out
        mp = footprint(build(platform, f"build/{platform}-minimal", MINIMAL=1) / "fiqmon.elf",
                       tools(platform))
        results["footprint"][f"{platform} minimal"] = mp
        rows.append((f"{platform}: resident footprint, MINIMAL=1", f"{mp['resident']}",
                     "bytes", f"text {mp['text']}, data {mp['data']}, bss {mp['bss']}, "
                     f"buffers {mp['buffers']}, stacks {mp['stacks']}"))
    if os.path.exists(UBOOT_ELF):
        ub = uboot_footprint()
        results["footprint"]["u-boot (Debian qemu_arm)"] = ub
        rows.append(("u-boot (Debian qemu_arm): image", f"{ub['resident']}", "bytes",
                     f"text {ub['text']}, data {ub['data']}, bss {ub['bss']}"))

    for platform in PLATFORMS:
        build_dir = build(platform, f"build/bench-{platform}", BOOT_DELAY_MS=0)
        noise, cmds = noise_and_commands(platform, build_dir, a.quick)
        stats = {"min": min(noise), "median": statistics.median(noise), "max": max(noise),
                 "samples": len(noise)}
        results["noise"][platform] = stats
        rows.append((f"{platform}: per noise byte", f"{stats['min']}/{stats['median']:g}/"
                     f"{stats['max']}", "instructions", f"min/median/max of {len(noise)} bytes,"
                     " FIQ entry to exception return"))
        results["commands"][platform] = cmds
        for name, n in cmds.items():
            rows.append((f"{platform}: knocked command '{name}'", f"{n}", "instructions",
                         "the FIQ that runs it, output included"))
        slow = LINE_RATE * stats["max"] / CPU_RATE
        results["slowdown"][platform] = {"fraction": slow, "line_rate": LINE_RATE,
                                         "cpu_rate": CPU_RATE}
        rows.append((f"{platform}: slowdown under full-rate noise", f"{100 * slow:.3f}", "%",
                     f"{LINE_RATE} bytes/s x max per-byte cost / {CPU_RATE:.0e} instr/s"))
        count, what = boot_cost(platform, a.quick)
        results["boot"][platform] = {"instructions": count, "what": what}
        rows.append((f"{platform}: reset to kernel entry", f"{count}", "instructions", what))

    # The exec-log boot count of fiqmon alone on virt checks the clock-stamp method.
    stamp = bench_stamps.fiqmon_alone(ROOT / "build/bench-virt/fiqmon.bin",
                                      ROOT / "build/bench/stamps")
    exact = results["boot"]["virt"]["instructions"]
    # the counter the stamp reads has counted the reading instruction too: a boot of 16k - 1
    # instructions (before the kernel's first) reads k (seen when a change made it 28,943)
    if not stamp * bench_stamps.NS_PER_TICK <= exact + 1 < (stamp + 1) * bench_stamps.NS_PER_TICK:
        raise RuntimeError(f"clock stamp {stamp} x 16 disagrees with the exec log's {exact}")
    results["boot"]["virt"]["stamp_check"] = {"stamp": stamp, "exact": exact}
    rows += more_figures(results, a.quick)

    Path(a.json).parent.mkdir(parents=True, exist_ok=True)
    Path(a.json).write_text(json.dumps(results, indent=2) + "\n")
    w = max(len(r[0]) for r in rows)
    for name, value, unit, note in rows:
        print(f"{name:<{w}}  {value:>26} {unit:<12} {note}")
    print(f"(written to {a.json})")
    # the v1 targets, each said met or missed (the bench reports; it does not fail on them)
    targets = [
        ("resident footprint <= 32 KiB", all(results["footprint"][p]["resident"] <= 32768
                                             for p in PLATFORMS)),
        ("minimal build (MINIMAL=1) <= 12 KiB", all(
            results["footprint"][f"{p} minimal"]["resident"] <= 12288 for p in PLATFORMS)),
        ("<= 40 instructions per noise byte (max)", all(v["max"] <= 40
                                                        for v in results["noise"].values())),
        ("<= 1 % slowdown under a full-rate flood", all(
            1 - f["armed"]["throughput"]["min"] <= 0.01 for f in results["flood"].values()) and
         all(v["fraction"] <= 0.01 for v in results["slowdown"].values())),
        ("<= 50,000 instructions reset to kernel entry", all(
            results["boot"][p]["instructions"] and results["boot"][p]["instructions"] <= 50000
            for p in PLATFORMS)),
        ("<= 60 instructions per noise byte with 4 CPUs (max)",
         results["smp"][4]["noise"]["max"] <= 60 and results["smp64"][4]["noise"]["max"] <= 60),
    ]
    if "gdb" in results:  # (not in --quick)
        targets += [
            ("GDB dump of kernel text <= 2.05 wire bytes per byte",
             results["gdb"]["kernel-text"]["wire_per_byte"] <= 2.05),
            ("GDB dump of kernel data <= 1.3 wire bytes per byte",
             results["gdb"]["kernel-data"]["wire_per_byte"] <= 1.3),
            ("GDB dump of zeroed memory <= 0.1 wire bytes per byte",
             results["gdb"]["zeroed"]["wire_per_byte"] <= 0.1),
        ]
    results["targets"] = {name: ok for name, ok in targets}
    Path(a.json).write_text(json.dumps(results, indent=2) + "\n")
    for name, ok in targets:
        print(f"target {name}: {'met' if ok else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
