# SPDX-License-Identifier: MIT
"""Every core on virt (SMP=N): fiqmon starts the other CPUs' wait, is the PSCI firmware
Debian's kernel brings them up with, and (when the kernel takes one offline and back)
parks and restarts it. One boot per CPU count, shared by its checks; one machine at a time."""

import contextlib
import re
import shutil
import subprocess

import pytest

from conftest import _booter
from harness import KNOCK, PROMPT, ROOT, tokens
from test_gdb import gdb
from test_virt_tasks import shell


def _machine(tmp_path_factory, smp, variant="", **run):
    subprocess.run(["make", "-s", "-C", str(ROOT), "linux", "initramfs"], check=True)
    boot, finish = _booter(tmp_path_factory.mktemp(f"smp{smp}"))
    try:
        fm = boot("virt", f"smp{smp}{variant}", BOOT_DELAY_MS=0, SMP=smp, KERNEL="debian", **run)
    except BaseException:
        finish()  # (a machine that did not come up is stopped all the same)
        raise
    return fm, finish


@contextlib.contextmanager
def busybox_machine(tmp_path_factory, smp, variant="", **run):
    """Debian's kernel on smp CPUs at the busybox prompt; stopped at the end, and when its
    setup fails too (a QEMU left running slows all that follows)."""
    fm, finish = _machine(tmp_path_factory, smp, variant, INITRD="busybox", **run)
    try:
        fm.console.expect(r"fiqmon-initramfs-ready", timeout=240)
        fm.console.expect(r"# ", timeout=60)
        fm.serial = 0
        yield fm
    finally:
        finish()


@pytest.fixture(scope="module")
def smp2(tmp_path_factory):
    """Debian's kernel on 2 CPUs, no root file system: it panics, fiqmon's shell is idle."""
    fm, finish = _machine(tmp_path_factory, 2)
    try:  # a failed setup stops its machine too: a QEMU left running slows all that follows
        fm.console.expect(r"Kernel panic - not syncing: VFS", timeout=120)
        yield fm
    finally:
        finish()


@pytest.fixture(scope="module")
def smp4(smp2, tmp_path_factory):
    """Debian's kernel on 4 CPUs at the busybox shell on its console (after smp2's checks:
    it depends on smp2 only so that the two are not running at once)."""
    smp2.close()
    with busybox_machine(tmp_path_factory, 4) as fm:
        yield fm


def set_online(fm, cpu, on):
    """Writes the CPU's online file; the kernel's answer is the shell's exit status."""
    out = shell(fm, f"echo {int(on)} > /sys/devices/system/cpu/cpu{cpu}/online; echo rc=$?")
    assert out.splitlines()[-1] == "rc=0", out


CPU_LINE = re.compile(r"^([ *]) cpu(\d) (running|stopped|off)(?: pc=([0-9a-f]{8}) \((\w+)\))?",
                      re.M)


def cpus(fm):
    """cpu's listing: {index: (state, pc or None, mode or None)}; the selected one first."""
    out = fm.cmd("cpu")
    rows = CPU_LINE.findall(out)
    assert rows, out
    return {int(n): (st, int(pc, 16) if pc else None, mode or None) for _, n, st, pc, mode in rows}


def test_smp2_kernel_brings_up_both_cpus_with_fiqmons_psci(smp2):
    log = smp2.console.log.decode("latin1")
    assert "psci: PSCIv1.0 detected in firmware." in log
    assert "smp: Brought up 1 node, 2 CPUs" in log


def test_smp2_cpu_lists_both_cpus_at_kernel_pcs_without_stopping_them(smp2):
    smp2.knock()
    seen = cpus(smp2)
    assert sorted(seen) == [0, 1], seen
    assert seen[0][0] == "stopped"            # the one the monitor runs on, interrupted
    assert seen[1][0] == "running", seen      # sampled by a FIQ that let it go
    assert all(pc >= 0xC0000000 for _, pc, _ in seen.values()), seen
    # pc also samples every CPU, the asynchronous shell stays asynchronous
    try:
        out = smp2.cmd("pc")
    finally:
        smp2.leave()
    # in the kernel's text, or at its high vectors when the sample caught an interrupt
    assert re.search(r"  cpu1 running pc=(c[0-9a-f]{7}|ffff[0-9a-f]{4})", out), out


def test_smp2_selecting_cpu1_halts_both_and_shows_its_registers(smp2):
    smp2.knock()
    out = smp2.cmd("cpu 1")
    m = re.search(r"cpu1 selected: pc=([0-9a-f]{8})", out)
    assert m and "every cpu halted" in out, out
    pc1 = int(m.group(1), 16)
    seen = cpus(smp2)
    assert seen[1][:2] == ("stopped", pc1) and seen[0][0] == "stopped", seen
    regs = smp2.cmd("regs")
    assert f"pc={pc1:08x}" in regs, regs
    bt = smp2.cmd("bt -a", timeout=30)
    assert "cpu0:" in bt and "cpu1:" in bt, bt
    assert "kernel continues" in smp2.cmd("continue")
    seen = cpus(smp2)
    assert seen[1][0] == "running", seen
    smp2.leave()


THREAD_LINE = re.compile(r"^(\*?)\s+(\d+)\s+Thread (\d+) \(CPU (\d) \[(\w+)\]\)\s+"
                         r"(0x[0-9a-f]+) in ", re.M)


def test_smp2_gdb_shows_each_cpu_as_a_thread_with_its_own_registers(smp2):
    """GDB's threads are the CPUs, numbered as QEMU's gdbstub does (CPU n is thread n + 1):
    info threads lists both, stopped at different kernel pcs; thread 2's registers and
    backtrace are CPU 1's, as fiqmon's own `cpu` listing shows it; after detach both run."""
    assert shutil.which("gdb-multiarch"), "gdb-multiarch is required (make deps)"
    smp2.debug.close()                    # the port is GDB's now; GDB's packet is the knock
    out = gdb(smp2, None, "info threads", "monitor cpu", "thread 2", "bt 4", "p/x $pc",
              "p/x $sp", "thread 1", "p/x $pc", "detach", setup=["set architecture arm"],
              timeout=120)
    smp2.attach_debug()
    threads = THREAD_LINE.findall(out)
    assert [(cur, int(i), int(t), int(c), st) for cur, i, t, c, st, _ in threads] == [
        ("*", 1, 1, 0, "halted"), ("", 2, 2, 1, "halted")], out
    pcs = [int(pc, 16) for *_, pc in threads]
    assert all(pc >= 0xC0000000 for pc in pcs) and pcs[0] != pcs[1], out
    # fiqmon's listing (monitor cpu, inside the session) has CPU 1 stopped at thread 2's pc
    assert re.search(rf"cpu1 stopped pc={pcs[1]:08x}", out), out
    # thread 2's backtrace starts at its own pc (how far GDB unwinds without a vmlinux is
    # its heuristics' business: in a leaf function it may stop at #0); its registers are its own
    bt = out[out.index("[Switching to thread 2"):out.index("$1 = ")]
    frames = [int(a, 16) for a in re.findall(r"^#\d+\s+(0x[0-9a-f]+) in ", bt, re.M)]
    assert frames[0] == pcs[1] and all(a >= 0xC0000000 for a in frames), out
    printed = [int(v, 16) for v in re.findall(r"^\$\d+ = (0x[0-9a-f]+)", out, re.M)]
    assert printed[0] == pcs[1] and printed[2] == pcs[0], out
    assert printed[1] >= 0xC0000000, out  # CPU 1's kernel stack
    assert "detached" in out.lower() or "Detaching" in out, out
    # both CPUs were released: the shell's sample finds CPU 1 running again
    smp2.knock()
    try:
        seen = cpus(smp2)
    finally:
        smp2.leave()
    assert seen[0][0] == "stopped" and seen[1][0] == "running", seen


def test_smp4_kernel_brings_up_4_cpus(smp4):
    log = smp4.console.log.decode("latin1")
    assert "smp: Brought up 1 node, 4 CPUs" in log
    assert shell(smp4, "cat /sys/devices/system/cpu/online").strip() == "0-3"


def test_smp4_cpu_goes_offline_and_online_again(smp4):
    """CPU_OFF parks the CPU (AFFINITY_INFO then says off, which the kernel waits for);
    CPU_ON restarts it from the kernel's entry point with the MMU off again."""
    set_online(smp4, 2, False)
    assert shell(smp4, "cat /sys/devices/system/cpu/online").strip() == "0-1,3"
    assert shell(smp4, "nproc").strip() == "3"  # the scheduler runs on the three left
    # the kernel polls AFFINITY_INFO until fiqmon says the CPU is off
    said = shell(smp4, "dmesg | grep -i 'cpu2'")
    assert re.search(r"CPU2 killed", said), said
    set_online(smp4, 2, True)
    assert shell(smp4, "cat /sys/devices/system/cpu/online").strip() == "0-3"
    # twice: a CPU that was offlined comes back again (fresh stack, fresh entry)
    for _ in range(2):
        set_online(smp4, 1, False)
        set_online(smp4, 1, True)
    assert shell(smp4, "cat /sys/devices/system/cpu/online").strip() == "0-3"
    assert shell(smp4, "grep -c ^processor /proc/cpuinfo").strip() == "4"


def test_smp4_halt_silences_every_cpu_and_continue_resumes(smp4):
    """A shell loop floods the console from whichever CPU runs it; halting CPU 0 alone would
    leave it printing. Halted, nothing arrives; after continue the loop finishes."""
    smp4.console.forget()
    smp4.console.send(b"i=0; while [ $i -lt 6000 ]; do echo tick$i; i=$((i+1)); done; "
                      b"echo loop-done\r")
    smp4.console.expect(r"tick200\r", timeout=60)
    smp4.knock()
    assert "stop reason: knock" in smp4.cmd("halt")
    smp4.console.drain(0.3)              # what was in flight before the roundup
    seen = cpus(smp4)
    assert [seen[i][0] for i in range(4)] == ["stopped"] * 4, seen
    silent = smp4.console.received_within(1.5)
    assert silent == b"", f"a halted CPU printed {silent[:200]!r}"
    assert "kernel continues" in smp4.cmd("continue")
    smp4.console.expect(r"loop-done", timeout=120)
    smp4.leave()
    assert shell(smp4, "echo alive") == "alive"


def test_smp4_an_offline_cpu_shows_as_off_and_is_not_rounded_up(smp4):
    set_online(smp4, 3, False)
    smp4.knock()
    assert "stop reason: knock" in smp4.cmd("halt")
    seen = cpus(smp4)
    assert seen[3] == ("off", None, None), seen
    assert [seen[i][0] for i in range(3)] == ["stopped"] * 3, seen
    assert "no answer" not in smp4.cmd("cpu")
    assert smp4.cmd("cpu 3").startswith("error: cpu 3 is off")
    assert "kernel continues" in smp4.cmd("continue")
    smp4.leave()
    set_online(smp4, 3, True)
    assert shell(smp4, "cat /sys/devices/system/cpu/online").strip() == "0-3"


def test_smp4_entry_halt_a_knock_stops_every_cpu_until_exit(smp4):
    """`entry halt` (kdb's way, `make ENTRY=halt` at build time): the knock itself rounds up
    every CPU, so the console falls silent at once, with no `halt`; `exit` releases them all
    and the loop finishes. `entry async` (the default) restores the asynchronous shell."""
    smp4.knock()
    assert smp4.cmd("entry") == "entry=async (the kernel runs beside the shell)\n"
    assert smp4.cmd("entry halt").startswith("entry=halt")
    assert smp4.cmd("entry stop").startswith("error: bad entry 'stop'")
    smp4.leave()
    try:
        smp4.console.forget()
        smp4.console.send(b"i=0; while [ $i -lt 6000 ]; do echo tock$i; i=$((i+1)); done; "
                          b"echo loop-done\r")
        smp4.console.expect(r"tock200\r", timeout=60)
        smp4.debug.send(KNOCK)
        smp4.debug.expect(r"fiqmon: entered by knock at pc=[0-9a-f]{8} \(\w+\)\r\n")
        smp4.debug.expect(r"fiqmon: every cpu halted \(entry halt\); 'continue' resumes\r\n")
        smp4.debug.expect(re.escape(PROMPT))
        smp4.console.drain(0.3)              # what was in flight before the roundup
        seen = cpus(smp4)
        assert [seen[i][0] for i in range(4)] == ["stopped"] * 4, seen
        silent = smp4.console.received_within(1.5)
        assert silent == b"", f"a halted CPU printed {silent[:200]!r}"
        smp4.leave()
        smp4.console.expect(r"loop-done", timeout=120)
    finally:
        smp4.knock()
        smp4.cmd("entry async")
        smp4.leave()
    assert shell(smp4, "echo alive") == "alive"


def test_smp4_md_and_cp15_follow_the_selected_cpu(smp4):
    """A shell loop pinned to CPU 1, caught in user mode: with `cpu 1` selected, `md` at its
    pc reads its own text through CPU 1's page tables (the word /proc/PID/mem gives), and
    `cp15` shows CPU 1's translation registers (its ASID in CONTEXTIDR)."""
    pid = int(shell(smp4, "taskset 2 sh -c 'while :; do :; done' & echo $!"))
    try:
        for _ in range(30):
            smp4.knock()
            assert "cpu1 selected" in smp4.cmd("cpu 1")
            state, pc, mode = cpus(smp4)[1]
            if mode == "usr":
                break
            smp4.cmd("continue")  # caught in the kernel (its tick): try again
            smp4.leave()
        assert mode == "usr", (state, pc, mode)
        word_at = pc & ~3   # a Thumb pc may sit mid-word; dd below reads whole words
        md = smp4.cmd(f"md {word_at:x} 4 w").split()
        word = int(md[1], 16)
        cp15_1 = tokens(smp4.cmd("cp15"))
        assert "kernel continues" in smp4.cmd("continue")   # (selects CPU 0 again)
        cp15_0 = tokens(smp4.cmd("cp15"))
        smp4.leave()
        assert set(cp15_1) >= {"ttbr0", "ttbr1", "contextidr"}, cp15_1
        assert cp15_1["ttbr1"] == cp15_0["ttbr1"]   # the kernel's half: one table for all
        # the same word, read by the kernel from the task's own memory
        got = shell(smp4, f"dd if=/proc/{pid}/mem bs=4 skip=$(({word_at:#x} / 4)) count=1 "
                          "2>/dev/null | od -A n -t x4").strip()
        assert got == f"{word:08x}", (got, md)
    finally:
        shell(smp4, f"kill {pid}; echo killed")


def test_smp4_reboot_is_fiqmons_psci_system_reset(smp4):
    """Last on this boot: busybox's `reboot -f` has the kernel call PSCI SYSTEM_RESET (QEMU
    gives virt,secure=on no other way to reset); fiqmon drives the Secure GPIO's restart
    pin, the machine resets, and fiqmon starts again (its banner: the reset happened)."""
    smp4.console.send(b"reboot -f\r")
    smp4.console.expect(r"reboot: Restarting system", timeout=60)
    smp4.wait_banner(timeout=60)  # a new banner (the first boot's was consumed): it reset
