# SPDX-License-Identifier: MIT
"""What one trapped console access costs, from QEMU's exec log (virt), and where; and what
the shim's debug traps cost the kernel (its own BKPT, reflected; a cp14 read, answered).

The `uartbench` guest (tests/guests/virt/uartbench.c) reads UART0's FR 64 times and
writes its DR 64 times, each in a three-instruction loop. QEMU runs single-stepped with
`-d exec,nochain`, so every instruction executed (the guest's, the shim's in Hyp mode and
fiqmon's in Monitor mode) is one log line; the lines from one pass of a loop to the next
are what one access costs, and each line's pc says whose it is: the shim's region
(HYP_BASE, 2 MiB), the guest's RAM, or fiqmon (its flash and Secure RAM). Three builds:
HYP=0 (the access goes straight to the PL011), HYP=1 (stage 2 traps it, the shim hands it
to fiqmon by SMC, fiqmon makes it on UART0: the trap alone) and CONSOLE=shared (the same
trap, and fiqmon's PL011 model answers: the one wire's cost per access), and that last one
again with SMP=2 (the model's lock; the guest runs on CPU 0 and only CPU 0's lines are
counted, while CPU 1 waits for a CPU_ON that never comes: its wait is kept out of the log
with -dfilter, as in bench_roundup).
"""

import re
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GUEST = "build/guests/virt/uartbench.elf"
HYP_BASE, HYP_SIZE = 0x7fe00000, 0x00200000      # platforms/virt/platform_def.h
NS_RAM = (0x40000000, HYP_BASE)                  # the guest's
BUILDS = {"real": {"HYP": "0"}, "trapped": {"HYP": "1"},
          "emulated": {"HYP": "1", "CONSOLE": "shared"},
          "emulated-smp2": {"HYP": "1", "CONSOLE": "shared", "SMP": "2"}}
TRACE = re.compile(rb"^Trace (\d+): \S+ \[[0-9a-f]+/([0-9a-f]+)/")


def symbol(elf, name):
    out = subprocess.run(["arm-none-eabi-nm", str(elf)], check=True, capture_output=True,
                         text=True).stdout
    m = re.search(rf"^([0-9a-f]+) T {name}$", out, re.M)
    if not m:
        raise RuntimeError(f"{name} not in {elf}")
    return int(m.group(1), 16)


def whose(pc):
    if HYP_BASE <= pc < HYP_BASE + HYP_SIZE:
        return "shim"
    if NS_RAM[0] <= pc < NS_RAM[1]:
        return "guest"
    return "fiqmon"


def outside(elf, names):
    """-dfilter ranges that leave out the named functions (their bounds from objdump)."""
    import bench_roundup
    dis = subprocess.run(["arm-none-eabi-objdump", "-d", str(elf)], check=True,
                         capture_output=True, text=True).stdout
    spans = sorted(bench_roundup.function(dis, n)[:2] for n in names)
    ranges, lo = [], 0
    for start, end in spans:
        ranges.append(f"{lo:#x}..{start - 1:#x}")
        lo = end
    return ",".join(ranges + [f"{lo:#x}..0xffffffff"])


def run(name, workdir):
    make_vars = BUILDS[name]
    build = f"build/bench/hyp-{name}"
    make = ["make", "-s", "--no-print-directory", "-C", str(ROOT), "PLATFORM=virt",
            f"BUILD={build}", "BOOT_DELAY_MS=0", "WATCHDOG=none"] + \
        [f"{k}={v}" for k, v in make_vars.items()]
    subprocess.run(make + [GUEST], check=True)
    subprocess.run(make + ["image", f"KERNEL={GUEST}"], check=True)
    log, con = workdir / f"exec-{name}.log", workdir / f"console-{name}.txt"
    hyp = make_vars["HYP"] == "1"
    machine = "virt,secure=on" + (",virtualization=on" if hyp else "")
    # -serial order on virt: UART0, then UART1 (fiqmon's own port, absent on one wire)
    serials = ["-serial", f"file:{con}"] + ([] if "CONSOLE" in make_vars else
                                            ["-serial", "null"])
    smp = int(make_vars.get("SMP", "1"))
    dfilter = ["-dfilter", outside(ROOT / build / "fiqmon.elf", ("virt_smp_park",))
               ] if smp > 1 else []
    proc = subprocess.Popen(
        ["qemu-system-arm", "-M", machine, "-cpu", "cortex-a15", "-m", "1G", "-smp", str(smp)] +
        dfilter + [
         "-nographic", "-nic", "none", "-monitor", "none", "-audiodev", "none,id=snd0"] +
        serials + ["-bios", str(ROOT / build / "fiqmon-image.bin"), "-singlestep", "-d",
                   "exec,nochain", "-D", str(log)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while b"uartbench: done" not in (con.read_bytes() if con.exists() else b""):
            if time.monotonic() > deadline or proc.poll() is not None:
                raise TimeoutError(f"uartbench did not finish ({name})")
            time.sleep(0.1)  # polling the console file for the guest's last line
    finally:
        proc.terminate()
        proc.wait()
    elf = ROOT / GUEST
    loops = {symbol(elf, "bench_read_loop"): "read", symbol(elf, "bench_write_loop"): "write",
             symbol(elf, "bench_bkpt_loop"): "bkpt", symbol(elf, "bench_cp14_loop"): "cp14"}
    passes = {k: [] for k in loops.values()}  # per pass: {who: instructions}
    current = None
    with open(log, "rb") as f:
        for line in f:
            m = TRACE.search(line)
            if not m or m.group(1) != b"0":  # CPU 0's: the guest's and its traps
                continue
            pc = int(m.group(2), 16)
            if pc in loops:
                current = {"guest": 0, "shim": 0, "fiqmon": 0}
                passes[loops[pc]].append(current)
            if current is not None:
                current[whose(pc)] += 1
    result = {}
    for k, ps in passes.items():
        ps = ps[:-1]  # the last pass runs into what follows the loop
        if len(ps) != 63:
            raise RuntimeError(f"{k} loop: {len(ps) + 1} passes seen, want 64 ({name})")
        total = [sum(p.values()) for p in ps]
        result[k] = {"min": min(total), "median": statistics.median(total), "max": max(total),
                     **{who: statistics.median(p[who] for p in ps)
                        for who in ("guest", "shim", "fiqmon")}}
    return result


def measure():
    """{'real'|'trapped'|'emulated': {'read'|'write': {...}}, 'per_access': {...}}
    per_access[build][k]: instructions one access costs (the loop pass minus the loop's
    other two instructions), with its shim and fiqmon parts."""
    with tempfile.TemporaryDirectory(prefix="fiqmon-bench-hyp-") as d:
        r = {name: run(name, Path(d)) for name in BUILDS}
    real = r["real"]
    r["per_access"] = {
        name: {k: {"total": r[name][k]["median"] - real[k]["median"] + 1,
                   "shim": r[name][k]["shim"], "fiqmon": r[name][k]["fiqmon"]}
               for k in ("read", "write")}
        for name in ("trapped", "emulated", "emulated-smp2")}
    # the debug traps (HYP=1): a loop pass against the same pass without the shim, where
    # the kernel's BKPT is its own Prefetch Abort and DBGDIDR a plain read
    r["debug"] = {k: {"native": real[k]["median"], "trapped": r["trapped"][k]["median"],
                      "shim": r["trapped"][k]["shim"], "fiqmon": r["trapped"][k]["fiqmon"]}
                  for k in ("bkpt", "cp14")}
    return r


if __name__ == "__main__":
    r = measure()
    for name in ("trapped", "emulated", "emulated-smp2"):
        for k in ("read", "write"):
            a = r["per_access"][name][k]
            print(f"{name} {k}: {a['total']:.0f} instructions per access (shim {a['shim']:.0f}, "
                  f"fiqmon {a['fiqmon']:.0f}); loop pass real {r['real'][k]['median']:.0f}, "
                  f"{name} {r[name][k]['median']:.0f} (min {r[name][k]['min']}, "
                  f"max {r[name][k]['max']})")
    for k, d in r["debug"].items():
        print(f"{k}: loop pass {d['trapped']:.0f} instructions with the shim (shim "
              f"{d['shim']:.0f}, fiqmon {d['fiqmon']:.0f}), {d['native']:.0f} without")
