# SPDX-License-Identifier: MIT
"""Bad input: one "error: ..." line each, and the monitor and the machine exactly as before."""

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
]


@pytest.mark.parametrize("line,error", BAD_COMMANDS, ids=[c for c, _ in BAD_COMMANDS])
def test_bad_command_gives_one_error_line(entered, line, error):
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


def test_backspace_and_delete_edit_the_line(entered):
    entered.debug.send("pcx\x7f\r")
    entered.debug.expect(r"\x08 \x08")
    out, _ = entered.debug.expect(r"fiqmon> ")
    assert "pc=" in out
    entered.debug.send("regsq\x08\r")
    out, _ = entered.debug.expect(r"fiqmon> ")
    assert "r0=" in out


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
