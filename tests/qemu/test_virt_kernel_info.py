# SPDX-License-Identifier: MIT
"""Introspection of an unmodified kernel: Debian's armhf 6.1 armmp kernel panics on virt
for lack of a root fs, and fiqmon, which never saw its build, reads its log, version,
symbols and stack. Every answer is checked against what the kernel itself printed on
UART0 during the same boot (its log lines, its "Linux version" banner, its own panic
backtrace). A machine without Linux answers each command with one error line."""

import re
import subprocess

import pytest

from harness import ROOT, console_lines, tokens

PANIC = "Kernel panic - not syncing: VFS: Unable to mount root fs"
SYMBOL = r"([\w.$]+)\+0x([0-9a-f]+)/0x([0-9a-f]+)"
FRAME = re.compile(r"^#(\d+)\s+([0-9a-f]{8}) " + SYMBOL, re.M)


@pytest.fixture(scope="module", autouse=True)
def debian_kernel():
    subprocess.run(["make", "-s", "-C", str(ROOT), "linux"], check=True)


def panicked(boot):
    """Debian's kernel booted under fiqmon, panicked, and fiqmon knocked."""
    fm = boot("virt", "nodelay", BOOT_DELAY_MS=0, KERNEL="debian")
    # the whole line: the console log is compared with kmsg, and a line still arriving would
    # not match
    fm.console.expect(r"---\[ end " + re.escape(PANIC) + r"[^\r\n]*\]---\r?\n", timeout=90)
    fm.knock()
    return fm


def kernel_backtrace(fm):
    """The kernel's own panic backtrace: [(function, caller, offset, size)] from lines
    like ' panic from mount_block_root+0x1ec/0x1f4'."""
    frames = re.findall(r"\] +(\w+) from " + SYMBOL, "\n".join(console_lines(fm)))
    assert frames, "the kernel printed no backtrace"
    return [(f, c, int(o, 16), int(s, 16)) for f, c, o, s in frames]


def test_kmsg_and_version_match_what_the_kernel_printed(boot):
    fm = panicked(boot)
    out = fm.cmd("kmsg #40", timeout=30)
    lines = out.splitlines()
    assert any(PANIC in line for line in lines), out
    assert len(lines) >= 30, out
    # every record as the kernel's console printed it, timestamp and text, in order
    console = console_lines(fm)
    at = 0
    for line in lines:
        assert re.match(r"\[ *\d+\.\d{6}\] ", line), f"not a log line: {line!r}"
        assert line in console[at:], f"{line!r} is not what the kernel printed (in order)"
        at = console.index(line, at) + 1
    # the default is the last 20 records, the newest last
    last20 = fm.cmd("kmsg").splitlines()
    assert len(last20) == 20 and last20 == lines[-20:]

    version = fm.cmd("version")
    release, uts = re.search(r"^linux (\S+) (.+)$", version, re.M).groups()
    banner = next(line for line in console if "Linux version " in line)
    banner_release = re.search(r"Linux version (\S+) ", banner).group(1)
    assert release == banner_release, f"{release} vs {banner}"
    assert banner.endswith(" " + uts), f"uname -v {uts!r} does not end {banner!r}"


def test_sym_agrees_with_the_kernels_own_backtrace(boot):
    fm = panicked(boot)
    for function, caller, offset, size in kernel_backtrace(fm):
        by_name = fm.cmd(f"sym {caller}", timeout=30)
        matches = [m for m in re.finditer(r"^([0-9a-f]{8}) " + SYMBOL + "$", by_name, re.M)
                   if m.group(2) == caller and int(m.group(4), 16) == size]
        assert matches, f"sym {caller}: {by_name!r}, the kernel says size {size:#x}"
        start = int(matches[0].group(1), 16)
        assert int(matches[0].group(3), 16) == 0
        back = fm.cmd(f"sym {start + offset:x}")
        assert back == f"{start + offset:08x} {caller}+{offset:#x}/{size:#x}\n", \
            f"the kernel printed {caller}+{offset:#x}/{size:#x}, fiqmon {back!r}"
        assert re.search(r"^[0-9a-f]{8} " + function + r"\+0x0/", fm.cmd(f"sym {function}"),
                         re.M), function
    assert fm.cmd("sym no_such_symbol_at_all") == "error: no symbol 'no_such_symbol_at_all'\n"
    assert fm.cmd("sym 1000") == "error: 00001000 is not in the kernel's code\n"


def _frames(out):
    return [(name, int(off, 16), int(size, 16)) for _, _, name, off, size in FRAME.findall(out)]


# bt's last line for a stop in __irq_svc before it has stored the interrupted registers
# (svc mode; about 1 sample in 250)
IN_ENTRY = "bt: stopped: in an exception entry that has not saved the interrupted context yet\n"


def below_panic(fm):
    chain = kernel_backtrace(fm)
    return [(c, o, s) for f, c, o, s in chain[[f for f, *_ in chain].index("panic"):]]


def test_bt_reproduces_the_kernels_chain_below_panic(boot):
    fm = panicked(boot)
    below = below_panic(fm)
    # each sample halts the running panic loop (the delay loop, or a timer interrupt on top
    # of it) and must be exact. A sample inside the kernel's IRQ vector stub (irq mode, pc
    # in the vector page; about 1 in 130) has no unwind entry and says so, as does one in
    # __irq_svc before its register frame is written: not counted.
    samples = 0
    for _ in range(20):
        assert "stop reason: knock" in fm.cmd("halt")
        if "(svc " in fm.cmd("pc"):
            out = fm.cmd("bt", timeout=30)
            assert out.startswith("bt: unwind tables (.ARM.exidx at "), out
            if out.endswith(IN_ENTRY):
                assert re.search(r"^#0  [0-9a-f]{8} __irq_svc\+", out, re.M), out
                fm.cmd("continue")
                fm.leave()
                fm.knock()
                continue
            names = [name for name, _, _ in _frames(out)]
            assert "panic" in names, out
            got = _frames(out)[names.index("panic") + 1:]
            assert got == below, f"sample {samples}: fiqmon\n{out}\nthe kernel: {below}"
            samples += 1
        else:
            assert fm.cmd("bt").endswith("bt: stopped: no unwind entry\nbt: #0 is in the kernel's "
                                         "exception vectors: the interrupted context is in "
                                         "that mode's lr and spsr (allregs)\n")
        assert fm.cmd("continue") == "fiqmon: kernel continues\n"
        if samples == 3:
            break
        fm.leave()
        fm.knock()
    assert samples == 3


def test_bt_is_exact_where_the_kernel_stops_in_a_prologue(boot):
    """Issue 15's reproducer. A halt can land on any instruction, also on a function's
    first ones, before its prologue has stored what its unwind table describes (and ld
    merges equal neighbouring table entries: led_panic_blink and ktime_get have none of
    their own). bt used to reload lr from stale stack words there (the 0x37acbd06 and
    ef6e0b40 'callers'). About 1 halt in 7 lands on a prologue; before the fix about 1 in
    300 of all halts gave a wrong chain. Every prologue sample must give the kernel's own
    chain below panic, and on a first instruction #1 must be lr itself."""
    fm = panicked(boot)
    below = below_panic(fm)
    prologues = entries = halts = 0
    while (prologues < 120 or entries < 50) and halts < 1500:
        halts += 1
        assert "stop reason: knock" in fm.cmd("halt")
        regs = fm.cmd("regs")
        m = re.search(r"^pc: [\w.$]+\+0x([0-9a-f]+)/", regs, re.M)
        if "(svc " in regs and m and int(m.group(1), 16) <= 0x14:
            t = tokens(regs)
            out = fm.cmd("bt", timeout=30)
            if not out.endswith(IN_ENTRY):
                frames = FRAME.findall(out)
                names = [name for _, _, name, _, _ in frames]
                assert "panic" in names and _frames(out)[names.index("panic") + 1:] == below, \
                    f"halt {halts}:\n{regs}\n{out}\nthe kernel: {below}"
                if int(m.group(1), 16) == 0:
                    assert int(frames[1][1], 16) == t["lr"], f"halt {halts}:\n{regs}\n{out}"
                    entries += 1
                prologues += 1
        fm.cmd("continue")
    # how often a halt lands in a prologue follows where the panicked kernel spins: 1 in 7
    # in some boots, 1 in 17 in others (86 in 1,500 seen). The loop aims for 120/50 and
    # asks at least half of that: enough samples that the old unwinder fails (it did at
    # halt 45, 50 and 540 in three runs).
    assert prologues >= 60 and entries >= 25, (halts, prologues, entries)


def test_bt_heuristic_scan_says_so_and_finds_panic(boot):
    fm = panicked(boot)
    seen = []
    # a knock often lands in the timer's IRQ (the scan then covers only the IRQ stack):
    # 10 tries were all IRQ samples once in a fresh-clone run, so sample more
    for _ in range(40):
        out = fm.cmd("bt -s", timeout=30)
        assert out.startswith("bt: heuristic stack scan: "), out
        seen.append(out)
        if re.search(r"^#\d+ +[0-9a-f]{8} panic\+", out, re.M):
            break
        fm.leave()  # a sample taken on the IRQ stack: knock again
        fm.knock()
    else:
        pytest.fail("no heuristic trace contained panic:\n" + "\n".join(seen[-5:]))


def test_pc_and_regs_are_symbolized_and_keep_their_tokens(boot):
    fm = panicked(boot)
    fm.cmd("halt")
    regs = fm.cmd("regs")
    t = tokens(regs)
    assert {"pc", "lr", "sp", "cpsr"} <= set(t)
    m = re.search(r"^pc: " + SYMBOL + "$", regs, re.M)
    assert m, regs
    assert fm.cmd(f"sym {t['pc']:x}") == f"{t['pc']:08x} {m.group(1)}+0x{m.group(2)}/0x{m.group(3)}\n"
    pc = fm.cmd("pc")
    assert pc.startswith(f"pc={t['pc']:08x} ") and f"\npc: {m.group(1)}+" in pc
    fm.cmd("continue")


@pytest.mark.parametrize("platform_name", ["versatilepb", "virt"])
def test_without_linux_every_command_is_one_error(boot, platform_name):
    fm = boot(platform_name)
    fm.knock()
    for command in ("kmsg", "kmsg 5", "sym panic", "sym c0008000", "bt", "bt -s"):
        assert fm.cmd(command) == "error: no Linux kernel found\n", command
    assert fm.cmd("version").endswith("\nlinux: none found\n")
    assert "pc: " not in fm.cmd("pc")
