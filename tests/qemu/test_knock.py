# SPDX-License-Identifier: MIT
"""Knocking: $3#33 (mode 1), Return (mode 0), any FIQ (mode -1); prompts once per line."""

import re

from harness import KNOCK, ROOT, elf_entry, elf_symbols, expand_rle, gdb_packet, re_prompt

PROMPT_1 = "Type $3#33 to enter the debugger>"
PROMPT_0 = "Hit <return> to enter the debugger>"


def test_magic_knock_enters(fiqmon, platform):
    m = fiqmon.knock()
    assert m.group(1) == b"knock"
    assert m.group(3) == platform.idle_mode.encode()


def test_broken_knocks_do_not_enter(fiqmon):
    fiqmon.debug.send(b"$3#3x $3# 33 $$3#3\r")
    fiqmon.debug.expect(re.escape(PROMPT_1))
    fiqmon.knock()  # everything before it was processed, in order
    log = fiqmon.debug.log.decode("latin1")
    assert log.count("fiqmon: entered") == 1


def test_prompt_once_per_line_of_noise(fiqmon):
    fiqmon.debug.expect(re.escape(PROMPT_1))  # the one the banner prints
    fiqmon.debug.send(b"abcdef\rghijkl\r\nmno\n")
    fiqmon.knock()
    text = fiqmon.debug.log.decode("latin1")
    after_banner = text.split(PROMPT_1, 1)[1]
    assert after_banner.split("fiqmon: entered")[0].count(PROMPT_1) == 3


def test_return_knock_mode_from_build(boot, platform):
    fm = boot(platform, "knock0", KNOCK=0)
    assert fm.banner.group(5) == b"0"
    fm.debug.expect(re.escape(PROMPT_0))
    fm.debug.send(b"$3#33")          # not a knock in mode 0
    fm.debug.expect(re.escape(PROMPT_0))
    m = fm.knock(b"\r")
    assert m.group(1) == b"knock"
    assert "knock=0" in fm.cmd("knock")


def test_any_fiq_knock_mode_from_build(boot, platform):
    fm = boot(platform, "knockm1", KNOCK=-1)
    assert fm.banner.group(5) == b"-1"
    m = fm.knock(b"x")
    assert m.group(1) == b"FIQ"
    # the byte that rang the doorbell is not typed into the shell
    assert fm.cmd("pc").startswith("pc=")


def test_knock_command_switches_mode_at_run_time(entered):
    assert "knock=1" in entered.cmd("knock")
    assert "knock=0" in entered.cmd("knock 0")
    entered.leave()
    entered.debug.send(b"xyz")
    entered.debug.expect(re.escape(PROMPT_0))
    entered.knock(b"\r")
    assert "knock=-1" in entered.cmd("knock -1")
    entered.leave()
    m = entered.knock(b"q")
    assert m.group(1) == b"FIQ"
    assert "knock=1" in entered.cmd("knock 1")


def test_exit_leaves_and_commands_no_longer_run(entered):
    entered.leave()
    entered.debug.send(b"pc\r")
    entered.debug.expect(re.escape(PROMPT_1))
    entered.knock()
    log = entered.debug.log.decode("latin1")
    tail = log.rsplit("fiqmon: left", 1)[1].split("fiqmon: entered")[0]
    assert "pc=" not in tail


def test_knock_interrupts_the_idle_loop(entered):
    syms = elf_symbols(entered.elf)
    start, size = syms["idle_loop"]
    pc = int(entered.cmd("pc").split("pc=")[1].split()[0], 16)
    assert start <= pc < start + size


COUNTDOWN_1 = re.escape("Type $3#33 to stay in fiqmon: 1.0 s ")


def test_the_knock_in_the_boot_countdown_holds_the_payload_and_exit_boots_it(boot, platform):
    """Only the knock stops the countdown; a noisy line before it runs nothing, and
    nothing of the knock is left in the shell's line. exit then boots the payload and
    says so; a later exit says the kernel runs on."""
    fm = boot(platform, KERNEL=platform.payload)
    fm.debug.expect(COUNTDOWN_1)
    fm.debug.send(b"xyz\r\nreboot\r" + KNOCK)
    fm.debug.expect(r"fiqmon: entered by boot delay at pc=[0-9a-f]{8,16} \(\w+\)\r\n")
    fm.debug.expect(re.escape("fiqmon: no kernel started: the payload waits ('boot' or 'exit' "
                              "starts it)\r\n"))
    fm.debug.expect(re_prompt())
    assert fm.cmd("knock") == "knock=1 (type $3#33)\n"     # not "unknown command '3#33...'"
    assert "linux: none found" in fm.cmd("version")
    assert fm.console.received_within(0.3) == b"", "the payload must not have started"
    fm.debug.send("exit\r")
    fm.debug.expect(r"fiqmon: booting [^\r]*\r\nfiqmon: left; the payload runs\r\n")
    fm.console.expect(re.escape(platform.payload_hello))
    fm.knock()
    fm.debug.send("exit\r")
    fm.debug.expect(r"fiqmon: left; the kernel runs on\r\n")
    assert b"rebooting" not in fm.debug.log


def test_gdbs_opener_in_the_boot_countdown_stops_the_payload_at_its_entry(boot, platform):
    """GDB connecting at power-on: its first packet starts a session (nothing of it eaten),
    with the payload booted and held at its first instruction; detach lets it run."""
    fm = boot(platform, KERNEL=platform.payload)
    fm.debug.expect(COUNTDOWN_1)
    fm.debug.send(b"+" + gdb_packet("qSupported:multiprocess+;swbreak+;vContSupported+"))
    fm.debug.expect(rb"\+\$PacketSize=[0-9a-f]+;[^#]*#[0-9a-f]{2}")
    # the pc: register 15 on arm, 32 on aarch64
    fm.debug.send(b"+" + gdb_packet("p20" if platform.name == "virt64" else "pf"))
    _, m = fm.debug.expect(rb"\$([^#]+)#[0-9a-f]{2}")
    pc = int.from_bytes(bytes.fromhex(expand_rle(m.group(1).decode())), "little")
    assert pc == elf_entry(ROOT / platform.payload)
    assert fm.console.received_within(0.3) == b"", "the payload must be held at its entry"
    fm.debug.send(b"+" + gdb_packet("D"))
    fm.debug.expect(re.escape(b"$OK#9a"))
    fm.console.expect(re.escape(platform.payload_hello))
    assert b"fiqmon: entered" not in fm.debug.log
