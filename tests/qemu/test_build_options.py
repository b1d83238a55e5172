# SPDX-License-Identifier: MIT
"""Features left out at build time (make MINIMAL=1, or GDB=0 LINUX=0 LOCKDOWN=0
WATCHDOG=none): the smallest monitor still knocks, shows registers and memory, and every
command that was built out answers one line saying so."""

import pytest

from harness import tokens

BUILT_OUT = ["unlock", "lock", "readonly", "kmsg", "sym", "bt", "gdb", "watchdog", "last"]
KEPT = ["help", "version", "pc", "regs", "allregs", "md", "mw", "cpu", "irqs", "stats", "knock",
        "entry", "halt", "continue", "c", "release", "boot", "go", "exit", "reboot"]


@pytest.fixture
def minimal(boot, platform):
    fm = boot(platform, "minimal", MINIMAL=1)
    fm.knock()
    return fm


def test_minimal_build_knocks_and_shows_registers_and_memory(minimal, platform):
    regs = tokens(minimal.cmd("regs"))
    want = {"x0", "x30", "sp", "pc", "pstate"} if platform.arch == "a64" else \
        {"r0", "sp", "lr", "pc", "cpsr"}
    assert want <= regs.keys(), regs
    scratch = f"{platform.scratch:x}"
    assert not minimal.cmd(f"mw {scratch} 5eed1e55")
    assert minimal.cmd(f"md {scratch} 4").split(":")[1].split()[0] == "5eed1e55"


def test_minimal_build_answers_built_out_commands_with_one_error(minimal):
    for name in BUILT_OUT:
        assert minimal.cmd(name).strip() == f"error: '{name}' is not built in", name
        assert minimal.cmd(f"help {name}").strip() == f"error: '{name}' is not built in", name


def test_minimal_help_lists_only_what_is_built_in(minimal, platform):
    listed = [line.split()[0] for line in minimal.cmd("help").splitlines()
              if line.startswith("  ")]
    extra = ["cp15"] if platform.name == "virt" else []
    assert listed == KEPT + extra


def test_minimal_build_treats_gdbs_opening_packet_as_noise(minimal):
    minimal.leave()
    minimal.debug.send(b"$?#3f")
    minimal.debug.send(b"$3#33")
    before, _ = minimal.debug.expect(r"fiqmon: entered by knock at pc=")
    assert "+" not in before and "$" not in before, before  # no stub answered
    minimal.debug.expect(r"fiqmon> ")
    assert "noise=" in minimal.cmd("stats")
