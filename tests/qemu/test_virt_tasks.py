# SPDX-License-Identifier: MIT
"""ps, lsmod and per-task backtraces of Debian's kernel, which has no debug info: one boot
with a busybox initramfs (make initramfs: sleepy1-3 sleeping, spinner spinning, three
modules) serves every check. Each answer is compared with what the kernel itself says on
its console in the same boot: /proc/*/stat, /proc/modules, `echo t > /proc/sysrq-trigger`."""

import re
import subprocess

import pytest

from harness import ROOT
from test_gdb import gdb
from test_virt_watchdog import virt_dtb_with_bootargs

INITRD = ROOT / "build/initramfs/initramfs.cpio.gz"
INITRD_AT = 0x48000000  # RAM + 128 MiB: above the kernel and where it decompresses
PS_LINE = re.compile(r"^ *(\d+) +(\d+) ([RSDTtXZPI]) ([ *]) (\S.*)$", re.M)
SYMBOL = r"([\w.$]+)\+0x([0-9a-f]+)/0x([0-9a-f]+)"


@pytest.fixture(scope="module")
def kernel(module_boot, tmp_path_factory):
    """Debian's kernel at the initramfs shell, fiqmon's asynchronous shell open."""
    subprocess.run(["make", "-s", "-C", str(ROOT), "initramfs"], check=True)
    dtb = virt_dtb_with_bootargs(tmp_path_factory.mktemp("dtb"), "console=ttyAMA0")
    for prop, value in (("linux,initrd-start", INITRD_AT),
                        ("linux,initrd-end", INITRD_AT + INITRD.stat().st_size)):
        subprocess.run(["fdtput", "-t", "x", str(dtb), "/chosen", prop, f"{value:x}"],
                       check=True)
    fm = module_boot("virt", "nodelay", BOOT_DELAY_MS=0, KERNEL=str(ROOT / "build/linux/vmlinuz"),
                     DTB=str(dtb),
                     qemu_extra=f"-device loader,file={INITRD},addr={INITRD_AT:#x},force-raw=on")
    fm.console.expect(r"fiqmon-initramfs-ready", timeout=180)
    fm.console.expect(r"# ", timeout=60)
    fm.serial = 0
    fm.knock()
    return fm


def shell(fm, command, timeout=60):
    """Runs command in busybox's shell on the console; returns its output. The end marker
    is computed by the shell, so the echoed command line cannot match it."""
    fm.serial += 1
    n = fm.serial
    fm.console.forget()
    fm.console.send(f"echo ={n}+0=; {command}; echo =$(({n}+1))=\r".encode())
    _, m = fm.console.expect(rf"\n={n}\+0=\r?\n(.*?)\r?\n={n + 1}=\r?\n", timeout)
    return m.group(1).decode("latin1").replace("\r\n", "\n")


def ps(fm, args=""):
    out = fm.cmd(f"ps {args}".strip(), timeout=30)
    assert out.startswith("  PID  PPID S C COMMAND\n"), out
    assert "partial" not in out, out
    return [(int(p), int(pp), s, c == "*", name) for p, pp, s, c, name in PS_LINE.findall(out)]


def proc_tasks(fm):
    """{pid: (ppid, comm)} from /proc/*/stat (the shell's read builtin: no process forks)."""
    out = shell(fm, "for p in /proc/[0-9]*; do read s < $p/stat && echo \"$s\"; done")
    tasks = {}
    for line in out.splitlines():
        m = re.match(r"(\d+) \((.*)\) (\S) (\d+) ", line)
        if m:
            tasks[int(m.group(1))] = (int(m.group(4)), m.group(2))
    return tasks


def kernel_comm(name):
    """task->comm (15 characters) of a /proc comm: /proc adds a kworker's workqueue after a
    '-' and gives a kernel thread's full name."""
    return (name.split("-")[0] if name.startswith("kworker/") else name)[:15]


def test_ps_equals_proc(kernel):
    fm = kernel
    # kworkers come and go: a few tries for a moment when nothing changed in between
    for _ in range(4):
        proc = {pid: (ppid, kernel_comm(comm)) for pid, (ppid, comm) in proc_tasks(fm).items()}
        mine = {}
        for pid, ppid, state, on_cpu, name in ps(fm):
            kthread = name.startswith("[") and name.endswith("]")
            mine[pid] = (ppid, name[1:-1] if kthread else name)
        if {p: t for p, t in mine.items() if p} == proc:
            break
    assert {p: t for p, t in mine.items() if p} == proc
    assert mine[0] == (0, "swapper/0")
    for name in ("sleepy1", "sleepy2", "sleepy3", "spinner"):
        assert any(t == (1, name) for t in mine.values()), name
    lines = {name: (state, name) for _, _, state, _, name in ps(fm)}
    assert lines["[kthreadd]"][0] == "S"
    assert lines["sleepy1"][0] == "S"


def test_spinner_is_running_on_the_cpu(kernel):
    fm = kernel
    for _ in range(30):
        spinner = [t for t in ps(fm) if t[4] == "spinner"]
        assert len(spinner) == 1
        if spinner[0][2:4] == ("R", True):
            break
    assert spinner[0][2:4] == ("R", True), spinner
    # the sleepers never run
    assert all(t[2:4] == ("S", False) for t in ps(fm) if t[4].startswith("sleepy"))


def test_ps_t_lists_threads_and_layout_is_shown(kernel):
    fm = kernel
    assert {t[0] for t in ps(fm)} <= {t[0] for t in ps(fm, "-t")} | {0}
    out = fm.cmd("ps -l", timeout=30)
    assert re.match(r"init_task [0-9a-f]{8}: movw/movt in show_state_filter, \d+ tasks\n", out)
    for field in ("stack", "comm", "tasks", "pid", "real_parent", "mm", "__state", "on_cpu",
                  "cpu_context", "thread_node"):
        assert re.search(rf"^{field} +\+\d+ ", out, re.M), (field, out)
    assert re.search(r"^modules [0-9a-f]{8}: movw/movt in module_get_kallsym, 3 modules", out,
                     re.M), out


def test_lsmod_equals_proc_modules(kernel):
    fm = kernel
    proc = [line.split() for line in shell(fm, "cat /proc/modules").splitlines()]
    want = [(f[0], int(f[1]), f[4], int(f[5], 16)) for f in proc]
    out = fm.cmd("lsmod", timeout=30)
    lines = out.splitlines()
    assert lines[0].split() == ["Module", "Size", "State", "Address"], out
    mine = [(n, int(s), st, int(a, 16)) for n, s, st, a in (line.split() for line in lines[1:])]
    assert sorted(mine) == sorted(want), out
    assert {m[0] for m in mine} == {"crc7", "crc8", "crc_itu_t"}


def sysrq_trace(fm, pid):
    """The kernel's own backtrace of pid from `echo t > /proc/sysrq-trigger`: [caller]."""
    fm.console.forget()
    fm.console.send(b"echo t > /proc/sysrq-trigger\r")
    # its block: from its "task:" header to the next task's
    _, m = fm.console.expect(rf"task:\S+ +state:\S+ [^\n]*?pid:{pid} [^\n]*\n(.*?)task:", 120)
    block = m.group(1).decode("latin1")
    return [(c, int(o, 16), int(s, 16)) for c, o, s in re.findall(r" from " + SYMBOL, block)]


def test_bt_of_a_sleeper_is_the_kernels_own_trace(kernel):
    fm = kernel
    pid = next(t[0] for t in ps(fm) if t[4] == "sleepy2")
    out = fm.cmd(f"bt {pid}", timeout=30)
    head = re.match(rf"PID {pid} sleepy2 task=([0-9a-f]{{8}})\n", out)
    assert head, out
    # task= is its task_struct: comm, at the offset ps -l found, reads back its name
    comm = int(re.search(r"^comm +\+(\d+) ", fm.cmd("ps -l"), re.M).group(1))
    assert "sleepy2." in fm.cmd(f"md {int(head.group(1), 16) + comm:x} 8"), out
    frames = [(n, int(o, 16), int(s, 16)) for n, o, s in
              re.findall(r"^#\d+ +[0-9a-f]{8} " + SYMBOL + "$", out, re.M)]
    names = [f[0] for f in frames]
    assert names[:3] == ["__schedule", "schedule", "do_nanosleep"], out
    kernels = sysrq_trace(fm, pid)
    # the kernel prints "callee from caller+off/size": its callers are our frames #1...
    assert kernels and frames[1:1 + len(kernels)] == kernels, (out, kernels)
    assert fm.cmd("bt 99999") == "error: no task with pid 99999\n"
    assert fm.cmd("bt x1") == "error: usage: bt [-s|-t|-a|PID]\n"


def test_bt_t_covers_every_task(kernel):
    fm = kernel
    pids = {t[0] for t in ps(fm, "-t")}
    out = fm.cmd("bt -t", timeout=120)
    shown = {int(p) for p in re.findall(r"^PID (\d+) ", out, re.M)}
    assert pids <= shown | set(), (pids - shown)  # kworkers may have come since
    assert len(shown) >= len(pids) - 2
    assert out.count("do_nanosleep") >= 3, out
    # the deepest stack the monitor has: the unwinder under the task walk
    used, size = map(int, re.search(r"stack_used=(\d+) of (\d+)", fm.cmd("stats")).groups())
    assert 1000 < used < size - 128, (used, size)


def test_halted_ps_and_monitor_ps_through_gdb(kernel):
    fm = kernel
    assert "stop reason: knock" in fm.cmd("halt")
    halted = ps(fm)
    assert halted == ps(fm), "a halted kernel's tasks do not change"
    fm.cmd("continue")
    fm.leave()
    fm.debug.close()  # the port is GDB's now
    out = gdb(fm, None, "monitor ps", "monitor lsmod", "detach")
    assert re.search(r"^ +\d+ +1 S   sleepy1$", out, re.M), out
    assert re.search(r"^crc7 +\d+ Live ", out, re.M), out
    assert "detached" in out
    fm.attach_debug()
    fm.knock()
