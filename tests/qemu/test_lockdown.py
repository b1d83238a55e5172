# SPDX-License-Identifier: MIT
"""Production lockdown (docs/lockdown.md) on real QEMU: a PROFILE=production build with a
key no test knows in advance. Locked from reset, unlocked only by the answer that
tools/fiqmon-unlock computes from the key file, relocked by `lock` and by leaving; fiqmon's
own memory and its key never shown; `readonly` stops writes from the shell and from GDB."""

import os
import re
import subprocess
import time

import pytest

from harness import KNOCK, PROMPT, ROOT, elf_symbols, expand_rle

UNLOCK_TOOL = ROOT / "tools/fiqmon-unlock"
# What anyone with a cable may run on a locked device.
LOCKED_SET = {"help", "version", "unlock", "lock", "readonly", "exit"}
RESIDENT = {"versatilepb": 0x07ff0000, "virt": 0x0e000000}


@pytest.fixture(scope="module")
def key_file(tmp_path_factory):
    """32 random bytes, ending in ones a careless key converter would mangle."""
    path = tmp_path_factory.mktemp("lockdown") / "device.key"
    path.write_bytes(os.urandom(28) + b'\x00\n"\\')
    return path


def production(boot, key_file, platform="versatilepb"):
    fm = boot(platform, "production", PROFILE="production", UNLOCK_KEY=str(key_file))
    knock_locked(fm)
    return fm


def knock_locked(fm):
    """Knock on a locked device: the entry line shows no register, not even the pc."""
    fm.debug.send(KNOCK)
    fm.debug.expect(r"fiqmon: entered by knock \(locked\)\r\n")
    fm.debug.expect(re.escape(PROMPT))


def commands(fm):
    """Every command `help` lists."""
    return [line.split()[0] for line in fm.cmd("help").splitlines() if line.startswith("  ")]


def refused(name):
    return f"error: '{name}' is not permitted now\n"


def nonce_of(fm):
    out = fm.cmd("unlock")
    m = re.match(r"nonce ([0-9a-f]{32})\nanswer: unlock \$\(tools/fiqmon-unlock KEYFILE NONCE\)\n$",
                 out)
    assert m, out
    return m.group(1)


def answer(key_file, nonce):
    return subprocess.run([str(UNLOCK_TOOL), str(key_file), nonce], check=True,
                          capture_output=True, text=True).stdout.strip()


def unlock(fm, key_file):
    assert fm.cmd(f"unlock {answer(key_file, nonce_of(fm))}") == "fiqmon: unlocked\n"


def md_bytes(out):
    """The bytes of `md ... b` rows."""
    return bytes(int(b, 16) for row in out.splitlines() if ":" in row
                 for b in row.split(":")[1].split("  ")[0].split())


@pytest.mark.parametrize("platform", ["versatilepb", "virt"])
def test_every_restricted_command_is_refused_before_unlock(boot, key_file, platform):
    fm = production(boot, key_file, platform)
    assert "profile production, locked\n" in fm.cmd("version")
    names = commands(fm)
    assert LOCKED_SET < set(names)
    for name in names:
        if name not in LOCKED_SET:
            assert fm.cmd(name) == refused(name)
    # with arguments, abbreviated: the same one line, and nothing ran
    assert fm.cmd("mw 100000 1") == refused("mw")
    assert fm.cmd("hal") == refused("halt")
    assert fm.cmd("reb") == refused("reboot")
    assert "fiqmon> " not in fm.debug.drain(0.3)  # no reboot banner, nothing pending
    assert "profile production, locked\n" in fm.cmd("version")


@pytest.mark.parametrize("platform", ["versatilepb", "virt"])
def test_wrong_answer_refused_right_answer_unlocks_and_lock_relocks(boot, key_file, platform):
    fm = production(boot, key_file, platform)
    nonce = nonce_of(fm)
    wrong = answer(key_file, nonce)
    wrong = wrong[:-1] + ("0" if wrong[-1] != "0" else "1")
    assert fm.cmd(f"unlock {wrong}") == "error: wrong answer (1 of 5 failures)\n"
    assert fm.cmd("regs") == refused("regs")
    # that nonce is used up: its right answer no longer counts
    assert fm.cmd(f"unlock {answer(key_file, nonce)}") == \
        "error: no challenge: type unlock first\n"
    nonce2 = nonce_of(fm)
    assert nonce2 != nonce
    assert fm.cmd(f"unlock {answer(key_file, nonce2)}") == "fiqmon: unlocked\n"
    assert "profile production, unlocked\n" in fm.cmd("version")
    # production ships with the hard-lockup watchdog on, at Linux's watchdog_thresh
    assert re.match(r"watchdog=10s \(watching .+\) lockups=0\n$", fm.cmd("watchdog"))
    assert re.search(r"\bpc=[0-9a-f]{8}", fm.cmd("regs"))
    scratch = fm.platform.scratch
    assert fm.cmd(f"mw {scratch:x} 5a5a1234") == ""
    assert fm.cmd(f"md {scratch:x} 4").split(":")[1].split()[0] == "5a5a1234"
    assert fm.cmd("lock") == "fiqmon: locked\n"
    assert fm.cmd("regs") == refused("regs")
    assert fm.cmd(f"md {scratch:x} 4") == refused("md")
    # leaving relocks too
    unlock(fm, key_file)
    fm.leave()
    knock_locked(fm)
    assert "profile production, locked\n" in fm.cmd("version")
    assert fm.cmd("pc") == refused("pc")


def test_five_wrong_answers_lock_out_until_reset(boot, key_file):
    fm = production(boot, key_file)
    waited = 0.0
    for i in range(1, 6):
        line = f"unlock {answer(key_file, nonce_of(fm))[::-1]}"
        start = time.monotonic()
        out = fm.cmd(line, timeout=20)
        waited += time.monotonic() - start
        tail = ": locked out until reset" if i == 5 else ""
        assert out == f"error: wrong answer ({i} of 5 failures){tail}\n"
    assert waited >= 1.5, f"the back-off (100 + 200 + ... + 500 ms) took {waited:.2f} s"
    assert fm.cmd("unlock") == "error: locked out until reset\n"
    assert "locked out until reset" in fm.cmd("version")
    assert fm.cmd("md 0 4") == refused("md")


def test_fiqmons_memory_and_key_stay_hidden_even_when_unlocked(boot, key_file):
    fm = production(boot, key_file)
    unlock(fm, key_file)
    syms = elf_symbols(fm.elf)
    key_at = syms["lockdown_key"][0]
    assert syms["lockdown_key"][1] == 32
    for addr in (RESIDENT["versatilepb"], key_at, key_at + 31, syms["__stack_fiq_top"][0] - 64,
                 syms["__bss_start"][0]):
        assert fm.cmd(f"md {addr:x} 4 b") == f"error: fault at 0x{addr:08x}\n"
        assert fm.cmd(f"md -p {addr:x} 4 b") == f"error: fault at 0x{addr:08x}\n"
        assert fm.cmd(f"mw {addr:x} 0 b") == f"error: fault at 0x{addr:08x}\n"
    # a dump running into fiqmon's home stops at its first byte
    out = fm.cmd(f"md {RESIDENT['versatilepb'] - 16:x} 20 b")
    assert out.endswith(f"error: fault at 0x{RESIDENT['versatilepb']:08x}\n"), out
    # the image fiqmon was loaded from kept a copy of the key: wiped at boot
    copy = key_at - syms["__resident_copy_start"][0] + load_address_of_text(fm.elf)
    got = md_bytes(fm.cmd(f"md {copy:x} 20 b"))
    assert got == bytes(32), got.hex()
    # and no output so far showed the key
    assert key_file.read_bytes()[:12].hex() not in fm.debug.log.decode("latin1").replace(" ", "")


def load_address_of_text(elf):
    """LMA of .text: where QEMU's ELF loader put the resident image before the copy."""
    out = subprocess.run(["arm-none-eabi-objdump", "-h", str(elf)], check=True,
                         capture_output=True, text=True).stdout
    m = re.search(r"^\s*\d+\s+\.text\s+[0-9a-f]+\s+[0-9a-f]+\s+([0-9a-f]+)", out, re.M)
    return int(m.group(1), 16)


def test_virt_secure_memory_and_key_stay_hidden_even_when_unlocked(boot, key_file):
    fm = production(boot, key_file, "virt")
    unlock(fm, key_file)
    key_at = elf_symbols(fm.elf)["lockdown_key"][0]
    assert RESIDENT["virt"] <= key_at < RESIDENT["virt"] + 0x18000
    for addr in (RESIDENT["virt"], key_at):
        assert fm.cmd(f"md -p {addr:x} 4 b") == f"error: fault at 0x{addr:08x}\n"
        assert fm.cmd(f"mw -p {addr:x} 0 b") == f"error: fault at 0x{addr:08x}\n"


# --- GDB packets straight over the debug port ---------------------------------------------

def packet(body):
    return f"${body}#{sum(body.encode()) & 0xff:02x}"


def gdb_exchange(fm, body, timeout=10):
    """Send one packet; return the body of the reply (acks handled)."""
    fm.debug.send(packet(body))
    fm.debug.expect(r"\+", timeout)
    _, m = fm.debug.expect(rb"\$([^#]*)#[0-9a-f]{2}", timeout)
    fm.debug.send("+")
    return expand_rle(m.group(1).decode("latin1"))


def gdb_session(fm):
    fm.debug.send("gdb\r")
    fm.debug.expect(r"speaks the GDB remote protocol until detach.*?\r\n")
    assert gdb_exchange(fm, "qSupported:xmlRegisters=arm").startswith("PacketSize=")


def test_readonly_blocks_mw_halt_and_gdb_writes(boot, key_file):
    fm = production(boot, key_file)
    unlock(fm, key_file)
    scratch = fm.platform.scratch
    assert fm.cmd(f"mw {scratch:x} 11223344") == ""
    assert fm.cmd("readonly") == "fiqmon: read-only until reset\n"
    assert fm.cmd(f"mw {scratch:x} 0") == refused("mw")
    assert fm.cmd("halt") == refused("halt")
    assert fm.cmd("reboot") == refused("reboot")
    assert fm.cmd(f"md {scratch:x} 4").split(":")[1].split()[0] == "11223344"
    gdb_session(fm)
    regs = gdb_exchange(fm, "g")
    assert re.fullmatch(r"[0-9a-f]{136}", regs), regs
    assert gdb_exchange(fm, f"m{scratch:x},4") == "44332211"
    assert gdb_exchange(fm, f"M{scratch:x},4:00000000") == "E01"
    assert gdb_exchange(fm, f"X{scratch:x},1:Z") == "E01"
    assert gdb_exchange(fm, "G" + "0" * 136) == "E01"
    assert gdb_exchange(fm, "P0=00000000") == "E01"
    assert gdb_exchange(fm, "g") == regs, "a refused G or P changed the registers"
    assert gdb_exchange(fm, f"m{scratch:x},4") == "44332211", "a refused M or X wrote"
    assert gdb_exchange(fm, "D") == "OK"
    knock_locked(fm)
    assert "read-only" in fm.cmd("version")


def test_a_locked_gdb_session_gets_only_the_handshake(boot, key_file):
    fm = production(boot, key_file)
    fm.leave()
    # GDB's first packet, while fiqmon waits for a knock, opens a session: still locked
    fm.debug.send(packet("qSupported:multiprocess+;xmlRegisters=arm"))
    fm.debug.expect(r"\+")
    _, m = fm.debug.expect(rb"\$(PacketSize=[^#]*)#[0-9a-f]{2}")
    fm.debug.send("+")
    assert gdb_exchange(fm, "?").startswith("T")
    for body in ("g", "p0f", "m0,4", f"M{fm.platform.scratch:x},1:00", "c8000", "vCont;s"):
        assert gdb_exchange(fm, body) == "E01", body
    # monitor CMD meets the shell's check: unlock works from GDB, md does not before it
    out = rcmd(fm, "md 0 4")
    assert out == refused("md"), out
    nonce = re.match(r"nonce ([0-9a-f]{32})\n", rcmd(fm, "unlock")).group(1)
    assert rcmd(fm, f"unlock {answer(key_file, nonce)}") == "fiqmon: unlocked\n"
    assert re.fullmatch(r"[0-9a-f]{136}", gdb_exchange(fm, "g"))
    assert gdb_exchange(fm, "D") == "OK"
    knock_locked(fm)
    assert "profile production, locked\n" in fm.cmd("version")  # detach relocked


def rcmd(fm, line):
    """monitor LINE: the O packets' text."""
    fm.debug.send(packet("qRcmd," + line.encode().hex()))
    fm.debug.expect(r"\+")
    text = ""
    while True:
        _, m = fm.debug.expect(rb"\$([^#]*)#[0-9a-f]{2}")
        fm.debug.send("+")
        body = expand_rle(m.group(1).decode("latin1"))
        if not body.startswith("O") or body == "OK":
            assert body == "OK", body
            return text
        text += bytes.fromhex(body[1:]).decode("latin1")


def test_a_locked_gdb_session_never_holds_the_kernel(boot, key_file):
    """One packet from anyone with a cable must not stop a production device: a locked
    session lets the kernel run between packets; once unlocked it holds the CPU as GDB
    expects, and a detach lets it go (and relocks)."""
    subprocess.run(["make", "-s", "-C", str(ROOT), "guests"], check=True)
    fm = boot("versatilepb", "production-nodelay", PROFILE="production",
              UNLOCK_KEY=str(key_file), BOOT_DELAY_MS=0, KERNEL="build/guests/ticker.elf")
    fm.console.expect(r"guest ticker: tick \d+", timeout=20)
    fm.debug.send(packet("?"))
    fm.debug.expect(r"\+")
    fm.debug.expect(rb"\$T[^#]*#[0-9a-f]{2}")
    fm.debug.send("+")
    assert gdb_exchange(fm, "g") == "E01"
    for _ in range(3):  # GDB connected, locked: the ticker runs on
        fm.console.expect(r"guest ticker: tick \d+", timeout=5)
    nonce = re.match(r"nonce ([0-9a-f]{32})\n", rcmd(fm, "unlock")).group(1)
    assert rcmd(fm, f"unlock {answer(key_file, nonce)}") == "fiqmon: unlocked\n"
    assert re.fullmatch(r"[0-9a-f]{136}", gdb_exchange(fm, "g"))
    fm.console.received_within(0.3)  # a tick already on its way
    assert b"tick" not in fm.console.received_within(0.5), "unlocked GDB did not hold the CPU"
    assert gdb_exchange(fm, "D") == "OK"
    fm.console.expect(r"guest ticker: tick \d+", timeout=5)
    knock_locked(fm)
    assert "profile production, locked\n" in fm.cmd("version")
