# SPDX-License-Identifier: MIT
"""What stopping every CPU costs, and the noise byte with several CPUs (virt, SMP=N).

The `smpidle` guest (tests/guests/virt/smpidle.c) turns every CPU on with PSCI and leaves
them all in WFI, so QEMU's exec log (-singlestep -d exec,nochain, one line per instruction,
each naming its CPU) holds nothing but fiqmon's own work once the guest is up. fiqmon's
wait for CPU_ON (virt_smp_park) is kept out of the log with -dfilter: it spins on WFE,
which TCG runs as a yield. Then, in one run: noise bytes (CPU 0's FIQ per byte), a knock,
`halt` (the roundup: CPU 0 sends the SGI and polls for the answers; each other CPU takes
the FIQ, saves its context, answers and waits) and `continue` (the release).

Waiting is not work: the instructions a CPU spends polling (CPU 0 for the answers, the
others in their WFE loop until the release) depend on how the host schedules QEMU's
threads. Each is counted as loop passes and taken out: the pc at the loop's head is found
in the disassembly, and a CPU's figure is what it runs before the head is first reached
plus what it runs from the last pass on (the passes are reported beside the figures).
"""

import re
import statistics
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# per platform: the guest, its build target, binutils, fiqmon's park function, the line
# that says the guest is up
PLATFORMS = {
    "virt": dict(guest="build/guests/virt/smpidle.elf", guests="virt-guests",
                 tools="arm-none-eabi-", park="virt_smp_park",
                 ready=rb"guest smpidle: cpus (\d+)\r?\n"),
    "virt64": dict(guest="build/guests/virt64/smpidle.elf", guests="virt64-guests",
                   tools="aarch64-linux-gnu-", park="virt64_smp_park",
                   ready=rb"guest smpidle64: cpus (\d+)\r?\n"),
}
KNOCK = b"$3#33"
TRACE = re.compile(rb"^Trace (\d+): \S+ \[[0-9a-f]+/([0-9a-f]+)/")


def function(dis, name):
    """(start, end, body) of a function in objdump -d output."""
    m = re.search(rf"^([0-9a-f]+) <{name}>:\n(.*?)(?:\n\n|\Z)", dis, re.M | re.S)
    if not m:
        raise RuntimeError(f"{name} not in the disassembly")
    addrs = [int(a, 16) for a in re.findall(r"^\s*([0-9a-f]+):", m.group(2), re.M)]
    return int(m.group(1), 16), max(addrs) + 4, m.group(2)


def loop_heads(body, callee=None, insn=None, reads=None):
    """Targets of backward branches in body whose instruction calls callee or is insn, or
    (reads) whose loop reads that system register (a call LTO inlined)."""
    lines = {int(a, 16): text for a, text in
             re.findall(r"^\s*([0-9a-f]+):\s+(?:[0-9a-f]{4} ?){1,2}\s+(.*)$", body, re.M)}
    heads, loops = set(), []
    for addr, text in lines.items():
        m = re.match(r"b\S*(?:\.n|\.w)?\s+([0-9a-f]+) <", text)
        if m and int(m.group(1), 16) <= addr:
            heads.add(int(m.group(1), 16))
            loops.append((int(m.group(1), 16), addr))
    pick = {a for a in heads if a in lines and (
        (callee and re.match(rf"bl\s+[0-9a-f]+ <{callee}>", lines[a])) or
        (insn and lines[a].split()[0] == insn))}
    if reads:
        pick |= {t for t, end in loops
                 if any(reads in lines[a] for a in lines if t <= a <= end)}
    if insn:  # a WFE loop's head is the test before the wfe: take the wfe itself
        pick |= {a for a, t in lines.items() if t.split()[0] == insn}
    return pick


def mark(q):
    """The exec log's end, once it has been still for a moment (the FIQs logged)."""
    size = -1
    while size != q.log.stat().st_size:
        size = q.log.stat().st_size
        q.read(0.3)
    return size


def trace(q, start, end):
    """[(cpu, pc)] between two marks."""
    with open(q.log, "rb") as f:
        f.seek(start)
        data = f.read(end - start)
    return [(int(m.group(1)), int(m.group(2), 16))
            for m in map(TRACE.match, data.splitlines()) if m]


def split_episodes(pcs, vector, returns):
    """Each FIQ's pcs, vector to the exception return taken (as bench.episodes counts)."""
    eps, cur, prev = [], None, None
    for pc in pcs:
        if cur is not None and prev in returns and pc != prev + 4:
            eps.append(cur)
            cur = None
        if cur is None:
            if pc == vector:
                cur = [pc]
        else:
            cur.append(pc)
        prev = pc
    return eps


def without_wait(ep, heads):
    """(instructions, passes) of an episode without its wait: what runs before the loop's
    head is first reached and from its last pass on (a pass's length varies: CPU 0's poll
    skips the CPUs that have answered)."""
    at = [i for i, pc in enumerate(ep) if pc in heads]
    if not at:
        return len(ep), 0
    return at[0] + len(ep) - at[-1], len(at)


def measure(smp, quick, returns_of, vector_of, platform="virt"):
    import bench  # (bench imports this module): its traced QEMU, objdump and make
    p = PLATFORMS[platform]
    build_dir = ROOT / (f"build/bench-smp{smp}" if platform == "virt" else
                        f"build/bench-{platform}-smp{smp}")
    bench.sh("make", "-s", "-C", str(ROOT), p["guests"])
    bench.sh("make", "-s", "-C", str(ROOT), "image", f"PLATFORM={platform}", f"SMP={smp}",
             "BOOT_DELAY_MS=0",
             f"BUILD={build_dir.relative_to(ROOT)}", f"KERNEL={p['guest']}")
    elf = build_dir / "fiqmon.elf"
    dis = bench.sh(p["tools"] + "objdump", "-d", str(elf))
    park = function(dis, p["park"])
    roundup = function(dis, "call_others")
    poll_heads = loop_heads(roundup[2], callee="platform_ticks", reads="cntpct_el0")
    # its returns (an early one too): the roundup ends at the first taken after its start
    roundup_rets = {int(a, 16) for a in re.findall(
        r"^\s*([0-9a-f]+):\s+\S+\s+(?:pop\s+\{[^}]*pc\}|ret\b)", roundup[2], re.M)}
    wfe_heads = loop_heads(function(dis, "platform_fiq_full")[2], insn="wfe")
    if not poll_heads or not wfe_heads:  # (the disassembly changed shape: fix the finder)
        raise RuntimeError(f"loop heads not found: {poll_heads} {wfe_heads}")
    vector, returns = vector_of(elf), returns_of(elf)
    workdir = Path(tempfile.mkdtemp(prefix="fiqmon-bench-smp-"))
    console = workdir / "console.log"
    lo, hi = park[:2]
    run = bench.TracedQemu(platform, build_dir, workdir=workdir, image="fiqmon-image.bin",
                           console=f"file:{console}",
                           extra=["-smp", str(smp),
                                  "-dfilter", f"0..{lo - 1:#x},{hi:#x}..0xffffffff"])
    try:
        deadline = time.monotonic() + 120
        while not (m := re.search(p["ready"],
                                  console.read_bytes() if console.exists() else b"")):
            if time.monotonic() > deadline:
                raise TimeoutError("the smpidle guest did not start")
            run.read(0.05)
        if int(m.group(1)) != smp:
            raise RuntimeError(f"the guest started {m.group(1).decode()} CPUs of {smp}")
        run.send_paced(b"a")  # the line's first noise byte prints the prompt
        m0 = mark(run)
        run.send_paced(b"noise!%&" * (2 if quick else 12))
        m1 = mark(run)
        run.send_paced(KNOCK)
        run.wait_for(rb"fiqmon> ")
        m2 = mark(run)
        run.send_paced(b"halt\r")
        # halted, CPU 0 polls the port inside that FIQ (the log grows): no mark until the end
        run.wait_for(rb"(?s)kernel halted.*fiqmon> ", timeout=60)
        run.send_paced(b"continue\r")
        run.wait_for(rb"(?s)kernel continues.*fiqmon> ", timeout=60)
        m4 = mark(run)
        if b"did not answer" in run.out:
            raise RuntimeError(f"a CPU did not answer the roundup: {run.out[-400:]!r}")
        run.send_paced(b"exit\r")
        noise = [len(e) for e in split_episodes([pc for c, pc in trace(run, m0, m1) if c == 0],
                                                vector, returns)]
        roundup_trace = trace(run, m2, m4)
    finally:
        run.stop()
    # CPU 0: the roundup is call_others (send the SGI, poll for the answers), inside the
    # FIQ that runs `halt`, which then keeps CPU 0 polling the port until `continue`
    cpu0_pcs = [pc for c, pc in roundup_trace if c == 0]
    begin = cpu0_pcs.index(roundup[0])
    end = next(i for i in range(begin, len(cpu0_pcs)) if cpu0_pcs[i] in roundup_rets) + 1
    cpu0 = without_wait(cpu0_pcs[begin:end], poll_heads)
    others = {}
    for cpu in range(1, smp):
        eps = split_episodes([pc for c, pc in roundup_trace if c == cpu], vector,
                             returns)
        if len(eps) != 1:
            raise RuntimeError(f"cpu{cpu}: {len(eps)} FIQs in the roundup, not one")
        others[cpu] = without_wait(eps[0], wfe_heads)
    return {"smp": smp, "noise": {"min": min(noise), "median": statistics.median(noise),
                                  "max": max(noise), "samples": len(noise)},
            "cpu0": {"instructions": cpu0[0], "poll_passes": cpu0[1]},
            "others": {str(k): {"instructions": v[0], "wait_passes": v[1]}
                       for k, v in others.items()}}
