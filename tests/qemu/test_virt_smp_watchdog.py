# SPDX-License-Identifier: MIT
"""Every core's watchdog and per-CPU state on virt (SMP=2, Debian's kernel, busybox): each
online CPU samples its own kernel timer from its own Secure timer FIQ; a lockup on CPU 1
alone is reported naming CPU 1 at the right pc while CPU 0 runs on; `irqs` and `stats`
show each CPU's banked lines and counts. One boot shared by the checks, in order."""

import re

import pytest

from test_virt_smp import _machine, set_online
from test_virt_tasks import shell

PER_CPU_IRQS = re.compile(r"^  cpu(\d) fiq=([0-9a-f]{8}) en=([0-9a-f]{8}) "
                          r"pending=([0-9a-f]{8}) fiqs=(\d+)\r?$", re.M)
PER_CPU_STATS = re.compile(r"^  cpu(\d) fiqs=(\d+) watchdog_samples=(\d+)\r?$", re.M)
CPU_SGI, WATCHDOG_PPI, KERNEL_TIMERS = 14, 29, (1 << 27) | (1 << 30)


@pytest.fixture(scope="module")
def smp2(tmp_path_factory):
    fm, finish = _machine(tmp_path_factory, 2, INITRD="busybox")
    fm.console.expect(r"fiqmon-initramfs-ready", timeout=240)
    fm.console.expect(r"# ", timeout=60)
    fm.serial = 0
    yield fm
    finish()


def stats(fm):
    out = fm.cmd("stats")
    assert out.startswith("fiqs="), out   # the one-CPU lines come first, as they were
    return out, {int(c): (int(f), int(s)) for c, f, s in PER_CPU_STATS.findall(out)}


def test_irqs_shows_each_cpus_banked_lines(smp2):
    smp2.knock()
    out = smp2.cmd("irqs")
    assert "per cpu, private lines 0-31 (a bit each):" in out, out
    rows = {int(c): [int(x, 16) for x in (g, e, p)] + [int(f)]
            for c, g, e, p, f in PER_CPU_IRQS.findall(out)}
    assert sorted(rows) == [0, 1], out
    for cpu, (fiq, en, _, fiqs) in rows.items():
        assert fiq & (1 << CPU_SGI), (cpu, out)            # fiqmon's roundup SGI: group 0
        assert en & KERNEL_TIMERS, (cpu, out)               # the kernel's timer, its own
        assert not fiq & KERNEL_TIMERS, (cpu, out)          # ... group 1
    assert rows[1][3] >= 1, out   # CPU 1 took the sample this listing sent it
    # the watchdog is off: no CPU has its sampling timer enabled
    assert not any(en & (1 << WATCHDOG_PPI) for _, en, _, _ in rows.values()), out
    smp2.leave()


def test_each_online_cpu_is_sampled_and_an_off_cpu_is_not(smp2):
    smp2.knock()
    assert smp2.cmd("watchdog #1").startswith("watchdog=1s ")
    out = smp2.cmd("irqs")
    rows = {int(c): int(e, 16) for c, _, e, _, _ in PER_CPU_IRQS.findall(out)}
    assert all(en & (1 << WATCHDOG_PPI) for en in rows.values()) and len(rows) == 2, out
    _, first = stats(smp2)
    smp2.leave()
    assert shell(smp2, "sleep 1; echo slept") == "slept"  # a second of samples
    smp2.knock()
    out, then = stats(smp2)
    for cpu in (0, 1):
        assert then[cpu][1] - first[cpu][1] >= 5, out   # ~10 a second each, on a slow host
        assert then[cpu][0] > first[cpu][0], out
    smp2.leave()
    set_online(smp2, 1, False)
    smp2.knock()
    out, off = stats(smp2)
    assert re.search(r"^  cpu1 off\r?$", out, re.M) and sorted(off) == [0], out
    assert "per cpu" in smp2.cmd("irqs") and "  cpu1 off" in smp2.cmd("irqs")
    assert "lockups=0" in smp2.cmd("watchdog")
    smp2.leave()
    set_online(smp2, 1, True)
    assert shell(smp2, "cat /sys/devices/system/cpu/online").strip() == "0-1"
    smp2.knock()
    _, back = stats(smp2)
    smp2.leave()
    assert shell(smp2, "sleep 1; echo slept") == "slept"
    smp2.knock()
    out, later = stats(smp2)
    assert later[1][1] - back[1][1] >= 5, out   # watched again once it is back
    assert "lockups=0" in smp2.cmd("watchdog")
    smp2.leave()


def test_a_lockup_on_cpu1_alone_is_reported_and_cpu0_runs_on(smp2):
    """sync(2) made `cpsid i; b .` with fiqmon's mw, called by a task pinned to CPU 1: that
    CPU spins with interrupts masked; CPU 0 (the shell) goes on."""
    smp2.knock()
    assert "watchdog=1s" in smp2.cmd("watchdog")
    m = re.match(r"([0-9a-f]{8}) ", smp2.cmd("sym sys_sync"))
    assert m, "sys_sync in kallsyms"
    spin = int(m.group(1), 16)
    assert smp2.cmd(f"mw {spin:x} f10c0080") == ""       # cpsid i
    assert smp2.cmd(f"mw {spin + 4:x} eafffffe") == ""   # b .
    smp2.leave()
    # the shell stays on CPU 0 (a task left queued on the wedged CPU would never run again)
    assert shell(smp2, "taskset -p 1 $$ >/dev/null; echo pinned") == "pinned"
    smp2.console.send(b"taskset 2 sync &\r")
    text, _ = smp2.debug.expect(r"fiqmon: watchdog: still watching", timeout=30)
    assert re.search(r"fiqmon: watchdog: hard lockup: cpu1 has not taken its timer interrupt "
                     r"for 1 s\r\n", text), text
    m = re.search(r"fiqmon: watchdog: cpu(\d) pc=([0-9a-f]{8}) lr=[0-9a-f]{8} "
                  r"sp=[0-9a-f]{8} \((\w+)\)", text)
    assert m and m.group(1) == "1" and m.group(3) == "svc", text
    assert spin <= int(m.group(2), 16) < spin + 8, (hex(spin), text)
    assert len(re.findall(r"fiqmon: watchdog: cpu\d pc=", text)) == 1, "cpu0 is not named"
    assert re.search(r"^pc: sys_sync\+0x4/0x[0-9a-f]+\r$", text, re.M), text
    bt = text.split("fiqmon: watchdog: backtrace")[1].split("fiqmon: watchdog: kernel log")[0]
    assert re.search(r"#0  [0-9a-f]{8} sys_sync\+0x4", bt), bt
    # CPU 0 ran on all along and still does: the shell answers
    assert shell(smp2, "echo alive") == "alive"
    assert b"hard lockup" not in smp2.debug.received_within(1.5), "one report per lockup"
    smp2.knock()
    assert "lockups=1" in smp2.cmd("watchdog")
    listing = smp2.cmd("cpu")
    # released after the report: back in its loop, sampled there
    m = re.search(r"  cpu1 running pc=([0-9a-f]{8}) \(svc\)", listing)
    assert m and spin <= int(m.group(1), 16) < spin + 8, listing
    assert re.search(r"\* cpu0 stopped pc=", listing), listing
    out, per = stats(smp2)
    assert sorted(per) == [0, 1], out   # CPU 1 still watched (quiet: one report per lockup)
    # the wedged CPU, IRQs masked, still answers the roundup (a FIQ): halt stops both
    assert "stop reason: knock" in smp2.cmd("halt")
    listing = smp2.cmd("cpu")
    assert "no answer" not in listing, listing
    m = re.search(r"  cpu1 stopped pc=([0-9a-f]{8}) \(svc\)", listing)
    assert m and spin <= int(m.group(1), 16) < spin + 8, listing
    assert "kernel continues" in smp2.cmd("continue")
    smp2.leave()
    assert shell(smp2, "echo still-alive") == "still-alive"
    assert b"hard lockup" not in smp2.debug.log.split(b"still watching", 1)[1]
