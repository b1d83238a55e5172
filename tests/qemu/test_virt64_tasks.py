# SPDX-License-Identifier: MIT
"""ps, lsmod and per-task backtraces of Debian's arm64 kernel, read from its own BTF: one
boot of `make run PLATFORM=virt64 KERNEL=debian INITRD=busybox` (sleepy1-3 asleep in
nanosleep, spinner spinning in user space, crc7, crc16 and crc-itu-t loaded) serves every
check, each compared with what the kernel says in the same boot: busybox's own ps,
/proc/modules, `echo t > /proc/sysrq-trigger`. KASLR is on, and with it KPTI: while user
space runs, the kernel's live tables map nothing of it but the entry trampoline."""

import re
import subprocess
import time

import pytest

from harness import ROOT
from test_virt_tasks import kernel_comm, shell

PS_LINE = re.compile(r"^ *(\d+) +(\d+) ([RSDTtXZPI]) ([ *]) (\S.*)$", re.M)
SYMBOL = r"([\w.$]+)\+0x([0-9a-f]+)/0x([0-9a-f]+)"
FRAME = re.compile(r"^#\d+ +[0-9a-f]{16} " + SYMBOL + "$", re.M)
SYSCALL_PATH = ["invoke_syscall", "el0_svc_common.constprop.0", "do_el0_svc", "el0_svc",
                "el0t_64_sync_handler", "el0t_64_sync"]
FIELDS = (("stack", "stack"), ("comm", "comm"), ("tasks", "tasks"), ("pid", "pid"),
          ("real_parent", "real_parent"), ("mm", "mm"), ("__state", "__state"),
          ("on_cpu", "on_cpu"), ("cpu_context", "thread.cpu_context"),
          ("thread_node", "thread_node"))


@pytest.fixture(scope="module")
def kernel(module_boot):
    """Debian's arm64 kernel at the initramfs shell, fiqmon's asynchronous shell open; the
    first ps -l (the layout found: VMCOREINFO, kallsyms, BTF) timed."""
    subprocess.run(["make", "-s", "-C", str(ROOT), "initramfs", "ARCH=arm64"], check=True)
    fm = module_boot("virt64", "nodelay", BOOT_DELAY_MS=0, KERNEL="debian", INITRD="busybox")
    fm.console.expect(r"fiqmon-initramfs-ready", timeout=240)
    fm.console.expect(r"# ", timeout=60)
    fm.serial = 0
    fm.knock()
    start = time.monotonic()
    fm.first_layout = fm.cmd("ps -l", timeout=60)
    fm.discovery_s = time.monotonic() - start
    return fm


def ps(fm, args=""):
    out = fm.cmd(f"ps {args}".strip(), timeout=30)
    assert out.startswith("  PID  PPID S C COMMAND\n"), out
    assert "partial" not in out, out
    return [(int(p), int(pp), s, c == "*", name) for p, pp, s, c, name in PS_LINE.findall(out)]


def busybox_ps(fm):
    """{pid: (ppid, stat, comm)} from busybox's ps, without the ps process itself."""
    out = shell(fm, "ps -o pid,ppid,stat,comm")
    tasks = {}
    for line in out.splitlines()[1:]:
        m = re.match(r" *(\d+) +(\d+) +(\S+) +(.*)$", line)
        if m and m.group(4) != "ps":
            tasks[int(m.group(1))] = (int(m.group(2)), m.group(3), m.group(4))
    return tasks


def frames(out):
    return [(n, int(o, 16), int(s, 16)) for n, o, s in FRAME.findall(out)]


def test_the_layout_comes_from_the_kernels_btf(kernel):
    out = kernel.first_layout
    assert re.match(r"btf [0-9a-f]{16}: adrp in btf_parse_vmlinux, \d{5,} types, \d+ bytes\n",
                    out), out
    assert re.search(r"^init_task [0-9a-f]{16}: (real_parent chain from the running task|"
                     r"show_state_filter), \d+ tasks$", out, re.M), out
    for step, member in FIELDS:
        assert re.search(rf"^{step} +\+\d+ +task_struct\.{re.escape(member)}\b", out, re.M), \
            (step, out)
    assert re.search(r"^modules [0-9a-f]{16}: adrp in module_get_kallsym, 3 modules; struct "
                     r"module: state \+0, list \+8, name \+24, base \+\d+, sizes \+\d+ \+\d+$",
                     out, re.M), out
    print(f"\nfirst ps -l (VMCOREINFO, kallsyms, BTF found and indexed): "
          f"{kernel.discovery_s:.2f} s")
    assert kernel.discovery_s < 5, "finding the layout must not take many seconds"
    start = time.monotonic()
    assert kernel.cmd("ps -l") == out
    assert time.monotonic() - start < 1, "the layout is kept"


def test_ps_equals_busybox_ps(kernel):
    fm = kernel
    # kworkers come and go: a few tries for a moment when nothing changed in between
    for _ in range(4):
        theirs = busybox_ps(fm)
        mine = {pid: (ppid, state, name) for pid, ppid, state, _, name in ps(fm)}
        if {p: (pp, kernel_comm(c)) for p, (pp, _, c) in theirs.items()} == \
                {p: (pp, n.strip("[]")) for p, (pp, _, n) in mine.items() if p}:
            break
    assert {p: (pp, kernel_comm(c)) for p, (pp, _, c) in theirs.items()} == \
        {p: (pp, n.strip("[]")) for p, (pp, _, n) in mine.items() if p}
    assert mine[0] == (0, "R", "[swapper/0]")
    differ = []
    for pid, (ppid, stat, comm) in theirs.items():
        # a kernel thread (no mm: brackets) is what busybox marks W (no resident pages)
        assert mine[pid][2].startswith("[") == ("W" in stat), (pid, stat, mine[pid])
        # the state letter too, but for those that run now and then (the shell writes to
        # the console, a kthread may just have woken)
        if comm.startswith(("sleepy", "kthreadd")):
            assert mine[pid][1] == stat[0], (pid, comm, stat, mine[pid])
        elif not comm.startswith("kworker") and pid != 1 and comm != "spinner" and \
                mine[pid][1] != stat[0]:
            differ.append((pid, comm, stat, mine[pid]))
    assert len(differ) <= 2, differ
    for name in ("sleepy1", "sleepy2", "sleepy3", "spinner"):
        assert any(t[0] == 1 and t[2] == name for t in mine.values()), name
    assert [t[1] for t in mine.values() if t[2].startswith("sleepy")] == ["S"] * 3


def test_spinner_is_running_on_the_cpu(kernel):
    for _ in range(30):
        spinner = [t for t in ps(kernel) if t[4] == "spinner"]
        assert len(spinner) == 1
        if spinner[0][2:4] == ("R", True):
            break
    assert spinner[0][2:4] == ("R", True), spinner
    assert all(t[2:4] == ("S", False) for t in ps(kernel) if t[4].startswith("sleepy"))


def test_ps_t_lists_every_process_and_its_threads(kernel):
    leaders = {t[0] for t in ps(kernel)}
    threads = ps(kernel, "-t")
    assert leaders <= {t[0] for t in threads} | {0}
    assert len(threads) >= len(leaders) - 2  # (kworkers may have gone in between)


def lsmod_equals_proc_modules(fm):
    proc = [line.split() for line in shell(fm, "cat /proc/modules").splitlines()]
    want = sorted((f[0], int(f[1]), f[4], int(f[5], 16)) for f in proc)
    lines = fm.cmd("lsmod", timeout=30).splitlines()
    assert lines[0].split() == ["Module", "Size", "State", "Address"], lines
    mine = sorted((n, int(s), st, int(a, 16)) for n, s, st, a in (ln.split() for ln in lines[1:]))
    assert mine == want
    return {m[0] for m in mine}


def test_lsmod_equals_proc_modules_as_modules_come_and_go(kernel):
    fm = kernel
    assert lsmod_equals_proc_modules(fm) == {"crc7", "crc16", "crc_itu_t"}
    assert shell(fm, "rmmod crc16; echo rc=$?") == "rc=0"
    assert lsmod_equals_proc_modules(fm) == {"crc7", "crc_itu_t"}
    assert shell(fm, "insmod /lib/modules/crc16.ko; echo rc=$?") == "rc=0"
    assert lsmod_equals_proc_modules(fm) == {"crc7", "crc16", "crc_itu_t"}


def sysrq_trace(fm, pid):
    """The kernel's own backtrace of pid from `echo t > /proc/sysrq-trigger`."""
    fm.console.forget()
    fm.console.send(b"echo t > /proc/sysrq-trigger\r")
    _, m = fm.console.expect(rf"task:\S+ +state:\S+ [^\n]*?pid:{pid} [^\n]*\n(.*?)task:", 120)
    block = m.group(1).decode("latin1")
    assert shell(fm, "echo listed") == "listed"  # the whole list printed: the shell is back
    return [(c, int(o, 16), int(s, 16)) for c, o, s in
            re.findall(r"\] +" + SYMBOL + r"\r?$", block, re.M)]


def test_bt_of_a_sleeper_is_the_kernels_own_trace(kernel):
    fm = kernel
    pid = next(t[0] for t in ps(fm) if t[4] == "sleepy2")
    out = fm.cmd(f"bt {pid}", timeout=30)
    assert re.match(rf"PID {pid} sleepy2 task=[0-9a-f]{{16}}\nbt: frame records \(x29\)\n",
                    out), out
    assert out.endswith("bt: end of the chain\n"), out
    mine = frames(out)
    assert [f[0] for f in mine[:4]] == ["__switch_to", "__schedule", "schedule", "do_nanosleep"]
    assert [f[0] for f in mine[-6:]] == SYSCALL_PATH, out
    assert mine == sysrq_trace(fm, pid), out


def test_bt_of_a_waiting_shell_ends_in_its_system_call(kernel):
    """A shell waiting for its child (sh -c 'sleep 1000; :'): from the context it saved,
    through wait4, to the EL0 entry it came in by, as the kernel itself shows it."""
    fm = kernel
    pid = int(shell(fm, "sh -c 'sleep 1000; :' & echo $!"))
    assert shell(fm, "sleep 1; echo slept") == "slept"  # (until it waits)
    out = fm.cmd(f"bt {pid}", timeout=30)
    assert out.startswith(f"PID {pid} sh task="), out
    assert out.endswith("bt: end of the chain\n"), out
    names = [f[0] for f in frames(out)]
    assert names[:3] == ["__switch_to", "__schedule", "schedule"], out
    assert "do_wait" in names, out
    assert names[-7:] == ["__arm64_sys_wait4"] + SYSCALL_PATH, out
    assert frames(out) == sysrq_trace(fm, pid), out
    shell(fm, f"kill {pid}; echo killed")


def test_bad_pids_are_one_error_line(kernel):
    assert kernel.cmd("bt 99999") == "error: no task with pid 99999\n"
    for bad in ("x1", "-5", "12x", "99999999999"):
        assert kernel.cmd(f"bt {bad}") == "error: usage: bt [-s|-t|-a|PID]\n", bad


def test_bt_t_covers_every_task(kernel):
    fm = kernel
    pids = {t[0] for t in ps(fm, "-t")}
    out = fm.cmd("bt -t", timeout=120)
    shown = {int(p) for p in re.findall(r"^PID (\d+) ", out, re.M)}
    assert len(pids - shown) <= 2, pids - shown  # kworkers may have gone in between
    assert out.count("do_nanosleep") >= 3, out
    assert "stopped" not in out, out
    used, size = map(int, re.search(r"stack_used=(\d+) of (\d+)", fm.cmd("stats")).groups())
    assert used < size - 1024, (used, size)


def test_a_halt_in_user_space_reads_the_kernel_through_its_own_tables(kernel):
    """KPTI: halted while a program runs at EL0, TTBR1 maps only the trampoline; ps,
    lsmod, bt, md and mw reach the kernel through swapper_pg_dir. (Most FIQs land in the
    kernel's timer interrupt; a few tries find the spinner, or the console's shell, in
    user space.)"""
    fm = kernel
    panic = re.search(r"^([0-9a-f]{16}) panic\+0x0/", fm.cmd("sym panic"), re.M).group(1)
    text = None  # panic's first bytes, as md shows them halted in the kernel
    for _ in range(400):
        halted = fm.cmd("halt")
        assert "stop reason: knock" in halted, halted
        try:
            if "(el0t)" not in halted:
                text = text or fm.cmd(f"md {panic} 20")
                assert text.startswith(panic + ":"), text
            elif text:
                # one CPU: exactly one task is on it, and it is a program, not a kthread
                running = [t for t in ps(fm) if t[3]]
                assert len(running) == 1 and running[0][2] == "R", running
                pid, name = running[0][0], running[0][4]
                assert not name.startswith("["), running
                out = fm.cmd(f"bt {pid}")
                assert re.match(rf"PID {pid} {re.escape(name)} task=[0-9a-f]{{16}} "
                                r"\(interrupted here\)\n"
                                r"bt: in user mode at pc=0000[0-9a-f]{12}\n$", out), out
                # plain bt says the same: the frame chain in x29 is the program's
                assert re.fullmatch(r"bt: in user mode at pc=0000[0-9a-f]{12}\n",
                                    fm.cmd("bt")), fm.cmd("bt")
                assert "crc7" in fm.cmd("lsmod")
                assert frames(fm.cmd("bt 2"))[-1][0] == "ret_from_fork"
                assert fm.cmd("kmsg 1").startswith("[")
                # md and mw of a kernel address: through the kernel's tables too
                assert fm.cmd(f"md {panic} 20") == text
                first = text.split()[1]
                assert fm.cmd(f"mw {panic} {first}") == ""
                assert fm.cmd(f"md {panic} 20") == text
                return
        finally:
            assert fm.cmd("continue") == "fiqmon: kernel continues\n"
    pytest.fail("never halted in user space in 400 tries")


def test_halted_ps_is_stable(kernel):
    assert "stop reason: knock" in kernel.cmd("halt")
    halted = ps(kernel)
    assert halted == ps(kernel), "a halted kernel's tasks do not change"
    assert kernel.cmd("continue") == "fiqmon: kernel continues\n"
