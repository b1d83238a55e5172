# SPDX-License-Identifier: MIT
"""The hard-lockup watchdog on virt: fiqmon's Secure physical timer samples the Normal
world's timer interrupts in the GIC; a kernel that stops taking them gets a report on the
debug port without anyone knocking."""

import re
import subprocess

import pytest

from harness import ROOT, assert_last_report_survives_a_reset, elf_symbols

LOCKUP_GUEST = ROOT / "build/guests/virt/lockup.elf"
REPORT = (r"fiqmon: watchdog: hard lockup: the kernel has not taken its timer interrupt for "
          r"1 s\r\nfiqmon: watchdog: cpu0 pc=([0-9a-f]{8}) lr=[0-9a-f]{8} sp=[0-9a-f]{8} "
          r"\((\w+)\)")


def guest_ticks(fm, at_least):
    while True:
        _, m = fm.console.expect(rb"guest lockup: ticks (\d+)\r?\n", timeout=15)
        if int(m.group(1)) >= at_least:
            return


def test_a_normal_world_guest_that_masks_irqs_and_spins_is_reported(boot):
    subprocess.run(["make", "-s", "-C", str(ROOT), "virt-guests"], check=True)
    fm = boot("virt", "nodelay", BOOT_DELAY_MS=0, KERNEL=str(LOCKUP_GUEST))
    fm.console.expect(r"guest lockup: started")
    guest_ticks(fm, 10)
    fm.knock()
    out = fm.cmd("watchdog #1")
    assert out.startswith("watchdog=1s (watching gic ppi 27/30"), out
    assert re.search(r"line=29\s+raw=\d en=1 fiq", fm.cmd("irqs")), "the sampling FIQ is on"
    fm.leave()
    # ticking: the kernel takes every timer interrupt, over four timeout periods
    guest_ticks(fm, 500)
    assert b"hard lockup" not in fm.debug.log
    fm.console.send("L")
    fm.console.expect(r"guest lockup: masking irqs and spinning")
    _, m = fm.debug.expect(REPORT, timeout=15)
    start, size = elf_symbols(LOCKUP_GUEST)["spin_with_irqs_masked"]
    assert start <= int(m.group(1), 16) < start + size, m.group(1)
    assert m.group(2) == b"svc"
    fm.debug.expect(r"r0=[0-9a-f]{8}")
    fm.debug.expect(r"fiqmon: watchdog: still watching")
    assert b"hard lockup" not in fm.debug.received_within(1.5), "one report per lockup"
    fm.knock()
    assert "lockups=1" in fm.cmd("watchdog")
    assert_last_report_survives_a_reset(fm, m.group(1).decode())


@pytest.fixture(scope="module")
def debian_kernel():
    subprocess.run(["make", "-s", "-C", str(ROOT), "linux"], check=True)


def virt_dtb_with_bootargs(tmp_path, bootargs):
    """QEMU's own device tree for this machine, packed, with a kernel command line."""
    raw, dtb = tmp_path / "qemu.dtb", tmp_path / "virt.dtb"
    subprocess.run(["qemu-system-arm", "-M", f"virt,secure=on,dumpdtb={raw}", "-cpu",
                    "cortex-a15", "-m", "1G", "-smp", "1", "-nographic", "-nic", "none",
                    "-monitor", "none", "-audiodev", "none,id=snd0"],
                   check=True, capture_output=True)
    subprocess.run(["dtc", "-q", "-I", "dtb", "-O", "dtb", "-o", str(dtb), str(raw)], check=True)
    subprocess.run(["fdtput", "-t", "s", str(dtb), "/chosen", "bootargs", bootargs], check=True)
    return dtb


def test_debian_kernel_running_normally_gets_no_report(boot, debian_kernel, tmp_path):
    # rootwait: no root device ever comes, so the kernel runs on (idle, ticking) for good
    dtb = virt_dtb_with_bootargs(tmp_path, "console=ttyAMA0 rootwait")
    fm = boot("virt", "watchdog1", BOOT_DELAY_MS=0, WATCHDOG=1,
              KERNEL=str(ROOT / "build/linux/vmlinuz"), DTB=str(dtb))
    fm.console.expect(r"Booting Linux on physical CPU", timeout=60)
    fm.console.expect(r"Waiting for root device", timeout=60)
    quiet = fm.debug.received_within(4.0)    # four timeout periods of a running kernel
    assert b"hard lockup" not in fm.debug.log, quiet
    fm.knock()
    assert re.search(r"watchdog=1s .* lockups=0", fm.cmd("watchdog"))


def test_debian_kernel_wedged_with_irqs_masked_is_reported_with_symbols(boot, debian_kernel,
                                                                         tmp_path):
    """A real lockup in the real kernel: fiqmon's own mw turns the idle routine into
    `cpsid i; b .`; the next time the kernel idles it never takes an interrupt again."""
    dtb = virt_dtb_with_bootargs(tmp_path, "console=ttyAMA0 rootwait")
    fm = boot("virt", "watchdog1", BOOT_DELAY_MS=0, WATCHDOG=1,
              KERNEL=str(ROOT / "build/linux/vmlinuz"), DTB=str(dtb))
    fm.console.expect(r"Waiting for root device", timeout=60)
    fm.knock()
    idle = int(fm.cmd("sym cpu_v7_do_idle").split()[0], 16)
    assert fm.cmd(f"mw {idle:x} f10c0080") == ""         # cpsid i
    assert fm.cmd(f"mw {idle + 4:x} eafffffe") == ""     # b .
    fm.leave()
    _, m = fm.debug.expect(REPORT, timeout=20)
    assert idle <= int(m.group(1), 16) < idle + 8 and m.group(2) == b"svc"
    text, _ = fm.debug.expect(r"fiqmon: watchdog: still watching", timeout=30)
    # Cortex-A15's idle routine is an alias of cpu_v7_do_idle; kallsyms names either
    assert re.search(r"^pc: cpu_\w+_do_idle\+0x4/0x[0-9a-f]+\r$", text, re.M), text
    bt = text.split("fiqmon: watchdog: backtrace")[1].split("fiqmon: watchdog: kernel log")[0]
    assert re.search(r"#0  [0-9a-f]{8} cpu_\w+_do_idle\+0x4", bt), bt
    assert re.search(r"\bdo_idle\+0x", bt), bt
    log = text.split("fiqmon: watchdog: kernel log (last lines)")[1]
    assert "Waiting for root device" in log, log
    assert b"hard lockup" not in fm.debug.received_within(1.5), "one report per lockup"
