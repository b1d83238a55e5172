# SPDX-License-Identifier: MIT
"""Breakpoints, steps and watchpoints on Debian's unmodified kernel (virt, HYP=1: the Hyp
shim routes the kernel's debug exceptions to fiqmon). One boot at the busybox shell serves
every check, in order; each stop is caused by a shell command whose own output then
proves the kernel ran on correctly."""

import re
import subprocess

import pytest

from test_gdb import gdb
from test_virt_smp import busybox_machine
from test_virt_tasks import shell

SYMBOL = re.compile(r"^([0-9a-f]{8}) (\w+)\+0x0/0x([0-9a-f]+)$", re.M)
STOP = re.compile(r"fiqmon: (breakpoint (\d+)|stepped|watchpoint (\d+) \((\w+)\) of ([0-9a-f]+) hit"
                  r"|the step entered the (\w+) vector), cpu (\d) at ([0-9a-f]{8})"
                  r"(?: \((\w+)\+0x([0-9a-f]+)/0x[0-9a-f]+\))?\r?\n")


@pytest.fixture(scope="module")
def kernel(tmp_path_factory):
    with busybox_machine(tmp_path_factory, 1, "bp", HYP=1) as fm:
        yield fm


def cmd(fm, line):
    return fm.cmd(line).strip()


def sym(fm, name):
    out = fm.cmd(f"sym {name}")
    m = SYMBOL.search(out) or re.search(rf"^([0-9a-f]{{8}}) {name} \(VMCOREINFO\)$", out, re.M)
    assert m, out
    return int(m.group(1), 16)


def wait_stop(fm, timeout=30):
    """The stop line the monitor prints when the debug unit stops the kernel."""
    _, m = fm.debug.expect(STOP.pattern.encode(), timeout=timeout)
    fm.debug.expect(rb"fiqmon> ", timeout=5)
    return m


def test_the_kernel_is_shown_no_debug_unit_of_its_own(kernel):
    """Linux's hw_breakpoint probed the debug unit at boot and found none to use (its
    cp14 reads answer 0): fiqmon's breakpoints are safe from it."""
    out = shell(kernel, "dmesg | grep hw-breakpoint")
    assert "debug architecture 0x0 unsupported" in out, out
    kernel.knock()
    hyp = kernel.cmd("hyp")
    kernel.leave()
    m = re.search(r"^debug: events=(\d+) kernel_cp14=(\d+)", hyp, re.M)
    assert m and int(m.group(2)) > 0, hyp


def test_bad_breakpoints_are_refused_and_nothing_is_set(kernel):
    kernel.knock()
    assert cmd(kernel, "bp 0") == "error: 00000000 is not mapped in the kernel: no breakpoint set"
    assert cmd(kernel, "bp no_such_function_here") == "error: no symbol 'no_such_function_here'"
    assert cmd(kernel, "bc 1") == "error: no breakpoint 1 (bl lists them)"
    assert cmd(kernel, "bc 10") == "error: no breakpoint 10 (bl lists them)"   # decimal
    assert cmd(kernel, "bc x") == "error: bad breakpoint number 'x' (bl lists them)"
    data = sym(kernel, "init_uts_ns")   # the kernel's data: mapped, XN
    assert cmd(kernel, f"bp {data:x}") == \
        f"error: {data:08x} is not executable (the kernel maps it XN): no breakpoint set"
    assert cmd(kernel, "ss") == "error: the kernel is not halted (halt first)"
    assert cmd(kernel, "bl") == "0 of 6 breakpoints, 4 watchpoints"
    base = sym(kernel, "sys_sync")
    for n in range(1, 7):
        assert kernel.cmd(f"bp {base + 4 * n:x}").startswith(f"breakpoint {n} at ")
    assert kernel.cmd(f"bp {base:x}").startswith("error: every breakpoint register is in use")
    assert cmd(kernel, "bc *") == ""
    assert cmd(kernel, "bl") == "0 of 6 breakpoints, 4 watchpoints"
    kernel.leave()
    assert shell(kernel, "sync; echo synced") == "synced"   # nothing left armed


def step_then_continue(fm, addr, cpu, done):
    """At the stop on sys_sync (addr) on CPU cpu: ss steps that CPU one instruction (the
    timer's interrupt, pending after the halt, runs unseen: the step is the instruction),
    bc 1, continue: the console's command completes (done: what it echoes)."""
    fm.debug.send(b"ss\r")
    m = wait_stop(fm)
    assert m.group(1) == b"stepped" and m.group(7) == str(cpu).encode(), m.group(0)
    assert m.group(9) == b"sys_sync" and int(m.group(8), 16) in (addr + 2, addr + 4), m.group(0)
    assert cmd(fm, "bc 1") == ""
    assert "kernel continues" in fm.cmd("continue")
    fm.leave()
    fm.console.expect(done, timeout=30)


def test_a_breakpoint_stops_the_shells_syscall_and_it_completes_after(kernel):
    """bp on sys_sync; busybox's `sync` enters it; the stop line names it; bt shows the
    syscall path; ss steps one instruction; continue lets `sync` finish."""
    kernel.knock()
    addr = sym(kernel, "sys_sync")
    assert re.match(rf"breakpoint 1 at {addr:08x} \(sys_sync\+0x0/0x[0-9a-f]+\)$",
                    kernel.cmd("bp sys_sync")), kernel.cmd("bl")
    kernel.leave()
    kernel.console.forget()
    kernel.console.send(b"sync; echo synced-$((6*7))\r")
    m = wait_stop(kernel)
    assert m.group(2) == b"1" and int(m.group(8), 16) == addr, m.group(0)
    assert m.group(9) == b"sys_sync" and m.group(10) == b"0", m.group(0)
    bt = kernel.cmd("bt")
    assert "sys_sync" in bt and "ret_fast_syscall" in bt, bt
    # the console is silent: the shell waits in the syscall
    assert b"synced-42" not in kernel.console.received_within(0.5)
    step_then_continue(kernel, addr, 0, rb"synced-42")


def test_continue_steps_over_the_breakpoint_and_it_hits_again(kernel):
    kernel.knock()
    kernel.cmd("bp sys_sync")
    kernel.leave()
    for round_ in range(2):
        kernel.console.send(f"sync; echo round-{round_} $((1+{round_}))one\r".encode())
        m = wait_stop(kernel)
        assert m.group(2) == b"1", m.group(0)
        assert "kernel continues" in kernel.cmd("continue")
        kernel.leave()
        kernel.console.expect(rf"round-{round_} {round_ + 1}one".encode(), timeout=30)
    kernel.knock()
    kernel.cmd("bc *")
    kernel.leave()


def gdb_async(fm, *commands):
    """gdb-multiarch on fiqmon's port, running while the test works the console. The
    commands go in on stdin (with -batch, GDB holds its output back until it exits, and the
    test must see "armed" before it makes the kernel hit the breakpoint)."""
    fm.debug.close()   # the port is GDB's now; GDB's opening packet is the knock
    args = ["gdb-multiarch", "-q", "-nx", "-ex", "set confirm off", "-ex", "set pagination off",
            "-ex", "set remotetimeout 10", "-ex", f"target remote {fm.debug_path}"]
    proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    proc.stdin.write("".join(c + "\n" for c in (*commands, "quit")).encode())
    proc.stdin.close()
    proc.stdin = None   # (communicate() would flush it)
    return proc


def gdb_stop_on(fm, command, trigger, after=("p/x $pc",)):
    """gdb: `command` (a breakpoint or watchpoint, inserted at once), continue; then the
    console runs `trigger`, which stops the kernel there; the `after` commands, delete,
    detach. GDB's whole output."""
    from test_gdb import read_until
    proc = gdb_async(fm, "set breakpoint always-inserted on", command, "echo armed\\n",
                     "continue", *after, "delete", "detach")
    got = read_until(proc, b"armed", 60)
    fm.console.send(trigger)
    return got + finish(fm, proc)


def finish(fm, proc, timeout=120):
    """GDB's whole output once it has quit; the test has the debug port back."""
    out, _ = proc.communicate(timeout=timeout)
    fm.attach_debug()
    return out.decode("latin1")


X_I = re.compile(r"^(=>)? *0x([0-9a-f]+)(?: <[^>]*>)?:\s+(\S+)\s*(.*)$", re.M)


@pytest.mark.parametrize("command", ["break", "hbreak"])
def test_gdb_break_stepi_twenty_times_delete_and_detach(kernel, command):
    """gdb: break (a software breakpoint: fiqmon's BKPT in the kernel's text) or hbreak (a
    breakpoint register) on sys_sync, `sync` on the console stops there; bt (GDB's, and
    fiqmon's through `monitor bt`, which names the syscall path); 20 stepi, each new
    pc checked against GDB's own disassembly of the instruction before; delete, detach: the
    command completes."""
    from test_gdb import read_until
    kernel.knock()
    addr = sym(kernel, "sys_sync")
    kernel.leave()
    steps = []
    for _ in range(20):
        steps += ["x/2i $pc", "stepi"]
    # always-inserted: the Z packet goes out with the command, so "armed" means armed (by
    # default GDB sends it only when it resumes, a race with the console's `sync`)
    proc = gdb_async(kernel, "set breakpoint always-inserted on", f"{command} *{addr:#x}",
                     "echo armed\\n", "continue", "p/x $pc", "bt 2", "monitor bt",
                     *steps, "x/2i $pc", "delete", "detach")
    got = read_until(proc, b"armed", 60)
    kernel.console.forget()
    kernel.console.send(b"sync; echo gdb-synced-$((6*7))\r")
    out = got + finish(kernel, proc)
    assert re.search(rf"\$1 = {addr:#x}", out), out
    # bt: GDB's own (no vmlinux: frame #0 is where it stopped) and fiqmon's, symbolized
    assert re.search(rf"^(?:\(gdb\) )*#0\s+{addr:#x} in ", out, re.M), out
    assert re.search(r"sys_sync\+0x0/.*\n(?:.*\n)*?.*ret_fast_syscall", out), out
    rows = [X_I.findall("=> " + block) for block in out.split("=> ")[1:]]
    pcs = [int(r[0][1], 16) for r in rows]
    assert len(pcs) == 21 and pcs[0] == addr, out
    for k in range(20):
        here, after = rows[k][0], rows[k][1]
        mnemonic, operands = here[2], here[3]
        fall = int(after[1], 16)
        nxt = pcs[k + 1]
        if nxt == fall:
            continue
        # not the next one: the instruction must be one that writes the pc
        assert (mnemonic.startswith(("b", "cb", "tb", "pop", "ldm", "svc")) or
                re.match(r"(ldr|mov|add|sub)\S*\s+pc", f"{mnemonic} {operands}")), \
            (hex(pcs[k]), mnemonic, operands, hex(nxt), out)
        target = re.match(r"0x([0-9a-f]+)", operands)
        if mnemonic.startswith("b") and target and "x" not in mnemonic[1:3]:
            assert nxt == int(target.group(1), 16), (hex(pcs[k]), mnemonic, operands, hex(nxt))
    kernel.console.expect(rb"gdb-synced-42", timeout=30)
    kernel.knock()
    assert cmd(kernel, "bl") == "0 of 6 breakpoints, 4 watchpoints"   # detach cleared it
    kernel.leave()


def nodename_word(fm, name="aaaaaaaaaaaa"):
    """An aligned word inside init_uts_ns.name.nodename (found by its text: the shell just
    set it to name), for a watchpoint the hostname command writes and uname reads."""
    assert shell(fm, f"hostname {name}; hostname") == name
    fm.knock()
    base = sym(fm, "init_uts_ns")
    dump = fm.cmd(f"md {base:x} 200 b")
    fm.leave()
    data = bytes(int(b, 16) for row in dump.splitlines()
                 for b in row.split(":")[1].split("  ")[0].split())
    off = data.index(name.encode())
    return (base + off + 3) & ~3


def test_gdb_watch_and_rwatch_stop_on_the_access_and_name_it(kernel):
    word = nodename_word(kernel)
    out = gdb_stop_on(kernel, f"watch *(int *){word:#x}",
                      b"hostname bbbbbbbbbbbb; echo renamed\r")
    assert re.search(rf"Hardware watchpoint 1: \*\(int \*\){word:#x}", out), out
    assert "Old value = 1633771873" in out and "New value = " in out, out   # 0x61616161
    kernel.console.expect(rb"renamed", timeout=30)
    out = gdb_stop_on(kernel, f"rwatch *(int *){word:#x}", b"uname -n\r")
    assert re.search(rf"Hardware read watchpoint 1: \*\(int \*\){word:#x}", out), out
    assert "Value = " in out, out
    kernel.console.expect(rb"bbbbbbbbbbbb", timeout=30)


def test_wp_in_the_shell_stops_the_write_and_names_who_wrote(kernel):
    """wp on the nodename word (kdb's bph ... dataw): `hostname` stops with the stop line
    naming the watchpoint and the writing function, bt goes back to the syscall; continue
    steps over the store and the command completes; bad wp input is one error line."""
    word = nodename_word(kernel, "ffffffffffff")
    kernel.knock()
    assert cmd(kernel, f"wp {word:x}") == f"watchpoint 1 (write) of 4 bytes at {word:08x}"
    assert cmd(kernel, f"wp {word:x} x") == "error: usage: wp ADDR|SYM [w|r|rw] [LEN: 1, 2 or 4]"
    assert cmd(kernel, f"wp {word + 2:x} w 4") == \
        f"error: 4 bytes at {word + 2:08x} cross a word: the unit watches within one"
    assert cmd(kernel, "wc 3") == "error: no watchpoint 3 (bl lists them)"
    # a data symbol VMCOREINFO names resolves as sym finds it (kallsyms has code only)
    uts = sym(kernel, "init_uts_ns")
    assert cmd(kernel, "wp init_uts_ns r") == f"watchpoint 2 (read) of 4 bytes at {uts:08x}"
    assert cmd(kernel, "wc 2") == ""
    assert cmd(kernel, "bp init_uts_ns") == \
        f"error: {uts:08x} is not executable (the kernel maps it XN): no breakpoint set"
    kernel.leave()
    kernel.console.send(b"hostname gggggggggggg; echo renamed-$((3*3))\r")
    m = wait_stop(kernel)
    assert m.group(3) == b"1" and m.group(4) == b"write" and int(m.group(5), 16) == word, \
        m.group(0)
    assert m.group(9), m.group(0)                      # symbolized: the kernel's own code
    bt = kernel.cmd("bt")
    assert "sethostname" in bt, bt
    assert "kernel continues" in kernel.cmd("continue")
    kernel.leave()
    kernel.console.expect(rb"renamed-9", timeout=30)
    kernel.knock()
    assert cmd(kernel, "wc 1") == ""
    assert cmd(kernel, "bl") == "0 of 6 breakpoints, 4 watchpoints"
    kernel.leave()


def test_gdb_bad_breakpoints_answer_errors(kernel):
    kernel.knock()
    text = sym(kernel, "sys_sync")
    data = sym(kernel, "init_uts_ns")
    kernel.leave()
    kernel.debug.close()
    out = gdb(kernel, None, "hbreak *0", "continue", "delete", f"watch *(int *){text + 2:#x}",
              "continue", "delete", f"x/1xw {data:#x}", f"maint packet Z0,{data:x},4",
              f"maint packet Z1,{data:x},4", f"x/1xw {data:#x}", "detach",
              setup=["set debug remote 1"], timeout=60)
    kernel.attach_debug()
    assert re.search(r"Packet received: E14", out), out     # Z1 on an unmapped address
    assert re.search(r"Packet received: E22", out), out     # a watch crossing a word
    # Z0 and Z1 on the kernel's data (mapped XN): E14, and the data is as it was
    assert re.search(rf'sending: Z0,{data:x},4\nreceived: "E14"', out), out
    assert re.search(rf'sending: Z1,{data:x},4\nreceived: "E14"', out), out
    words = re.findall(rf"^(?:\(gdb\) )*{data:#x}:\s+(0x[0-9a-f]+)$", out, re.M)
    assert len(words) == 2 and words[0] == words[1], out
    kernel.knock()
    assert cmd(kernel, "bl") == "0 of 6 breakpoints, 4 watchpoints"
    kernel.leave()


def test_a_thousand_software_breakpoints_leave_the_kernel_text_as_it_was(kernel):
    """1000 Z0/z0 (40 rounds of 25 planted at once) over 4000 bytes of kernel text from
    sys_sync: fiqmon's BKPT is there while planted, and afterwards every word is the
    kernel's again (the region's CRC-32 before and after, and each word). The first round
    asks for Thumb breakpoints (kind 2, what GDB without a vmlinux asks when it stopped in
    a Thumb user program): in the ARM kernel's text they are ARM BKPTs, whole words."""
    import zlib
    kernel.knock()
    base = sym(kernel, "sys_sync")
    kernel.leave()
    words = 1000
    commands = [f"x/{words}xw {base:#x}", "echo planted-first\\n"]
    for r in range(40):
        batch = [base + 4 * (25 * r + i) for i in range(25)]
        kind = 2 if r == 0 else 4
        commands += [f"maint packet Z0,{a:x},{kind}" for a in batch]
        if r == 0:
            commands += [f"x/25xw {base:#x}", "echo removing\\n"]
        commands += [f"maint packet z0,{a:x},{kind}" for a in batch]
    commands += ["echo after\\n", f"x/{words}xw {base:#x}", "detach"]
    out = finish(kernel, gdb_async(kernel, *commands), timeout=180)

    def dump(text):   # x/Nxw rows (GDB's "(gdb) " prompts end no line: drop them)
        rows = [re.sub(r"^(\(gdb\) )+", "", line) for line in text.splitlines()]
        return [int(w, 16) for row in rows if re.match(r"^0x[0-9a-f]+(?: <[^>]*>)?:\s", row)
                for w in row.split(":", 1)[1].split()]
    first, rest = out.split("planted-first", 1)
    planted, rest = rest.split("removing", 1)
    after = rest.split("after", 1)[1]
    before, during, now = dump(first), dump(planted), dump(after)
    assert len(before) == words and len(now) == words and len(during) == 25, out[-2000:]
    assert during == [0xe1200f71] * 25, [hex(w) for w in during]     # bkpt #0xf1
    assert out.count('received: "OK"') == 2000, out[-2000:]
    crc = lambda ws: zlib.crc32(b"".join(w.to_bytes(4, "little") for w in ws))
    assert crc(now) == crc(before) and now == before
    assert shell(kernel, "sync; echo text-intact") == "text-intact"


def test_gdbs_breakpoints_go_when_the_shell_exits_after_gdb_left(kernel):
    """GDB plants a software breakpoint and a watchpoint, then leaves for the shell (kgdb's
    $3#33) and dies without detaching: the shell lists them as GDB's; `exit` takes them out
    (the text is as it was; the shell's own breakpoint stays), and `sync` runs without a
    stop."""
    from test_gdb import read_until
    kernel.knock()
    addr = sym(kernel, "sys_sync")
    other = sym(kernel, "sys_reboot")   # (nothing here calls it)
    before = kernel.cmd(f"md {addr:x} 4 w")
    assert kernel.cmd(f"bp {other:x}").startswith("breakpoint 1 at ")
    kernel.leave()
    word = nodename_word(kernel)
    proc = gdb_async(kernel, "set breakpoint always-inserted on", f"break *{addr:#x}",
                     f"watch *(int *){word:#x}", "maint packet 3", "echo gone\\n")
    read_until(proc, b"gone", 60)
    proc.kill()   # no detach: GDB is gone
    proc.wait()
    kernel.attach_debug()
    kernel.debug.send(b"\x15")   # ^U: GDB's last acks ('-') are in the shell's line
    listed = kernel.cmd("bl")
    assert re.search(rf"^software breakpoint \(GDB's\) at {addr:08x} \(sys_sync\+0x0/", listed,
                     re.M), listed
    assert re.search(rf"^watchpoint \d \(write\) of 4 bytes at {word:08x} \(GDB's\)$", listed,
                     re.M), listed
    kernel.leave()
    kernel.knock()
    assert kernel.cmd(f"md {addr:x} 4 w") == before
    assert cmd(kernel, "bl").splitlines() == [
        line for line in listed.strip().splitlines() if line.startswith("breakpoint 1 ")] + [
        "1 of 6 breakpoints, 4 watchpoints"]
    assert cmd(kernel, "bc *") == ""
    kernel.leave()
    assert shell(kernel, "sync; hostname eeeeeeeeeeee; echo gdb-gone") == "gdb-gone"
