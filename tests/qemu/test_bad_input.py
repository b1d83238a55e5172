# SPDX-License-Identifier: MIT
"""Bad input: one "error: ..." line each, and the monitor and the machine exactly as before."""

import re

import pytest

from harness import stable, tokens


BAD_COMMANDS = [
    ("frobnicate", "error: unknown command 'frobnicate' (try help)"),
    ("re", "error: ambiguous command 're': readonly regs release reboot"),
    ("md", "error: usage: md [-p] ADDR [LEN] [b|h|w]"),
    ("md xyz", "error: bad address 'xyz': not a number"),
    ("md 100000000", "error: bad address '100000000': number too large"),
    ("md 0x", "error: bad address '0x': no digits"),
    ("md #12a", "error: bad address '#12a': not a number"),
    ("md 1000 0", "error: length 0x0 out of range (1 to 0x1000)"),
    ("md 1000 1001", "error: length 0x1001 out of range (1 to 0x1000)"),
    ("md fffffff0 20", "error: range wraps past 0xffffffff"),
    ("md 1000 10 q", "error: bad width 'q' (b, h or w)"),
    ("md 1000 10 20", "error: bad width '20' (b, h or w)"),
    ("mw 100000", "error: usage: mw [-p] ADDR VALUE [b|h|w]"),
    ("mw 100000 100 b", "error: value 0x100 does not fit in 1 byte"),
    ("mw 100000 10000 h", "error: value 0x10000 does not fit in 2 bytes"),
    ("mw 100000 1 x", "error: bad width 'x' (b, h or w)"),
    ("mw 100000 zz", "error: bad value 'zz': not a number"),
    ("knock 2", "error: bad knock mode '2' (-1 any FIQ, 0 Return, 1 $3#33)"),
    ("knock one", "error: bad knock mode 'one' (-1 any FIQ, 0 Return, 1 $3#33)"),
    ("help nosuch", "error: no command 'nosuch'"),
    ("a b c d e f g h i", "error: too many arguments (at most 8 words)"),
    # the dispatcher counts arguments for every command (more below)
    ("version extra", "error: usage: version"),
    ("pc extra", "error: usage: pc"),
    ("stats extra", "error: usage: stats"),
    ("md 1000 4 w b", "error: usage: md [-p] ADDR [LEN] [b|h|w]"),
    ("mw -p 1000 5 w b", "error: usage: mw [-p] ADDR VALUE [b|h|w]"),
    # md's LEN is whole elements: no silent rounding
    ("md 100000 3 w", "error: length 0x3 is not a multiple of the width (4 bytes)"),
    ("md 100000 5 w", "error: length 0x5 is not a multiple of the width (4 bytes)"),
    ("md 100000 1 h", "error: length 0x1 is not a multiple of the width (2 bytes)"),
    # one message for one cause
    ("md fffffffc 8", "error: range wraps past 0xffffffff"),
    ("mw fffffffe 1 w", "error: range wraps past 0xffffffff"),
    ("mw ffffffff 1 h", "error: range wraps past 0xffffffff"),
    # what cannot be undone never runs from a prefix
    ("reb", "error: 'reboot' must be typed in full (it cannot be undone)"),
    ("rel", "error: 'release' must be typed in full (it cannot be undone)"),
    ("boo", "error: 'boot' must be typed in full (it cannot be undone)"),
    ("boo 100000", "error: 'boot' must be typed in full (it cannot be undone)"),
    ("readon", "error: 'readonly' must be typed in full (it cannot be undone)"),
    ("help m", "error: ambiguous command 'm': md mw"),
    ("help re", "error: ambiguous command 're': readonly regs release reboot"),
]

# The ones about the address width, as an AArch64 target (64-bit addresses) has them.
A64_ADDRESSES = {
    "md 100000000": ("md 10000000000000000",
                     "error: bad address '10000000000000000': number too large"),
    "md fffffff0 20": ("md fffffffffffffff0 20", "error: range wraps past 0xffffffffffffffff"),
    "md fffffffc 8": ("md fffffffffffffffc 8", "error: range wraps past 0xffffffffffffffff"),
    "mw fffffffe 1 w": ("mw fffffffffffffffe 1 w", "error: range wraps past 0xffffffffffffffff"),
    "mw ffffffff 1 h": ("mw ffffffffffffffff 1 h", "error: range wraps past 0xffffffffffffffff"),
}

# Every command that takes no argument, and what each other one takes at most.
NO_ARGUMENTS = ["version", "lock", "readonly", "pc", "regs", "allregs", "irqs", "stats", "halt",
                "continue", "c", "release", "gdb", "last", "exit", "reboot"]
TOO_MANY = [("help md x", "help [COMMAND]"), ("unlock 00 11", "unlock [ANSWER]"),
            ("kmsg 1 2", "kmsg [N]"), ("sym a b", "sym ADDR|NAME"), ("bt -s x", "bt [-s|-t|-a|PID]"),
            ("ps -t x", "ps [-t|-l]"), ("lsmod x", "lsmod"),
            ("knock 1 0", "knock [-1|0|1]"), ("watchdog on off", "watchdog [on|off|N|halt|report]"),
            ("go 100000 0", "go ADDR")]
# (virt64: boot takes no address, an arm64 kernel no ATAGs)
PLATFORM_NO_ARGUMENTS = {"versatilepb": [], "virt": ["cp15"], "virt64": ["boot"]}


def test_every_command_refuses_extra_arguments(entered, platform):
    before = stable(tokens(entered.cmd("allregs")))
    for name in NO_ARGUMENTS + PLATFORM_NO_ARGUMENTS[platform.name]:
        want = f"error: '{name}' is not built in" if name in platform.unbuilt else \
            f"error: usage: {name}"
        assert entered.cmd(f"{name} extra") == want + "\n"
    for line, usage in TOO_MANY:
        name = line.split()[0]
        want = f"error: '{name}' is not built in" if name in platform.unbuilt else \
            f"error: usage: {usage}"
        assert entered.cmd(line) == want + "\n"
    # still in the shell, the kernel where it was, the port not given away
    assert stable(tokens(entered.cmd("allregs"))) == before
    assert entered.cmd("knock") == "knock=1 (type $3#33)\n"


@pytest.mark.parametrize("line,error", BAD_COMMANDS, ids=[c for c, _ in BAD_COMMANDS])
def test_bad_command_gives_one_error_line(entered, platform, line, error):
    if platform.arch == "a64" and line in A64_ADDRESSES:
        line, error = A64_ADDRESSES[line]
    before = stable(tokens(entered.cmd("allregs")))
    assert entered.cmd(line) == error + "\n"
    assert stable(tokens(entered.cmd("allregs"))) == before


def _word(fm, addr):
    out = fm.cmd(f"md {addr:x} 4")
    return int(out.split(":")[1].split()[0], 16)


def test_too_long_line_is_refused_and_nothing_runs(entered, platform):
    SCRATCH = platform.scratch
    entered.cmd(f"mw {SCRATCH:x} 11111111")
    # a truncated copy of this line would be a valid command that changes memory
    line = f"mw {SCRATCH:x} 55" + " " * 200 + "b"
    entered.debug.send(line + "\r")
    out, _ = entered.debug.expect(r"fiqmon> ")
    assert "error: line too long (at most 128 characters)" in out
    assert out.count("error:") == 1
    assert _word(entered, SCRATCH) == 0x11111111


def test_ctrl_c_abandons_the_line(entered, platform):
    SCRATCH = platform.scratch
    entered.cmd(f"mw {SCRATCH:x} 22222222")
    entered.debug.send(f"mw {SCRATCH:x} 66\x03")
    entered.debug.expect(r"\^C\r\nfiqmon> ")
    assert _word(entered, SCRATCH) == 0x22222222


def test_backspace_and_delete_edit_the_line(entered, platform):
    entered.debug.send("pcx\x7f\r")
    entered.debug.expect(r"\x08 \x08")
    out, _ = entered.debug.expect(r"fiqmon> ")
    assert "pc=" in out
    entered.debug.send("regsq\x08\r")
    out, _ = entered.debug.expect(r"fiqmon> ")
    assert ("x0 =" if platform.arch == "a64" else "r0=") in out


def test_ctrl_u_erases_the_line(entered):
    entered.debug.send("garbage\x15pc\r")
    out, _ = entered.debug.expect(r"fiqmon> ")
    assert "pc=" in out and "error" not in out


def test_crlf_lf_and_cr_each_end_a_line_once(entered):
    entered.debug.send("pc\r\npc\npc\r")
    out = ""
    for _ in range(3):
        chunk, _ = entered.debug.expect(r"fiqmon> ")
        out += chunk
    assert out.count("pc=") == 3
    # and no empty extra line ran (it would print a bare prompt): nothing more is pending
    entered.debug.send("stats\r")
    chunk, _ = entered.debug.expect(r"fiqmon> ")
    assert chunk.count("fiqs=") == 1


def test_control_and_8bit_bytes_are_not_part_of_a_command(entered):
    entered.debug.send(b"p\x01\x1b\xffc\r")
    out, _ = entered.debug.expect(r"fiqmon> ")
    assert "pc=" in out


def test_tab_separates_words(entered, platform):
    entered.cmd(f"mw {platform.scratch:x} 5a5a5a5a")
    entered.debug.send(f"md\t{platform.scratch:x}\t10\r")
    out, _ = entered.debug.expect(r"fiqmon> ")
    assert "error" not in out
    assert f"{platform.addr(platform.scratch)}: 5a5a5a5a " in out


def test_escape_sequences_never_reach_the_line(entered):
    # clear screen, Left, Right, F1, Delete: keys a terminal sends, none of them text
    entered.debug.send("\x1b[2Jp\x1b[D\x1b[C\x1bOP\x1b[3~c\r")
    out, _ = entered.debug.expect(r"fiqmon> ")
    assert out.startswith("pc\r\npc="), repr(out)
    assert "[" not in out.split("\r\n")[0] and "error" not in out


def test_up_and_down_recall_the_last_commands(entered, platform):
    entered.cmd("pc")
    entered.cmd(f"md {platform.scratch:x} 4")
    entered.debug.send("\x1b[A")                       # Up: the md line, drawn after the prompt
    entered.debug.expect(re.escape(f"md {platform.scratch:x} 4"))
    entered.debug.send("\x1b[A")                       # Up again: erased and replaced by pc
    entered.debug.expect(re.escape("\b \b" * len(f"md {platform.scratch:x} 4") + "pc"))
    entered.debug.send("\r")
    out, _ = entered.debug.expect(r"fiqmon> ")
    assert out.startswith("\r\npc=") and "error" not in out, repr(out)
    # the history is now pc, md, pc: Up three times reaches the first pc, Down (application
    # mode) comes back to md
    entered.debug.send("\x1b[A\x1b[A\x1b[A\x1bOB\r")
    out, _ = entered.debug.expect(r"fiqmon> ")
    assert f"{platform.addr(platform.scratch)}: " in out and "pc=" not in out, repr(out)


def test_mw_to_flash_says_the_write_did_not_take(entered, platform):
    flash = platform.flash
    before = int(entered.cmd(f"md -p {flash:x} 4").split(":")[1].split()[0], 16)
    assert before != 0x1
    out = entered.cmd(f"mw -p {flash:x} 1")
    m = re.fullmatch(rf"error: 0x{platform.addr(flash)} reads back 0x([0-9a-f]+) after writing 0x1 "
                     r"\(flash or ROM\?\)\n", out)
    assert m, out
    after = int(entered.cmd(f"md -p {flash:x} 4").split(":")[1].split()[0], 16)
    assert after == int(m.group(1), 16) != 0x1
    # RAM takes the write, and mw says nothing
    assert entered.cmd(f"mw -p {platform.scratch:x} 1") == ""
