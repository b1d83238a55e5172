# SPDX-License-Identifier: MIT
"""Every core on the one wire (SMP=2, CONSOLE=shared, Debian's kernel, busybox): each CPU
arms its own Hyp registers with the shim when PSCI turns it on, so the kernel's console is
the model on every CPU; two CPUs writing at once, and a knock in the middle, lose and mix
nothing. One boot shared by the checks, in order."""

import re

import pytest

from test_virt_onewire import hyp_counts_of
from test_virt_smp import busybox_machine, cpus
from test_virt_tasks import shell

CPUS = 2
PER_CPU_HYP = re.compile(r"^  cpu(\d) emulated=(\d+) ignored=(\d+) other=(\d+)$", re.M)


@pytest.fixture(scope="module")
def wire2(tmp_path_factory):
    with busybox_machine(tmp_path_factory, CPUS, "-shared", CONSOLE="shared") as fm:
        assert fm.console is fm.debug
        yield fm


def per_cpu_hyp(fm):
    out = fm.cmd("hyp")
    rows = {int(c): (int(e), int(i), int(o)) for c, e, i, o in PER_CPU_HYP.findall(out)}
    assert sorted(rows) == list(range(CPUS)), out
    assert sum(e for e, _, _ in rows.values()) == hyp_counts_of(out)[0], out
    return rows


def test_every_cpu_is_up_and_its_console_goes_through_its_own_shim(wire2):
    fm = wire2
    log = fm.console.log.decode("latin1")
    assert f"smp: Brought up 1 node, {CPUS} CPUs" in log
    fm.knock()
    seen = cpus(fm)
    assert sorted(seen) == list(range(CPUS)), seen
    before = per_cpu_hyp(fm)
    fm.leave()
    # a task on CPU 1 writes its own line: CPU 1's shim trapped those accesses
    assert shell(fm, "taskset 2 sh -c 'echo on-cpu$(cut -d\" \" -f39 /proc/self/stat)'") \
        == "on-cpu1"
    fm.knock()
    after = per_cpu_hyp(fm)
    fm.leave()
    assert after[1][0] > before[1][0] + 7, (before, after)   # at least its 8 bytes
    assert all(i == 0 and o == 0 for _, i, o in after.values()), after


def test_two_cpus_writing_at_once_with_a_knock_in_the_middle_lose_and_mix_nothing(wire2):
    """One writer on each CPU, lines numbered per writer; a knock while both write, a look
    around, `exit`: each writer's lines arrive complete and in order, none inside the
    session (a kernel byte from CPU 1 can no more land in fiqmon's output than CPU 0's)."""
    fm = wire2
    n = 400
    fm.console.forget()
    start = len(fm.console.log)
    fm.console.send((f"taskset 1 sh -c 'for i in $(seq 1 {n}); do echo a-$i; done' & "
                     f"taskset 2 sh -c 'for i in $(seq 1 {n}); do echo b-$i; done'; "
                     f"wait; echo =both=\r").encode())
    fm.console.expect(rb"b-30\r\n", timeout=60)
    fm.knock()               # mid-output: both CPUs' output waits in fiqmon (or the kernel)
    assert re.search(r"pc=[0-9a-f]{8}", fm.cmd("pc")), "pc"
    assert "cpu1" in fm.cmd("cpu")
    lost = re.search(r"^console: backlog=(\d+) tx_lost=(\d+) rx_lost=(\d+)$", fm.cmd("hyp"), re.M)
    assert lost and lost.group(2) == "0", lost and lost.group(0)
    fm.leave()
    fm.console.expect(rb"=both=\r\n", timeout=180)
    log = fm.console.log[start:]
    entered = log.index(b"\r\nfiqmon: entered by knock")
    left = log.index(b"fiqmon: left; the kernel runs on\r\n") + 34
    session = log[entered:left]
    assert not re.search(rb"[ab]-\d", session), session
    rest = log[:entered] + log[left:]
    for writer in (b"a", b"b"):
        got = [int(x) for x in re.findall(rb"(?<![\w-])" + writer + rb"-(\d+)\r\n", rest)]
        assert got == list(range(1, n + 1)), (writer, got[:5], got[-5:], len(got))
