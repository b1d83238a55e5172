# SPDX-License-Identifier: MIT
"""Real gdb-multiarch (`set architecture aarch64`) against fiqmon's stub at EL3 on virt64:
Debian's unmodified arm64 kernel, panicked for lack of a root fs (one boot for most
tests), stopped by GDB's opener or by the shell's `gdb`; its registers and memory
against fiqmon's own `regs` and `md` in the same stop, `bt` and `monitor bt`, a thread
per CPU, a register written by GDB in the frame and in the kernel, E replies on the raw
wire, a 64 KiB dump against QEMU's own gdbstub; then GDB early in a boot (stepi and
break refused, nothing written, the kernel boots on after detach), and the test guest
hello64 with its symbols (a backtrace, continue and Ctrl-C, GDB at power on)."""

import os
import re
import shutil
import signal
import socket
import subprocess
import time

import pytest

from harness import ROOT, expand_rle, gdb_packet

PANIC_END = r"---\[ end Kernel panic - not syncing: VFS: Unable to mount root fs[^\r\n]*\]---"
KERNEL_VA = 0xFFFF000000000000            # TTBR1: every kernel address is above
IMAGE = ROOT / "build/linux-arm64/vmlinuz"
IMAGE_PA = 0x40200000                      # where QEMU loads the Image (platform.mk)
GUEST = ROOT / "build/guests/virt64/hello.elf"
GUEST_ENTRY = 0x40100000
SYMBOL = r"([\w.$]+)\+0x([0-9a-f]+)/0x([0-9a-f]+)"
FRAME = re.compile(r"^#(\d+)\s+([0-9a-f]{16}) " + SYMBOL, re.M)
NAMES = [f"x{i}" for i in range(31)] + ["sp", "pc", "cpsr"]


@pytest.fixture(scope="module", autouse=True)
def tools():
    assert shutil.which("gdb-multiarch"), "gdb-multiarch is required (make deps)"
    subprocess.run(["make", "-s", "-C", str(ROOT), "linux", "ARCH=arm64"], check=True)
    subprocess.run(["make", "-s", "-C", str(ROOT), "virt64-guests"], check=True)


def gdb(fm, *commands, elf=None, setup=(), timeout=120):
    """gdb -batch: setup, connect, commands (GDB detaches at the end if it is still
    attached). elf None: no symbol file, as with a kernel whose vmlinux GDB lacks."""
    args = ["gdb-multiarch", "-q", "-nx", "-batch", "-ex", "set confirm off",
            "-ex", "set pagination off", "-ex", "set remotetimeout 10",
            "-ex", "set architecture aarch64"]
    for c in (*setup, f"target remote {fm.debug_path}", *commands):
        args += ["-ex", c]
    out = subprocess.run(args + ([str(elf)] if elf else []), capture_output=True, text=True,
                         timeout=timeout)
    return out.stdout + out.stderr


def shell(fm):
    """Connect to the debug port (GDB has let go of it) and knock."""
    fm.attach_debug()
    fm.knock()


def hand_to_gdb(fm):
    """The shell's `gdb`: the kernel stays stopped for GDB; the port is GDB's after this."""
    fm.debug.send("gdb\r")
    fm.debug.expect(r"fiqmon: uart1 speaks the GDB remote protocol until detach; the kernel "
                    r"is stopped\r\n")
    fm.debug.close()


def fiqmon_regs(text):
    """`regs` on AArch64: {x0..x30, sp, pc, cpsr: value}."""
    regs = {k: int(v, 16) for k, v in re.findall(r"\b(x\d+|sp|pc)\s*=([0-9a-f]{16})\b", text)}
    regs["cpsr"] = int(re.search(r"pstate=([0-9a-f]{8})", text).group(1), 16)
    assert sorted(regs) == sorted(NAMES), text
    return regs


def gdb_regs(out):
    """`info registers` from GDB: {name: value} for the aarch64 core registers."""
    regs = {k: int(v, 16) for k, v in re.findall(r"^(x\d+|sp|pc|cpsr)\s+0x([0-9a-f]+)", out,
                                                 re.M)}
    assert sorted(regs) == sorted(NAMES), out
    return regs


def md_words(text):
    return [int(w, 16) for row in text.splitlines() if ":" in row
            for w in row.split(":")[1].split("  ")[0].split()]


def gdb_words(out, addr, count):
    """The words GDB's x/COUNTwx at addr printed."""
    words, at = [], addr
    while len(words) < count:
        m = re.search(rf"^0x0*{at:x}(?: <[^>]*>)?:\s+((?:0x[0-9a-f]+\s*)+)$", out, re.M)
        assert m, f"no x output at {at:#x}:\n{out}"
        row = [int(w, 16) for w in m.group(1).split()]
        words += row
        at += 4 * len(row)
    return words[:count]


def symbol(fm, name):
    """(address, size) of a kernel function, from fiqmon's sym (kallsyms)."""
    m = re.search(rf"^([0-9a-f]{{16}}) {re.escape(name)}\+0x0/0x([0-9a-f]+)$",
                  fm.cmd(f"sym {name}", timeout=30), re.M)
    assert m, f"sym {name}"
    return int(m.group(1), 16), int(m.group(2), 16)


def online_cpus(fm):
    return len(re.findall(r"^[ *] cpu\d+ (?:stopped|running)", fm.cmd("cpu"), re.M))


@pytest.fixture(scope="module")
def kernel(module_boot, tmp_path_factory):
    """Debian's arm64 kernel at its panic, the debug port free for GDB (each test leaves
    the kernel running and the port closed)."""
    qgdb = tmp_path_factory.mktemp("qemu-gdb") / "gdb.sock"
    fm = module_boot("virt64", "nodelay", BOOT_DELAY_MS=0, KERNEL="debian", gdb=True,
                     qemu_extra=f"-gdb unix:{qgdb},server=on,wait=off")
    fm.qemu_gdb = qgdb                     # QEMU's own gdbstub: the reference for dumps
    fm.console.expect(PANIC_END, timeout=120)
    return fm


# --- GDB against the panicked kernel ----------------------------------------------------

def test_registers_are_fiqmons_and_threads_are_cpus(kernel):
    """The shell's `gdb` after a halt: GDB sees exactly the context `regs` showed."""
    shell(kernel)
    assert "stop reason: knock" in kernel.cmd("halt")
    shown = fiqmon_regs(kernel.cmd("regs"))
    cpus = online_cpus(kernel)
    hand_to_gdb(kernel)
    out = gdb(kernel, "info registers", "info threads", "p $v0", "detach")
    assert gdb_regs(out) == shown, out
    assert shown["pc"] >= KERNEL_VA and shown["sp"] >= KERNEL_VA
    assert re.search(r"^cpsr\s+0x[0-9a-f]+\s+\[ (?:SP )?EL=[12]\b", out, re.M), out
    threads = re.findall(r"^[* ] (\d+)\s+Thread (\d+) \(CPU (\d+) \[halted\]\)", out, re.M)
    assert len(threads) == cpus >= 1, out
    assert [(int(i), int(t), int(c)) for i, t, c in threads] == \
        [(n + 1, n + 1, n) for n in range(cpus)], out
    assert "$1 = void" in out, "no SIMD/FP registers: there is no $v0"
    assert "Inferior 1 (Remote target) detached" in out


def test_memory_is_what_md_shows_at_64_bit_addresses(kernel):
    """x/4wx of panic's code from a GDB that connected with no knock (its opener stops the
    kernel) equals md's; x/8wx of the stack, in the stop `regs` and `md` saw, too."""
    shell(kernel)
    panic, _ = symbol(kernel, "panic")
    code = md_words(kernel.cmd(f"md {panic:x} 10"))
    kernel.leave()
    kernel.debug.close()
    out = gdb(kernel, f"x/4wx 0x{panic:x}", "detach")
    assert gdb_words(out, panic, 4) == code, out

    shell(kernel)
    assert "stop reason: knock" in kernel.cmd("halt")
    sp = fiqmon_regs(kernel.cmd("regs"))["sp"]
    stack = md_words(kernel.cmd(f"md {sp:x} 20"))
    hand_to_gdb(kernel)
    out = gdb(kernel, "p/x $sp", "x/8wx $sp", f"x/2gx 0x{sp:x}", "detach")
    assert re.search(rf"^\$1 = 0x{sp:x}$", out, re.M), out
    assert gdb_words(out, sp, 8) == stack, out
    dwords = re.search(rf"^0x{sp:x}:\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)$", out, re.M)
    assert [int(v, 16) for v in dwords.groups()] == \
        [stack[0] | stack[1] << 32, stack[2] | stack[3] << 32], out


def test_bt_starts_at_pc_and_monitor_bt_follows_the_kernels_chain(kernel):
    """GDB has no vmlinux (Debian ships none in the Image), so its own bt shows frame #0
    only reliably; `monitor bt` is fiqmon's unwinder through the kernel's frame records,
    the same chain the shell's bt prints."""
    out = gdb(kernel, "p/x $pc", "bt 3", "monitor bt", "detach")
    pc = int(re.search(r"^\$1 = 0x([0-9a-f]+)$", out, re.M).group(1), 16)
    assert re.search(rf"^#0\s+0x0*{pc:x} in \?\? \(\)$", out, re.M), out
    frames = FRAME.findall(out)
    names = [name for _, _, name, _, _ in frames]
    assert "bt: frame records (x29)" in out and "bt: end of the chain" in out, out
    assert int(frames[0][1], 16) == pc, out
    assert "panic" in names and names[-1] == "ret_from_fork", out


def test_a_register_gdb_writes_lands_in_the_frame_and_in_the_kernel(kernel):
    """Stopped in the panic loop's __delay, whose loop compares the cycle count with x19:
    GDB makes x19 huge; fiqmon's regs shows it in the same stop (the frame), and after
    detach the kernel keeps looping there with it (the exit path restored it). A second
    GDB session puts the old bound back."""
    shell(kernel)
    start, size = symbol(kernel, "__delay")
    code = md_words(kernel.cmd(f"md {start:x} {size:x}"))
    loops = []
    for i in range(len(code) - 1):
        # cmp xN, x19 (subs xzr, xN, x19), then b.cc backwards: a delay loop (there is one
        # for each way __delay may wait)
        imm19 = (code[i + 1] >> 5) & 0x7FFFF
        if (code[i] & 0xFFFFFC1F) == 0xEB13001F and (code[i + 1] & 0xFF000010) == 0x54000000 \
                and imm19 & 0x40000:
            branch = start + 4 * (i + 1)
            loops.append((branch + 4 * (imm19 - 0x80000), branch))
    assert loops, "__delay has no loop bounded by x19 in this kernel"

    def in_loop(pc):
        return any(lo <= pc <= hi for lo, hi in loops)

    for _ in range(40):
        assert "stop reason: knock" in kernel.cmd("halt")
        regs = fiqmon_regs(kernel.cmd("regs"))
        if in_loop(regs["pc"]) and regs["x19"] < 1 << 32:
            break
        kernel.cmd("continue")
    else:
        raise AssertionError(f"never stopped in __delay's loops {loops}")
    bound = regs["x19"]
    hand_to_gdb(kernel)
    huge = 0x7FFFFFFFFFFFF019
    out = gdb(kernel, f"set $x19 = {huge:#x}", "p/x $x19", "monitor regs", "detach")
    assert f"$1 = {huge:#x}" in out, out
    assert f"x19={huge:016x}" in out, "monitor regs: the frame holds the new x19"
    assert f"pc ={regs['pc']:016x}" in out, out
    # the kernel runs on with it: whenever a knock finds it in the loop, x19 is as written
    shell(kernel)
    seen = 0
    for _ in range(30):
        after = fiqmon_regs(kernel.cmd("regs"))
        if in_loop(after["pc"]):
            assert after["x19"] == huge, after
            seen += 1
            if seen == 3:
                break
        kernel.leave()
        kernel.knock()
    assert seen == 3, "the kernel left __delay's loops: x19 did not reach it"
    kernel.leave()
    kernel.debug.close()
    out = gdb(kernel, f"set $x19 = {bound:#x}", "detach")
    assert "detached" in out, out
    shell(kernel)
    assert fiqmon_regs(kernel.cmd("regs"))["x19"] != huge
    kernel.leave()
    kernel.debug.close()


def exchange(sock, body, timeout=10.0):
    """Send one packet; return the reply body (run-length expanded) after its '+'."""
    sock.sendall(gdb_packet(body))
    got, deadline = b"", time.monotonic() + timeout
    while True:
        m = re.search(rb"\+\$([^#]*)#([0-9a-f]{2})", got)
        if m:
            assert sum(m.group(1)) & 0xFF == int(m.group(2), 16), got
            return expand_rle(m.group(1).decode("latin1"))
        left = deadline - time.monotonic()
        assert left > 0, f"no reply to {body!r}: {got!r}"
        sock.settimeout(left)
        got += sock.recv(65536)


def test_the_raw_wire_gets_e_replies_and_64_bit_memory(kernel):
    """Packets by hand, without GDB: malformed and too long numbers are E22, unmapped and
    Secure memory E14, breakpoints and steps E01 (no debug unit), an oversized packet is
    nacked; a 64-bit m reads what md does."""
    shell(kernel)
    panic, _ = symbol(kernel, "panic")
    want = md_words(kernel.cmd(f"md {panic:x} 8"))
    kernel.leave()
    kernel.debug.close()
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(str(kernel.debug_path))
    try:
        assert exchange(sock, "qSupported:swbreak+;hwbreak+").startswith("PacketSize=800;")
        assert exchange(sock, "?") == "T02thread:01;"
        words = bytes.fromhex(exchange(sock, f"m{panic:x},8"))
        assert [int.from_bytes(words[i:i + 4], "little") for i in (0, 4)] == want
        g = exchange(sock, "g")
        assert len(g) == 33 * 16 + 8
        pc = int.from_bytes(bytes.fromhex(g[32 * 16:33 * 16]), "little")
        assert exchange(sock, "p20") == g[32 * 16:33 * 16] and pc >= KERNEL_VA
        for body, reply in [
                ("m10000000000000000,4", "E22"),         # 65 bits
                (f"m{panic:x},100000000", "E22"),
                ("p22", "E22"), ("P13=1234", "E22"), ("G00", "E22"),
                ("P21=" + (0x6000000D).to_bytes(4, "little").hex(), "E22"),  # to EL3h
                ("m1000,4", "E14"),                      # the kernel maps nothing there
                ("me000000,4", "E14"),                   # fiqmon's Secure RAM
                ("Me000000,4:00000000", "E14"),
                (f"Z0,{panic:x},4", "E01"), (f"Z1,{panic:x},4", "E01"), ("s", "E01"),
                ("vCont?", "vCont;c;C")]:
            assert exchange(sock, body) == reply, body
        sock.sendall(b"$m" + b"f" * 2100 + b"#00")
        sock.settimeout(10)
        assert sock.recv(1) == b"-", "an oversized packet is nacked"
        assert exchange(sock, "D") == "OK"
    finally:
        sock.close()
    shell(kernel)                          # detached: the kernel runs, a knock enters
    kernel.leave()
    kernel.debug.close()


def test_a_64_kib_dump_equals_qemus_gdbstub(kernel, tmp_path):
    """GDB dumps 64 KiB of the kernel's text at its virtual address through fiqmon (1 KiB
    m packets, run-length encoded); QEMU's own gdbstub reads the same bytes physically
    while fiqmon's session still holds the kernel."""
    shell(kernel)
    text, _ = symbol(kernel, "_stext")
    # its physical address: the Image stays where QEMU put it (no EFI stub moves it), and
    # is mapped in one piece, so panic's code (past its patchable entry) found in the file
    # gives the offset
    panic, _ = symbol(kernel, "panic")
    code = b"".join(w.to_bytes(4, "little")
                    for w in md_words(kernel.cmd(f"md {panic + 0x10:x} 40")))
    image = IMAGE.read_bytes()
    offset = image.find(code)
    assert offset > 0 and image.find(code, offset + 1) < 0, "panic's code, once, in the Image"
    pa = IMAGE_PA + offset - (panic + 0x10 - text)
    assert md_words(kernel.cmd(f"md -p {pa:x} 100")) == md_words(kernel.cmd(f"md {text:x} 100"))
    kernel.leave()
    kernel.debug.close()
    ours, theirs = tmp_path / "fiqmon.bin", tmp_path / "qemu.bin"
    size = 0x10000
    g = subprocess.Popen(["gdb-multiarch", "-q", "-nx", "-ex", "set confirm off",
                          "-ex", "set pagination off", "-ex", "set architecture aarch64",
                          "-ex", f"target remote {kernel.debug_path}",
                          "-ex", f"dump binary memory {ours} 0x{text:x} 0x{text + size:x}",
                          "-ex", "echo dumped\\n"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        got, deadline = b"", time.monotonic() + 120
        while b"dumped\n" not in got:
            assert time.monotonic() < deadline, f"GDB did not finish the dump: {got!r}"
            chunk = os.read(g.stdout.fileno(), 4096)
            assert chunk, f"GDB exited: {got!r}"
            got += chunk
        # fiqmon's session holds the kernel; QEMU's stub stops the machine while it reads
        q = subprocess.run(["gdb-multiarch", "-q", "-nx", "-batch", "-ex", "set confirm off",
                            "-ex", "set architecture aarch64",
                            "-ex", f"target remote {kernel.qemu_gdb}",
                            "-ex", "maintenance packet Qqemu.PhyMemMode:1",
                            "-ex", f"dump binary memory {theirs} 0x{pa:x} 0x{pa + size:x}",
                            "-ex", "detach"], capture_output=True, text=True, timeout=120)
        assert theirs.exists(), q.stdout + q.stderr
        g.stdin.write(b"detach\nquit\n")
        g.stdin.flush()
        g.communicate(timeout=60)
    finally:
        if g.poll() is None:
            g.kill()
    assert ours.stat().st_size == size
    assert len(set(ours.read_bytes())) > 64, "code, not an empty page"
    assert ours.read_bytes() == theirs.read_bytes()


# --- GDB early in a boot: no breakpoints, no steps; detach and the kernel goes on -------

def test_stepi_and_break_fail_cleanly_and_detach_lets_the_kernel_boot(boot):
    """GDB on aarch64 steps with the target's vCont;s (no software single-step as on arm):
    refused (E22, not offered by vCont?), GDB says the program stopped where it was. A
    breakpoint's Z0 gets E01: GDB cannot insert it, and writes nothing instead."""
    fm = boot("virt64", "nodelay", BOOT_DELAY_MS=0, KERNEL="debian", gdb=True)
    fm.console.expect(r"Booting Linux", timeout=60)
    fm.console.forget()
    out = gdb(fm, "p/x $pc", "stepi", "p/x $pc", "break *($pc + 8)", "continue", "p/x $pc",
              "info registers cpsr", setup=["set debug remote 1"])
    pcs = [int(v, 16) for v in re.findall(r"^\$\d+ = 0x([0-9a-f]+)$", out, re.M)]
    assert len(pcs) == 3 and len(set(pcs)) == 1 and pcs[0] >= KERNEL_VA, out
    assert re.search(r"Sending packet: \$vCont;s[:;]", out), out
    assert "Remote failure reply: E22" in out and "Program stopped." in out, out
    assert re.search(rf"Sending packet: \$Z0,{pcs[0] + 8:x},4", out), out
    assert re.search(r"Cannot insert breakpoint 1\.", out), out
    assert "Command aborted." in out and "detached" in out, out
    assert not re.findall(r"Sending packet: \$[MX][0-9a-f]+,", out), \
        "GDB fell back to writing breakpoints"
    # detached: the kernel boots on to its panic, and prints it
    fm.console.expect(PANIC_END, timeout=120)


# --- the hello64 guest, with its symbols --------------------------------------------------

def test_on_a_guest_with_symbols_bt_continue_ctrl_c_and_detach(boot):
    fm = boot("virt64", "nodelay", BOOT_DELAY_MS=0, KERNEL=str(GUEST.relative_to(ROOT)),
              gdb=True)
    fm.console.expect(r"guest hello64: tick \d+", timeout=30)
    out = gdb(fm, "bt", "info registers pc", elf=GUEST, setup=["set backtrace past-main on"])
    frames = re.findall(r"^#\d+\s+(?:0x[0-9a-f]+ in )?(\w+)", out, re.M)
    assert frames[-2:] == ["main", "_start"], out   # (delay_loops, inlined, before main)
    pc = int(re.search(r"^pc\s+0x([0-9a-f]+)", out, re.M).group(1), 16)
    assert GUEST_ENTRY <= pc < GUEST_ENTRY + 0x100000
    assert "detached" in out
    fm.console.expect(r"guest hello64: tick \d+", timeout=30)    # it runs after detach
    g = subprocess.Popen(["gdb-multiarch", "-q", "-nx", "-ex", "set confirm off",
                          "-ex", "set pagination off", "-ex", f"target remote {fm.debug_path}",
                          str(GUEST)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT)
    try:
        g.stdin.write(b"p $pc\n")
        g.stdin.flush()
        seen = b""
        while b"$1 = " not in seen:
            chunk = os.read(g.stdout.fileno(), 4096)
            assert chunk, f"GDB exited: {seen!r}"
            seen += chunk
        fm.console.forget()                # stopped: no tick until continue
        assert b"tick" not in fm.console.received_within(1.0)
        g.stdin.write(b"continue\n")
        g.stdin.flush()
        fm.console.expect(r"guest hello64: tick \d+", timeout=30)
        os.kill(g.pid, signal.SIGINT)      # GDB sends 0x03; fiqmon stops the guest
        g.stdin.write(b"p $pc\ndetach\nquit\n")
        g.stdin.flush()
        out = seen.decode() + g.communicate(timeout=60)[0].decode()
    finally:
        if g.poll() is None:
            g.kill()
    assert "SIGINT" in out and "detached" in out, out
    fm.console.expect(r"guest hello64: tick \d+", timeout=30)


def test_gdb_at_power_on_gets_the_guest_at_its_first_instruction(boot):
    fm = boot("virt64", "delay5s", BOOT_DELAY_MS=5000, KERNEL=str(GUEST.relative_to(ROOT)),
              gdb=True)
    out = gdb(fm, "p/x $pc", "info registers cpsr", "detach", elf=GUEST)
    assert re.search(rf"^\$1 = {GUEST_ENTRY:#x}$", out, re.M), out
    assert re.search(r"^cpsr\s+0x[0-9a-f]+\s+\[ .*EL=2", out, re.M), out
    fm.console.expect(r"guest hello64: ready", timeout=30)
    assert fm.console.log.count(b"guest hello64: ready") == 1
