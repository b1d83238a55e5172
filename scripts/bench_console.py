# SPDX-License-Identifier: MIT
"""The kernel's console throughput in bytes per second of VIRTUAL time (virt): Debian's
kernel with the busybox initramfs writes a known text through its console (printk to
/dev/kmsg, which the console prints synchronously, polling the PL011: FR read, DR write
per byte) once to a real PL011 (fiqmon built without the Hyp shim: nothing traps) and
once to fiqmon's PL011 model on the one wire (CONSOLE=shared: every FR and DR access
traps to the shim and reaches fiqmon by SMC).

QEMU runs with `-icount shift=0,sleep=off`: every guest instruction advances the virtual
clock by exactly 1 ns, and idle time is skipped rather than slept, so virtual time is a
count of instructions and does not depend on the host's speed or load. The kernel reads
its clock (the generic timer, driven by the virtual clock) as the printk timestamps of a
record written just before the text and one just after (microseconds); the host counts
the bytes the wire brought from the first marker to the second, so the timestamp
prefixes printk adds are counted as output too.

The initramfs's CPU-bound `spinner` (mkinitramfs.py: a shell in `while :; do :; done`, there
for the task-list tests) is stopped first (SIGSTOP): it would get a share of the virtual
time while the console prints, and so inflate both figures (the emulated one more, since
it runs longer). On the one wire, fiqmon's `hyp` counters are zeroed just before the text
and read just after (a knock at the idle prompt): traps per console byte, by register.
With bench_hyp's per-access figures (the uartbench guest, exec log: the shim's and
fiqmon's instructions per FR read and DR write) they explain the emulated figure; what
they do not is reported as the rest.
"""

import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ICOUNT = "-icount shift=0,sleep=off"
LINES = 4000          # 64-byte lines: 256,000 bytes of text per run
LINE = "fiqmon console throughput line %05d abcdefghijklmnopqrstuvwxyz"  # 63 + LF


def note(what):
    print(f"[{time.strftime('%H:%M:%S')}] {what}", file=sys.stderr, flush=True)


def stop_spinner(con):
    """SIGSTOP the initramfs's spinner (found by its comm, which is its file name)."""
    con.forget()
    con.send(b"n=0; for p in /proc/[0-9]*; do read c < $p/comm 2>/dev/null; "
             b"[ \"$c\" = spinner ] && kill -STOP ${p#/proc/} && n=$((n+1)); done; "
             b"echo =stopped=$n=\r")
    _, m = con.expect(rb"=stopped=(\d+)=\r\n", timeout=60)
    assert m.group(1) == b"1", f"{m.group(1)} spinners stopped, want 1"


HYP_RE = (rb"hyp: stage 2 on, emulated=(\d+) ignored=(\d+) other=(\d+)\r\n"
          rb"uart: fr_reads=(\d+) dr_writes=(\d+) dr_reads=(\d+) other_reads=(\d+) "
          rb"other_writes=(\d+)\r\nuart: irqs_raised=(\d+) fiqs=(\d+)\r\n")
HYP_KEYS = ("emulated", "ignored", "other", "fr_reads", "dr_writes", "dr_reads",
            "other_reads", "other_writes", "irqs_raised", "fiqs")


def hyp_counters(fm, line):
    """Knock, run `hyp` or `hyp reset`, leave; the counters as the command printed them."""
    fm.knock()
    fm.debug.send(line.encode() + b"\r")
    _, m = fm.debug.expect(HYP_RE, timeout=30)
    fm.debug.expect(r"fiqmon> ")
    fm.leave()
    return dict(zip(HYP_KEYS, (int(x) for x in m.groups())))


def run_once(name, make_vars, work, runs, spinner=False):
    sys.path.insert(0, str(ROOT / "tests/qemu"))
    import harness
    build = f"build/bench/console-{name}"
    vars_ = {"PLATFORM": "virt", "BUILD": build, "BOOT_DELAY_MS": "0", "WATCHDOG": "none",
             "KERNEL": "debian", "INITRD": "busybox", **make_vars}
    subprocess.run(["make", "-s", "--no-print-directory", "-C", str(ROOT)] +
                   [f"{k}={v}" for k, v in vars_.items() if k not in ("KERNEL", "INITRD")],
                   check=True)
    fm = harness.Fiqmon(work / name, vars_, qemu_extra=ICOUNT)
    try:
        con = fm.console
        con.expect(r"fiqmon-initramfs-ready", timeout=300)
        con.expect(r"# ", timeout=120)
        note(f"{name}: at the prompt")
        if not spinner:
            stop_spinner(con)
        shared = make_vars.get("CONSOLE") == "shared"
        # the text, in tmpfs, made before any clock is read
        con.forget()
        con.send(("i=0; while [ $i -lt %d ]; do printf '%s\\n' $i; i=$((i+1)); done "
                  "> /tmp/text; echo =made=$(wc -c < /tmp/text)=\r" % (LINES, LINE)).encode())
        _, m = con.expect(rb"=made=(\d+)=\r\n", timeout=300)
        text_bytes = int(m.group(1))
        note(f"{name}: text made")
        assert text_bytes == LINES * (len(LINE % 0) + 1), text_bytes
        # every record reaches the console, none is rate-limited
        con.send(b"echo 8 > /proc/sys/kernel/printk; echo on > /proc/sys/kernel/printk_devkmsg; "
                 b"echo =set=\r")
        con.expect(rb"\n=set=\r\n", timeout=60)
        figures = []
        for r in range(runs):
            if shared:
                hyp_counters(fm, "hyp reset")
                window = len(con.log)  # from here to the next knock: the kernel's bytes
            con.forget()
            # a record before and one after: their printk timestamps (microseconds of the
            # kernel's clock) bound the output; 640-byte writes (10 lines) are one record
            # each, printed line by line with its prefix
            con.send(b"echo fiqmon-bench-begin > /dev/kmsg; "
                     b"dd if=/tmp/text of=/dev/kmsg bs=640 2>/dev/null; "
                     b"echo fiqmon-bench-end > /dev/kmsg\r")
            _, m0 = con.expect(rb"\[ *(\d+)\.(\d{6})\] fiqmon-bench-begin\r\n", timeout=600)
            start = len(con.log) - len(m0.group(0))
            _, m1 = con.expect(rb"\[ *(\d+)\.(\d{6})\] fiqmon-bench-end\r\n", timeout=600)
            body = con.log[start:len(con.log) - len(m1.group(0))]
            (work / f"{name}-output.txt").write_bytes(body)
            lines = re.findall(rb"\] fiqmon console throughput line (\d{5})", body)
            assert [int(x) for x in lines] == list(range(LINES)), \
                f"{name}: {len(lines)} console lines, want {LINES} in order"
            wire = len(body)
            ns = ((int(m1.group(1)) - int(m0.group(1))) * 1000000 +
                  int(m1.group(2)) - int(m0.group(2))) * 1000
            note(f"{name}: run {r}: {wire} bytes in {ns} ns")
            figures.append({"wire_bytes": wire, "virtual_ns": ns,
                            "bytes_per_s": wire / (ns / 1e9)})
            if shared:
                # the kernel is at its prompt again (printed just after the end record)
                con.expect(rb"# ", timeout=60)
                window = len(con.log) - window
                c = hyp_counters(fm, "hyp")
                c["window_bytes"] = window
                figures[-1]["counters"] = c
                note(f"{name}: run {r}: {c}")
        out = {"text_bytes": text_bytes, "runs": figures, "spinner": spinner,
                "bytes_per_s": statistics.median(f["bytes_per_s"] for f in figures),
                "ns_per_byte": statistics.median(f["virtual_ns"] / f["wire_bytes"]
                                                 for f in figures)}
        if shared:
            out["per_byte"] = per_byte([f["counters"] for f in figures])
        return out
    finally:
        fm.close()


def per_byte(counters):
    """Counters per console byte (the bytes the wire brought while they counted), the
    median over the runs."""
    def med(f):
        return statistics.median(f(c) / c["window_bytes"] for c in counters)
    return {"traps": med(lambda c: c["emulated"] + c["ignored"] + c["other"]),
            "fr_reads": med(lambda c: c["fr_reads"]),
            "dr_writes": med(lambda c: c["dr_writes"]),
            "other": med(lambda c: c["dr_reads"] + c["other_reads"] + c["other_writes"]),
            "irqs_raised": med(lambda c: c["irqs_raised"]),
            "fiqs": med(lambda c: c["fiqs"])}


def breakdown(r, hyp):
    """Instructions per console byte, emulated: the real figure, plus each trap per byte
    times what bench_hyp measured one costs in the shim and in fiqmon (an access other than
    FR and DR at the mean of the two); the rest is what the traps do not explain."""
    pb, acc = r["emulated"]["per_byte"], hyp["per_access"]["emulated"]
    parts = {"real": r["real"]["ns_per_byte"]}
    for who in ("shim", "fiqmon"):
        per_other = (acc["read"][who] + acc["write"][who]) / 2
        parts[who] = (pb["fr_reads"] * acc["read"][who] + pb["dr_writes"] * acc["write"][who]
                      + pb["other"] * per_other)
    parts["rest"] = r["emulated"]["ns_per_byte"] - sum(parts.values())
    return parts


def measure(quick=False, hyp=None, spinner=False):
    """{'real': {...}, 'emulated': {...}, 'ratio': emulated/real}; with bench_hyp's result,
    'breakdown' too."""
    work = ROOT / "build/bench/console"
    work.mkdir(parents=True, exist_ok=True)
    runs = 1 if quick else 3
    real = run_once("real", {}, work, runs, spinner)
    emulated = run_once("shared", {"CONSOLE": "shared"}, work, runs, spinner)
    r = {"method": "QEMU -icount shift=0,sleep=off (1 instruction = 1 ns virtual); "
                   "printk via /dev/kmsg, bytes counted on the wire, between two "
                   "records' printk timestamps; the initramfs's spinner "
                   + ("running" if spinner else "stopped"),
         "real": real, "emulated": emulated,
         "ratio": emulated["bytes_per_s"] / real["bytes_per_s"]}
    if hyp:
        r["breakdown"] = breakdown(r, hyp)
    return r


def report(r):
    for k in ("real", "emulated"):
        print(f"{k}: {r[k]['bytes_per_s']:,.0f} bytes/s virtual "
              f"({r[k]['ns_per_byte']:.0f} instructions per console byte)")
    print(f"emulated/real: {r['ratio']:.3f}")
    pb = r["emulated"]["per_byte"]
    print("traps per console byte: {traps:.3f} (FR reads {fr_reads:.3f}, DR writes "
          "{dr_writes:.3f}, other {other:.3f}); model interrupts raised {irqs_raised:.4f}, "
          "FIQs {fiqs:.4f}".format(**pb))
    if "breakdown" in r:
        b = r["breakdown"]
        print(f"per console byte, emulated: {b['real']:.0f} as real + shim {b['shim']:.0f} + "
              f"fiqmon {b['fiqmon']:.0f} + rest {b['rest']:.0f}")


if __name__ == "__main__":
    import bench_hyp
    t = time.monotonic()
    hy = None if "--no-hyp" in sys.argv else bench_hyp.measure()
    if hy:
        for k in ("read", "write"):
            a = hy["per_access"]["emulated"][k]
            print(f"emulated {k}: {a['total']:.0f} instructions per access (shim "
                  f"{a['shim']:.0f}, fiqmon {a['fiqmon']:.0f})")
    r = measure("--quick" in sys.argv, hy, spinner="--spinner" in sys.argv)
    report(r)
    print(f"({time.monotonic() - t:.0f} s)")
