# SPDX-License-Identifier: MIT
"""Real gdb-multiarch against fiqmon's stub over the debug port: no knock, a hung guest,
registers, memory, a backtrace through the guest's symbols, writes the shell can see,
monitor commands, detach, and Ctrl-C."""

import os
import re
import shutil
import signal
import subprocess

import pytest

from harness import ROOT

GUESTS = ROOT / "build/guests"


@pytest.fixture(scope="module", autouse=True)
def tools():
    assert shutil.which("gdb-multiarch"), "gdb-multiarch is required (make deps)"
    subprocess.run(["make", "-s", "-C", str(ROOT), "guests"], check=True)


def gdb(fm, elf, *commands, timeout=60):
    args = ["gdb-multiarch", "-q", "-nx", "-batch", "-ex", "set confirm off",
            "-ex", "set remotetimeout 10", "-ex", f"target remote {fm.debug_path}"]
    for c in commands:
        args += ["-ex", c]
    out = subprocess.run(args + [str(elf)], capture_output=True, text=True, timeout=timeout)
    return out.stdout + out.stderr


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
        g.stdin.write(b"p $pc\ncontinue\n")
        g.stdin.flush()
        # stopped by the connection, the guest ticks again once GDB continues it
        fm.console.forget()
        fm.console.expect(r"guest ticker: tick \d+", timeout=20)
        fm.console.expect(r"guest ticker: tick \d+", timeout=20)
        os.kill(g.pid, signal.SIGINT)      # GDB sends 0x03; fiqmon stops the guest
        g.stdin.write(b"p $pc\ninfo registers cpsr\ndetach\nquit\n")
        g.stdin.flush()
        out = g.communicate(timeout=60)[0].decode()
    finally:
        if g.poll() is None:
            g.kill()
    assert "SIGINT" in out, out
    assert "detached" in out, out
    # after detach the guest runs on
    fm.console.expect(r"guest ticker: tick \d+", timeout=20)
    fm.console.expect(r"guest ticker: tick \d+", timeout=20)


def linux_banner_address(fm):
    """linux_banner, by the kernel's own address for it. Debian's kallsyms has no data
    symbols (no KALLSYMS_ALL), but start_kernel prints the banner: the movw/movt pairs in
    its code (found through kallsyms) load the address."""
    m = re.search(r"^([0-9a-f]{8}) start_kernel\+0x0/0x([0-9a-f]+)",
                  fm.cmd("sym start_kernel", timeout=30), re.M)
    start, size = int(m.group(1), 16), int(m.group(2), 16)
    dump = fm.cmd(f"md {start:x} {min(size, 0x1000):x}")
    words = [int(w, 16) for row in dump.splitlines()
             for w in row.split(":")[1].split("  ")[0].split()]
    low, found = {}, []
    for w in words:
        rd = (w >> 12) & 0xF
        imm = ((w >> 4) & 0xF000) | (w & 0xFFF)
        if w & 0x0FF00000 == 0x03000000:          # movw rd, #imm
            low[rd] = imm
        elif w & 0x0FF00000 == 0x03400000 and rd in low:   # movt rd, #imm
            found.append(imm << 16 | low[rd])
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
    out = gdb(fm, ROOT / "build/virt/fiqmon.elf", "info registers pc cpsr",
              f"x/4xw 0x{panic:x}", f"x/s 0x{banner:x}", "detach")
    pc = int(re.search(r"^pc\s+0x([0-9a-f]+)", out, re.M).group(1), 16)
    cpsr = int(re.search(r"^cpsr\s+0x([0-9a-f]+)", out, re.M).group(1), 16)
    assert pc >= 0xC0000000 and cpsr & 0x1F == 0x13, out
    shown = re.search(rf"0x{panic:x}:\s+(.*)", out).group(1).split()
    assert [int(w, 16) for w in shown] == [int(w, 16) for w in words], out
    assert re.search(rf'0x{banner:x}[^:]*:\s+"Linux version 6\.', out), out
    assert "detached" in out
