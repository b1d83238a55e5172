# SPDX-License-Identifier: MIT
"""Breakpoints with two CPUs (virt, HYP=1, SMP=2, Debian's kernel at the busybox shell): a
breakpoint is in every CPU's debug unit; the CPU that hits it is stopped, the monitor (on
CPU 0) rounds up the other, names the CPU that stopped and shows its context; continue
steps that CPU over the breakpoint and releases both (issue 19, item 5)."""

import re

import pytest

from test_gdb import read_until
from test_virt_breakpoints import STOP, cmd, finish, gdb_async, gdb_stop_on, \
    nodename_word, step_then_continue, sym, wait_stop
from test_virt_smp import busybox_machine, cpus
from test_virt_tasks import shell


@pytest.fixture(scope="module")
def smp_bp(tmp_path_factory):
    with busybox_machine(tmp_path_factory, 2, "bpsmp", HYP=1) as fm:
        yield fm


def test_a_breakpoint_stops_the_cpu_that_hits_it_and_rounds_up_the_other(smp_bp):
    """bp sys_sync, then `sync` pinned to CPU 1, then to CPU 0: each stop line names the
    CPU that ran it, at sys_sync; the shell's cpu is that CPU (regs, bt are its own), the
    other CPU is stopped too; continue lets each `sync` complete, once (no second stop)."""
    fm = smp_bp
    fm.knock()
    addr = sym(fm, "sys_sync")
    assert fm.cmd("bp sys_sync").startswith("breakpoint 1 at ")
    fm.leave()
    for cpu in (1, 0, 1):
        fm.console.forget()
        fm.console.send(f"taskset {1 << cpu} sync; echo synced-on-$((40+{cpu}))\r".encode())
        m = wait_stop(fm)
        assert m.group(2) == b"1" and m.group(7) == str(cpu).encode(), m.group(0)
        assert int(m.group(8), 16) == addr and m.group(9) == b"sys_sync", m.group(0)
        seen = cpus(fm)
        assert seen[cpu] == ("stopped", addr) or seen[cpu][:2] == ("stopped", addr), seen
        assert seen[1 - cpu][0] == "stopped", seen      # rounded up
        assert re.search(rf"^\* cpu{cpu} ", fm.cmd("cpu"), re.M)
        assert f"pc={addr:08x}" in fm.cmd("regs")
        bt = fm.cmd("bt")
        assert "sys_sync" in bt and "ret_fast_syscall" in bt, bt
        # halted: the shell waits in the syscall
        assert b"synced-on" not in fm.console.received_within(0.5)
        assert "kernel continues" in fm.cmd("continue")
        fm.leave()
        fm.console.expect(rf"synced-on-{40 + cpu}".encode(), timeout=30)
        # stepped over, not stopped again (the stop line would come on the debug port)
        assert not STOP.search(fm.debug.received_within(0.3).decode("latin1"))
    fm.knock()
    assert cmd(fm, "bc 1") == ""
    fm.leave()
    assert shell(fm, "taskset 2 sync; echo none-armed") == "none-armed"


def test_ss_steps_the_cpu_that_stopped(smp_bp):
    """ss on the stopped CPU 1 steps CPU 1: the stop line names it, one instruction on."""
    fm = smp_bp
    fm.knock()
    addr = sym(fm, "sys_sync")
    fm.cmd("bp sys_sync")
    fm.leave()
    fm.console.send(b"taskset 2 sync; echo stepped-on-$((5*5))\r")
    m = wait_stop(fm)
    assert m.group(7) == b"1", m.group(0)
    step_then_continue(fm, addr, 1, rb"stepped-on-25")


def test_gdb_watch_stops_the_write_made_on_cpu1(smp_bp):
    """gdb: watch on the nodename (in every CPU's unit), `hostname` run on CPU 1: the stop
    is thread 2's, with the old and new value; delete, detach: the command completes."""
    fm = smp_bp
    word = nodename_word(fm, "cccccccccccc")
    out = gdb_stop_on(fm, f"watch *(int *){word:#x}",
                      b"taskset 2 hostname dddddddddddd; echo renamed-$((2*3))\r",
                      after=("info threads",))
    assert "Old value = 1667457891" in out and "New value = " in out, out   # 0x63636363
    assert re.search(r"^\*\s+2\s+Thread 2 \(CPU 1 \[halted\]\)", out, re.M), out
    fm.console.expect(rb"renamed-6", timeout=30)


@pytest.mark.parametrize("command", ["break", "hbreak"])
def test_gdb_stops_on_the_thread_that_hit_it_and_steps_that_thread(smp_bp, command):
    """gdb: break (fiqmon's BKPT in the text: while CPU 1 steps over it a breakpoint
    register stands in for it on CPU 0) or hbreak on sys_sync, `sync` on CPU 1: the stop
    is thread 2's (CPU 1), stepi steps
    thread 2 (its pc moves on from the breakpoint; GDB lets thread 1 run meanwhile, its
    default), memory reads follow the thread (GDB reads the user stack of CPU 1's task to
    step), delete, detach: the command completes."""
    fm = smp_bp
    fm.knock()
    addr = sym(fm, "sys_sync")
    fm.leave()
    proc = gdb_async(fm, f"x/1xw {addr:#x}", "set breakpoint always-inserted on",
                     f"{command} *{addr:#x}", "echo armed\\n", "continue", "p/x $pc",
                     "info threads", "stepi", "p/x $pc", "stepi", "p/x $pc", "thread 1",
                     "p/x $pc", "thread 2", "delete", f"x/1xw {addr:#x}", "detach")
    got = read_until(proc, b"armed", 60)
    fm.console.forget()
    fm.console.send(b"taskset 2 sync; echo gdb-smp-$((6*7))\r")
    out = got + finish(fm, proc)
    assert re.search(r"Thread 2 .*hit Hardware assisted breakpoint 1", out) or \
        re.search(r"\[Switching to Thread 2\]", out), out
    printed = [int(v, 16) for v in re.findall(r"^(?:\(gdb\) )*\$\d+ = (0x[0-9a-f]+)$", out, re.M)]
    assert len(printed) == 4 and printed[0] == addr, out
    assert printed[1] != addr and printed[2] != printed[1], out     # thread 2 stepped twice
    assert printed[3] != printed[2], out     # thread 1 is CPU 0, elsewhere (it ran on)
    assert re.search(r"^\*\s+2\s+Thread 2 \(CPU 1 \[halted\]\)", out, re.M), out
    text = re.findall(rf"^(?:\(gdb\) )*{addr:#x}:\s+(0x[0-9a-f]+)$", out, re.M)
    assert len(text) == 2 and text[0] == text[1] and int(text[0], 16) != 0xe1200f71, out
    fm.console.expect(rb"gdb-smp-42", timeout=30)
    fm.knock()
    assert cmd(fm, "bl") == "0 of 6 breakpoints, 4 watchpoints"
    fm.leave()


def test_a_cpu_that_is_off_is_not_stepped_or_selected(smp_bp):
    """CPU 1 taken offline by the kernel: the shell cannot select it (so ss cannot step it),
    GDB's vCont;s:2 and Hg2 answer E03 and nothing is armed; back online, it stops again."""
    from test_gdb import gdb
    fm = smp_bp
    # (the last line: the kernel's "CPU1 killed." may come first)
    online = "/sys/devices/system/cpu/cpu1/online"
    assert shell(fm, f"echo 0 > {online}; nproc").splitlines()[-1] == "1"
    try:
        fm.knock()
        assert fm.cmd("cpu 1").strip().splitlines()[-1] == "error: cpu 1 is off"
        assert "kernel continues" in fm.cmd("continue")
        fm.leave()
        fm.debug.close()
        out = gdb(fm, None, "maint packet vCont;s:2", "maint packet Hg2", "info threads",
                  "detach", timeout=60)
        fm.attach_debug()
        assert out.count('received: "E03"') == 2, out
        assert re.search(r"^\*\s+1\s+Thread 1 \(CPU 0 \[halted\]\)", out, re.M), out
        assert not re.search(r"Thread 2 ", out), out
        fm.knock()
        assert cmd(fm, "bl") == "0 of 6 breakpoints, 4 watchpoints"
        fm.leave()
    finally:
        assert shell(fm, f"echo 1 > {online}; nproc").splitlines()[-1] == "2"
    fm.knock()
    try:
        assert fm.cmd("cpu 1").startswith("fiqmon: every cpu halted")
    finally:
        fm.cmd("continue")
        fm.leave()
