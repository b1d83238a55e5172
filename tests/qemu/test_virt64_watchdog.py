# SPDX-License-Identifier: MIT
"""The hard-lockup watchdog on virt64: fiqmon's Secure physical timer (CNTPS, EL3's) samples
Debian's arm64 kernel. A real lockup made with fiqmon's own mw (the kernel's __delay,
which panic's final loop calls, turned into `msr daifset, #2; b .`) is reported with the
CPU's registers, its symbolized backtrace and the kernel's last log lines, once, and is
kept for `last`. Meanwhile the sampling FIQ comes ten times a second, and never storms."""

import re
import subprocess

import pytest

from harness import ROOT, assert_sampling, assert_timer_not_left_asserted, stay, \
    watchdog_fiq_rates

PANIC = "Kernel panic - not syncing: VFS: Unable to mount root fs"
REPORT = (r"fiqmon: watchdog: hard lockup: the kernel has not taken its timer interrupt for "
          r"1 s\r\nfiqmon: watchdog: cpu0 pc=([0-9a-f]{16}) lr=[0-9a-f]{16} sp=[0-9a-f]{16} "
          r"\((\w+)\)\r\n")
MSR_DAIFSET_I = 0xD50342DF   # msr daifset, #2: IRQs masked
BRANCH_SELF = 0x14000000     # b .


@pytest.fixture(scope="module", autouse=True)
def debian_kernel():
    subprocess.run(["make", "-s", "-C", str(ROOT), "linux", "ARCH=arm64"], check=True)


@pytest.fixture(scope="module")
def panicked(module_boot):
    fm = module_boot("virt64", "watchdog1", BOOT_DELAY_MS=0, WATCHDOG=1, KERNEL="debian")
    fm.console.expect(r"---\[ end " + re.escape(PANIC) + r"[^\r\n]*\]---\r?\n", timeout=120)
    fm.knock()
    return fm


def test_the_watchdog_samples_ten_times_a_second_and_never_storms(panicked):
    fm = panicked
    out = fm.cmd("watchdog")
    assert out.startswith("watchdog=1s (watching gic ppi 26/27/28/30"), out
    # the shell open beside the running kernel (panic's loop takes its timer interrupts)
    assert_sampling(watchdog_fiq_rates(fm, stay()))
    assert_timer_not_left_asserted(fm)
    assert "lockups=0" in fm.cmd("watchdog")
    # halted: nothing is watched, and the timer is quiet
    assert "stop reason: knock" in fm.cmd("halt")
    assert watchdog_fiq_rates(fm, stay(2.0)) == (0, 0)
    assert fm.cmd("continue") == "fiqmon: kernel continues\n"
    assert_sampling(watchdog_fiq_rates(fm, stay()))
    assert b"hard lockup" not in fm.debug.log


def test_a_kernel_spinning_with_irqs_masked_is_reported_with_symbols(panicked):
    fm = panicked
    delay = int(re.search(r"^([0-9a-f]{16}) __delay\+0x0/", fm.cmd("sym __delay"), re.M)
                .group(1), 16)
    assert fm.cmd(f"mw {delay:x} {MSR_DAIFSET_I:x}") == ""
    assert fm.cmd(f"mw {delay + 4:x} {BRANCH_SELF:x}") == ""
    fm.leave()
    _, m = fm.debug.expect(REPORT, timeout=20)
    assert delay <= int(m.group(1), 16) < delay + 8 and m.group(2) == b"el1h", m.group(0)
    text, _ = fm.debug.expect(r"fiqmon: watchdog: still watching", timeout=30)
    assert re.search(r"^pc: __delay\+0x[04]/0x[0-9a-f]+\r$", text, re.M), text
    bt = text.split("fiqmon: watchdog: backtrace")[1].split("fiqmon: watchdog: kernel log")[0]
    assert re.search(r"#0  [0-9a-f]{16} __delay\+0x[04]", bt), bt
    assert re.search(r"\bpanic\+0x", bt) and "ret_from_fork+" in bt, bt
    log = text.split("fiqmon: watchdog: kernel log (last lines)")[1]
    assert "end Kernel panic" in log, log
    assert b"hard lockup" not in fm.debug.received_within(1.5), "one report per lockup"
    fm.knock()
    assert "lockups=1" in fm.cmd("watchdog")
    last = fm.cmd("last")
    assert last.startswith("fiqmon: last watchdog report, from this boot:\n"), last
    assert "__delay+0x" in last
