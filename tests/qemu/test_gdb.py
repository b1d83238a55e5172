# SPDX-License-Identifier: MIT
"""Real gdb-multiarch against fiqmon's stub over the debug port: no knock, a hung guest,
registers, memory, a backtrace through the guest's symbols, writes the shell can see,
monitor commands, detach, and Ctrl-C."""

import os
import re
import select
import shutil
import signal
import subprocess
import sys
import time

import pytest

from harness import ROOT, tokens

sys.path.insert(0, str(ROOT / "scripts"))
import gdb_wire  # noqa: E402  (the wire bench's md and movw/movt readers)

GUESTS = ROOT / "build/guests"


@pytest.fixture(scope="module", autouse=True)
def tools():
    assert shutil.which("gdb-multiarch"), "gdb-multiarch is required (make deps)"
    subprocess.run(["make", "-s", "-C", str(ROOT), "guests"], check=True)


def gdb(fm, elf, *commands, timeout=60, setup=()):
    """gdb -batch: setup, connect, commands; at the end GDB detaches (qAttached says so).
    elf None: no symbol file, as when debugging a kernel GDB has no vmlinux for. A GDB
    that hangs fails the test through the timeout."""
    args = ["gdb-multiarch", "-q", "-nx", "-batch", "-ex", "set confirm off",
            "-ex", "set remotetimeout 10"]
    for c in (*setup, f"target remote {fm.debug_path}", *commands):
        args += ["-ex", c]
    out = subprocess.run(args + ([str(elf)] if elf else []), capture_output=True, text=True,
                         timeout=timeout)
    return out.stdout + out.stderr


def read_until(proc, marker, timeout):
    """Read proc's stdout until marker appears (a line of output, not a sleep)."""
    got, deadline = b"", time.monotonic() + timeout
    while marker not in got:
        left = deadline - time.monotonic()
        assert left > 0, f"no {marker!r} from GDB within {timeout} s: {got!r}"
        if select.select([proc.stdout], [], [], left)[0]:
            chunk = os.read(proc.stdout.fileno(), 4096)
            assert chunk, f"GDB exited before {marker!r}: {got!r}"
            got += chunk
    return got.decode()


def start(boot, guest):
    fm = boot("versatilepb", "nodelay", BOOT_DELAY_MS=0, KERNEL=f"build/guests/{guest}.elf",
              gdb=True)
    return fm


def symbol_range(elf, name):
    out = subprocess.run(["arm-none-eabi-nm", "-S", str(elf)], capture_output=True, text=True,
                         check=True).stdout
    m = re.search(rf"^([0-9a-f]+) ([0-9a-f]+) \w {name}$", out, re.M)
    return int(m.group(1), 16), int(m.group(1), 16) + int(m.group(2), 16)


def test_gdb_connects_without_a_knock_and_reads_writes_and_unwinds(boot):
    fm = start(boot, "spin")
    fm.console.expect(r"guest spin: entering spin_forever")
    elf = GUESTS / "spin.elf"
    out = gdb(fm, elf, "info registers", "x/16xw 0x200000", "bt",
              "set {int}0x00100000 = 0x1234abcd", "set var $r5 = 0x55aa55aa",
              "p/x $r5", "monitor regs", "detach")
    pc = int(re.search(r"^pc\s+0x([0-9a-f]+)", out, re.M).group(1), 16)
    lo, hi = symbol_range(elf, "spin_forever")
    assert lo <= pc < hi, out
    assert re.search(r"^cpsr\s+0x[0-9a-f]+", out, re.M)
    # x/16xw shows the guest's first instructions, as in its ELF
    image = subprocess.run(["arm-none-eabi-objcopy", "-O", "binary", "--only-section=.text",
                            str(elf), "/dev/stdout"], capture_output=True, check=True).stdout
    first = int.from_bytes(image[:4], "little")
    assert re.search(rf"0x200000 <_start>:\s+0x{first:08x}", out), out
    # the backtrace follows the guest's call chain
    frames = re.findall(r"^#\d+\s+(?:0x[0-9a-f]+ in )?(\w+)", out, re.M)
    assert frames[:3] == ["spin_forever", "guest_main", "_start"], frames
    assert "$1 = 0x55aa55aa" in out
    assert re.search(r"r0=[0-9a-f]{8} r1=", out), "monitor regs streams the shell's output"
    assert "Inferior 1 (Remote target) detached" in out
    # the fiqmon shell sees what GDB wrote, and the register edit reached the guest
    fm.attach_debug()
    fm.knock()
    assert fm.cmd("md 100000 4").split(":")[1].split()[0] == "1234abcd"
    assert "r5=55aa55aa" in fm.cmd("regs")


def test_gdb_at_power_on_gets_the_payload_stopped_at_its_first_instruction(boot):
    """GDB connecting while the boot countdown runs (it prints `$3#33` on the line GDB
    reads, and fiqmon's boot line comes before the stub's first answer): the session
    starts at once, the guest loaded and held at _start; detach lets it run."""
    fm = boot("versatilepb", "delay5s", BOOT_DELAY_MS=5000, KERNEL="build/guests/spin.elf",
              gdb=True)
    elf = GUESTS / "spin.elf"
    out = gdb(fm, elf, "p/x $pc", "detach")
    assert re.search(r"^\$1 = 0x200000$", out, re.M), out
    assert "Inferior 1 (Remote target) detached" in out
    fm.console.expect(r"guest spin: entering spin_forever")
    assert fm.console.log.count(b"guest spin: entering") == 1


def test_continue_runs_the_guest_ctrl_c_stops_it_and_detach_resumes(boot):
    fm = start(boot, "ticker")
    fm.console.expect(r"guest ticker: tick \d+")
    elf = GUESTS / "ticker.elf"
    g = subprocess.Popen(["gdb-multiarch", "-q", "-nx", "-ex", "set confirm off",
                          "-ex", "set pagination off", "-ex", f"target remote {fm.debug_path}",
                          str(elf)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT)
    try:
        g.stdin.write(b"p $pc\n")
        g.stdin.flush()
        # connected (the guest is stopped) before anything is timed: GDB starts slowly on a
        # loaded machine, and a tick seen before it connects proves nothing
        seen = read_until(g, b"$1 = ", timeout=30)
        g.stdin.write(b"continue\n")
        g.stdin.flush()
        # stopped by the connection, the guest ticks again once GDB continues it
        fm.console.forget()
        fm.console.expect(r"guest ticker: tick \d+", timeout=20)
        fm.console.expect(r"guest ticker: tick \d+", timeout=20)
        os.kill(g.pid, signal.SIGINT)      # GDB sends 0x03; fiqmon stops the guest
        g.stdin.write(b"p $pc\ninfo registers cpsr\ndetach\nquit\n")
        g.stdin.flush()
        out = seen + g.communicate(timeout=60)[0].decode()
    finally:
        if g.poll() is None:
            g.kill()
    assert "SIGINT" in out, out
    assert "detached" in out, out
    # after detach the guest runs on
    fm.console.expect(r"guest ticker: tick \d+", timeout=20)
    fm.console.expect(r"guest ticker: tick \d+", timeout=20)


# --- no breakpoints, no single-step: GDB must give up, never plant its own ------------------
#
# An empty reply to Z0 would tell GDB "not supported", and it would write its breakpoint
# instruction into the kernel with X/M and resume into it. fiqmon answers an error, so
# GDB reports the failure, writes nothing and keeps the target stopped.

def cannot_insert(out, n):
    m = re.search(rf"Cannot insert breakpoint {n}\.\s+Cannot access memory at address "
                  r"0x([0-9a-f]+)", out)
    assert m, f"GDB did not report breakpoint {n} failing:\n{out}"
    return int(m.group(1), 16)


def memory_writes(out):
    """The memory-write packets GDB sent (`set debug remote 1` logs each)."""
    return re.findall(r"Sending packet: \$[MX][0-9a-f]+,[0-9a-f]+", out)


def printed_values(out):
    return [int(v, 16) for v in re.findall(r"^\$\d+ = 0x([0-9a-f]+)$", out, re.M)]


def gdb_words(out, addr, count):
    """The words GDB's x/COUNTxw at addr printed."""
    words, at = [], addr
    while len(words) < count:
        m = re.search(rf"^0x0*{at:x}(?: <[^>]*>)?:\s+((?:0x[0-9a-f]+\s*)+)$", out, re.M)
        assert m, f"no x output at {at:#x}:\n{out}"
        row = [int(w, 16) for w in m.group(1).split()]
        words += row
        at += 4 * len(row)
    return words[:count]


def shell_words(fm, addr, count):
    dump = fm.cmd(f"md {addr:x} {4 * count:x}")
    return [int(w, 16) for row in dump.splitlines()
            for w in row.split(":")[1].split("  ")[0].split()][:count]


def o_packets(out):
    return len(re.findall(r"Packet received: O[0-9a-f]", out))


def test_stepi_and_break_fail_cleanly_and_leave_the_guest_intact(boot):
    fm = start(boot, "ticker")
    fm.console.expect(r"guest ticker: tick \d+")
    elf = GUESTS / "ticker.elf"
    text = subprocess.run(["arm-none-eabi-objcopy", "-O", "binary", "--only-section=.text",
                           str(elf), "/dev/stdout"], capture_output=True, check=True).stdout
    out = gdb(fm, elf, "p/x $pc", "stepi", "p/x $pc", "break ticker_irq", "continue",
              "p/x $pc", "monitor help", setup=["set debug remote 1"])
    # stepi and continue each say why they cannot go on; the guest did not move
    pcs = printed_values(out)
    assert len(pcs) == 3 and len(set(pcs)) == 1, out
    assert 0x200000 <= cannot_insert(out, 0) < 0x200000 + len(text)
    bp = int(re.search(r"Breakpoint 1 at 0x([0-9a-f]+)", out).group(1), 16)
    assert cannot_insert(out, 1) == bp
    assert "Command aborted." in out
    assert memory_writes(out) == [], "GDB fell back to writing breakpoints"
    # a long monitor output, after all that, comes whole and in a few full O packets
    assert "[-p] ADDR [LEN] [b|h|w]" in out and "Inferior 1 (Remote target) detached" in out
    fm.attach_debug()
    fm.knock()
    help_len = len(fm.cmd("help"))
    # O packets carry up to (PacketSize - 1) / 2 = 1023 bytes each
    assert 1 <= o_packets(out) <= -(-help_len // 1023), out
    # the guest's code is byte for byte its ELF's, and the guest ticks on
    assert b"".join(w.to_bytes(4, "little") for w in shell_words(fm, 0x200000, len(text) // 4)) \
        == text
    fm.leave()
    fm.console.forget()
    fm.console.expect(r"guest ticker: tick \d+", timeout=20)
    fm.console.expect(r"guest ticker: tick \d+", timeout=20)


def test_stepi_and_break_on_debians_kernel_fail_cleanly_and_change_nothing(boot):
    """The issue's case: gdb -batch with no vmlinux, stepi and a breakpoint against the
    unmodified Debian kernel, stopped early in its boot so that it has work left to show
    that it runs on afterwards."""
    subprocess.run(["make", "-s", "-C", str(ROOT), "linux"], check=True)
    fm = boot("virt", "nodelay", BOOT_DELAY_MS=0, KERNEL="debian", gdb=True)
    fm.console.expect(r"Booting Linux", timeout=60)
    fm.attach_debug()
    # stop it in kernel text in svc mode, where lr is a return address (a knock can land
    # in the vector page, in irq mode, where lr is not code)
    for _ in range(20):
        fm.knock()
        fm.cmd("halt")
        regs = tokens(fm.cmd("regs"))
        # lr must not be a few words past pc: GDB steps over a breakpoint there first (after
        # a bl returns, lr == pc) and that step fails as breakpoint 0, hiding breakpoint 1
        if (regs["pc"] >= 0xC0000000 and regs["cpsr"] & 0x1F == 0x13
                and 0xC0000000 <= regs["lr"] < 0xFF000000   # code, not the vector page or -1
                and not 0 <= (regs["lr"] & ~3) - regs["pc"] <= 8):
            break
        fm.cmd("continue")
        fm.leave()
    else:
        raise AssertionError(f"never halted in kernel text in svc mode: {regs}")
    pc, lr = regs["pc"], regs["lr"] & ~3
    fm.debug.send("gdb\r")                # the kernel stays stopped for GDB
    fm.debug.expect(r"until detach.*?\r\n")
    fm.debug.close()
    fm.console.forget()
    out = gdb(fm, None, f"x/64xw 0x{pc:x}", f"x/16xw 0x{lr:x}", "stepi", "p/x $pc",
              f"break *0x{lr:x}", "continue", "p/x $pc",
              setup=["set architecture arm", "set debug remote 1"])
    assert printed_values(out) == [pc, pc], out
    assert pc <= cannot_insert(out, 0)
    assert cannot_insert(out, 1) == lr
    assert "Command aborted." in out and "detached" in out
    assert memory_writes(out) == [], "GDB fell back to writing breakpoints"
    # detached, the kernel boots on to where it always ends without a root fs
    fm.console.expect(r"Kernel panic - not syncing", timeout=120)
    fm.attach_debug()
    fm.knock()
    assert shell_words(fm, pc, 64) == gdb_words(out, pc, 64)
    assert shell_words(fm, lr, 16) == gdb_words(out, lr, 16)
    # panic() loops with IRQs on: a knock can land in the IRQ entry; sample until svc
    for _ in range(20):
        after = tokens(fm.cmd("regs"))
        if after["cpsr"] & 0x1F == 0x13:
            break
        fm.leave()
        fm.knock()
    assert after["pc"] >= 0xC0000000 and after["cpsr"] & 0x1F == 0x13, after
    assert re.search(r"^#0\s+[0-9a-f]{8} [\w.$]+\+0x", fm.cmd("bt", timeout=30), re.M)


def linux_banner_address(fm):
    """linux_banner, by the kernel's own address for it. Debian's kallsyms has no data
    symbols (no KALLSYMS_ALL), but start_kernel prints the banner: the movw/movt pairs in
    its code (found through kallsyms) load the address."""
    m = re.search(r"^([0-9a-f]{8}) start_kernel\+0x0/0x([0-9a-f]+)",
                  fm.cmd("sym start_kernel", timeout=30), re.M)
    start, size = int(m.group(1), 16), int(m.group(2), 16)
    found = gdb_wire.movw_movt_targets(
        gdb_wire.md_words(fm.cmd(f"md {start:x} {min(size, 0x1000):x}")))
    for addr in found:
        if 0xC0000000 <= addr and "Linux ve" in fm.cmd(f"md {addr:x} 10 b"):
            return addr
    raise AssertionError("no movw/movt pair in start_kernel loads the banner")


def test_gdb_on_virt_reads_the_debian_kernel_and_detaches(boot):
    """Real GDB against the unmodified Debian kernel in the Normal world."""
    subprocess.run(["make", "-s", "-C", str(ROOT), "linux"], check=True)
    fm = boot("virt", "nodelay", BOOT_DELAY_MS=0, KERNEL="debian", gdb=True)
    fm.console.expect(r"Kernel panic - not syncing", timeout=60)
    fm.attach_debug()
    fm.knock()
    m = re.search(r"^([0-9a-f]{8}) panic\+0x0/", fm.cmd("sym panic", timeout=30), re.M)
    assert m, "kallsyms lookup of panic"
    panic = int(m.group(1), 16)
    words = fm.cmd(f"md {panic:x} 10").split(":")[1].split()[:4]
    banner = linux_banner_address(fm)
    fm.leave()
    fm.debug.close()                      # the port is GDB's now
    out = gdb(fm, fm.elf, "info registers pc cpsr",
              f"x/4xw 0x{panic:x}", f"x/s 0x{banner:x}", "detach")
    pc = int(re.search(r"^pc\s+0x([0-9a-f]+)", out, re.M).group(1), 16)
    cpsr = int(re.search(r"^cpsr\s+0x([0-9a-f]+)", out, re.M).group(1), 16)
    # panic() loops with IRQs on: GDB's first byte may land in the kernel's IRQ entry (the
    # vector page, IRQ mode) as well as in its svc-mode delay loop
    assert pc >= 0xC0000000 and cpsr & 0x1F in (0x12, 0x13), out
    shown = re.search(rf"0x{panic:x}:\s+(.*)", out).group(1).split()
    assert [int(w, 16) for w in shown] == [int(w, 16) for w in words], out
    assert re.search(rf'0x{banner:x}[^:]*:\s+"Linux version 6\.', out), out
    assert "detached" in out
