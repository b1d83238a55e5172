# SPDX-License-Identifier: MIT
"""Every core's watchdog and per-CPU state on virt (SMP=4, Debian's kernel, busybox): each
online CPU samples its own kernel timer from its own Secure timer FIQ; a lockup on CPU 2
alone is reported naming CPU 2 at the right pc while the others run on; `irqs` and `stats`
show each CPU's banked lines and counts. One boot shared by the checks, in order."""

import re

import pytest

from test_virt_smp import busybox_machine, set_online
from test_virt_tasks import shell

PER_CPU_IRQS = re.compile(r"^  cpu(\d) fiq=([0-9a-f]{8}) en=([0-9a-f]{8}) "
                          r"pending=([0-9a-f]{8}) fiqs=(\d+)\r?$", re.M)
PER_CPU_STATS = re.compile(r"^  cpu(\d) fiqs=(\d+) watchdog_samples=(\d+)\r?$", re.M)
CPU_SGI, WATCHDOG_PPI, KERNEL_TIMERS = 14, 29, (1 << 27) | (1 << 30)
CPUS, WEDGED = 4, 2
# A CPU spinning with IRQs masked also holds every task whose wakeup the kernel queued to it
# (the scheduler's wake list, delivered by an IPI the CPU never takes): without isolcpus the
# tty's unbound worker was one, half the time, and the shell on CPU 0 never saw its input
# (docs/every-core.md). Isolated, CPU WEDGED runs only what is pinned to it.
KERNEL_ARGS = f"isolcpus={WEDGED}"


@pytest.fixture(scope="module")
def smp4(tmp_path_factory):
    with busybox_machine(tmp_path_factory, CPUS, KERNEL_ARGS=KERNEL_ARGS) as fm:
        yield fm


def said(fm, command):
    """The last line a shell command printed: with four CPUs on two host cores the kernel's
    own console messages (`hrtimer: interrupt took ...`) may come in between."""
    return shell(fm, command).splitlines()[-1]


def stats(fm):
    out = fm.cmd("stats")
    assert out.startswith("fiqs="), out   # the one-CPU lines come first, as they were
    return out, {int(c): (int(f), int(s)) for c, f, s in PER_CPU_STATS.findall(out)}


def test_irqs_shows_each_cpus_banked_lines(smp4):
    smp4.knock()
    out = smp4.cmd("irqs")
    assert "per cpu, private lines 0-31 (a bit each):" in out, out
    rows = {int(c): [int(x, 16) for x in (g, e, p)] + [int(f)]
            for c, g, e, p, f in PER_CPU_IRQS.findall(out)}
    assert sorted(rows) == list(range(CPUS)), out
    for cpu, (fiq, en, _, fiqs) in rows.items():
        assert fiq & (1 << CPU_SGI), (cpu, out)            # fiqmon's roundup SGI: group 0
        assert en & KERNEL_TIMERS, (cpu, out)               # the kernel's timer, its own
        assert not fiq & KERNEL_TIMERS, (cpu, out)          # ... group 1
    assert all(rows[c][3] >= 1 for c in range(1, CPUS)), out   # each took the sample sent
    # the watchdog is off: no CPU has its sampling timer enabled
    assert not any(en & (1 << WATCHDOG_PPI) for _, en, _, _ in rows.values()), out
    smp4.leave()


def test_each_online_cpu_is_sampled_and_an_off_cpu_is_not(smp4):
    smp4.knock()
    assert smp4.cmd("watchdog #1").startswith("watchdog=1s ")
    out = smp4.cmd("irqs")
    rows = {int(c): int(e, 16) for c, _, e, _, _ in PER_CPU_IRQS.findall(out)}
    assert all(en & (1 << WATCHDOG_PPI) for en in rows.values()) and len(rows) == CPUS, out
    _, first = stats(smp4)
    smp4.leave()
    assert said(smp4, "sleep 1; echo slept") == "slept"  # a second of samples
    smp4.knock()
    out, then = stats(smp4)
    for cpu in range(CPUS):
        assert then[cpu][1] - first[cpu][1] >= 5, out   # ~10 a second each, on a slow host
        assert then[cpu][0] > first[cpu][0], out
    smp4.leave()
    set_online(smp4, 1, False)
    smp4.knock()
    out, off = stats(smp4)
    assert re.search(r"^  cpu1 off\r?$", out, re.M) and sorted(off) == [c for c in range(CPUS) if c != 1], out
    assert "per cpu" in smp4.cmd("irqs") and "  cpu1 off" in smp4.cmd("irqs")
    assert "lockups=0" in smp4.cmd("watchdog")
    smp4.leave()
    set_online(smp4, 1, True)
    assert said(smp4, "cat /sys/devices/system/cpu/online").strip() == f"0-{CPUS - 1}"
    smp4.knock()
    _, back = stats(smp4)
    smp4.leave()
    assert said(smp4, "sleep 1; echo slept") == "slept"
    smp4.knock()
    out, later = stats(smp4)
    assert later[1][1] - back[1][1] >= 5, out   # watched again once it is back
    assert "lockups=0" in smp4.cmd("watchdog")
    smp4.leave()


def test_a_lockup_on_one_cpu_alone_is_reported_and_the_others_run_on(smp4):
    """sync(2) made `cpsid i; b .` with fiqmon's mw, called by a task pinned to CPU WEDGED:
    that CPU spins with interrupts masked; CPU 0 (the shell) and the others go on."""
    smp4.knock()
    assert "watchdog=1s" in smp4.cmd("watchdog")
    m = re.match(r"([0-9a-f]{8}) ", smp4.cmd("sym sys_sync"))
    assert m, "sys_sync in kallsyms"
    spin = int(m.group(1), 16)
    assert smp4.cmd(f"mw {spin:x} f10c0080") == ""       # cpsid i
    assert smp4.cmd(f"mw {spin + 4:x} eafffffe") == ""   # b .
    smp4.leave()
    # the kernel's own RCU stall detector would see the wedged CPU too, after ~20 s, and fill
    # the console with its dumps (waiting 10 s each for a backtrace IPI that the CPU, IRQs
    # masked, never takes): quiet it, the checks are about fiqmon's report
    assert said(smp4, "echo 1 > /sys/module/rcupdate/parameters/rcu_cpu_stall_suppress; "
                       "cat /sys/module/rcupdate/parameters/rcu_cpu_stall_suppress") == "1"
    # the shell stays on CPU 0 (a task left queued on the wedged CPU would never run again)
    assert said(smp4, "taskset -p 1 $$ >/dev/null; echo pinned") == "pinned"
    assert KERNEL_ARGS in said(smp4, "cat /proc/cmdline")
    smp4.console.send(b"taskset %d sync &\r" % (1 << WEDGED))
    text, _ = smp4.debug.expect(r"fiqmon: watchdog: still watching", timeout=30)
    assert re.search(rf"fiqmon: watchdog: hard lockup: cpu{WEDGED} has not taken its timer "
                     r"interrupt "
                     r"for 1 s\r\n", text), text
    m = re.search(r"fiqmon: watchdog: cpu(\d) pc=([0-9a-f]{8}) lr=[0-9a-f]{8} "
                  r"sp=[0-9a-f]{8} \((\w+)\)", text)
    assert m and m.group(1) == str(WEDGED) and m.group(3) == "svc", text
    assert spin <= int(m.group(2), 16) < spin + 8, (hex(spin), text)
    assert len(re.findall(r"fiqmon: watchdog: cpu\d pc=", text)) == 1, "no other cpu is named"
    assert re.search(r"^pc: sys_sync\+0x4/0x[0-9a-f]+\r$", text, re.M), text
    bt = text.split("fiqmon: watchdog: backtrace")[1].split("fiqmon: watchdog: kernel log")[0]
    assert re.search(r"#0  [0-9a-f]{8} sys_sync\+0x4", bt), bt
    # CPU 0 ran on all along and still does: the shell answers; so do CPUs 1 and 3
    assert said(smp4, "echo alive") == "alive"
    for cpu in (c for c in range(1, CPUS) if c != WEDGED):
        assert said(smp4, f"taskset {1 << cpu} echo on-cpu{cpu}") == f"on-cpu{cpu}"
    assert b"hard lockup" not in smp4.debug.received_within(1.5), "one report per lockup"
    smp4.knock()
    assert "lockups=1" in smp4.cmd("watchdog")
    listing = smp4.cmd("cpu")
    # released after the report: back in its loop, sampled there
    m = re.search(rf"  cpu{WEDGED} running pc=([0-9a-f]{{8}}) \(svc\)", listing)
    assert m and spin <= int(m.group(1), 16) < spin + 8, listing
    assert re.search(r"\* cpu0 stopped pc=", listing), listing
    out, per = stats(smp4)
    assert sorted(per) == list(range(CPUS)), out   # still watched (quiet: one report a lockup)
    # the wedged CPU, IRQs masked, still answers the roundup (a FIQ): halt stops both
    assert "stop reason: knock" in smp4.cmd("halt")
    listing = smp4.cmd("cpu")
    assert "no answer" not in listing, listing
    m = re.search(rf"  cpu{WEDGED} stopped pc=([0-9a-f]{{8}}) \(svc\)", listing)
    assert m and spin <= int(m.group(1), 16) < spin + 8, listing
    assert "kernel continues" in smp4.cmd("continue")
    smp4.leave()
    assert said(smp4, "echo still-alive") == "still-alive"
    assert b"hard lockup" not in smp4.debug.log.split(b"still watching", 1)[1]
