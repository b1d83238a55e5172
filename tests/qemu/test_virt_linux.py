# SPDX-License-Identifier: MIT
"""An unmodified Debian kernel (linux-image-armmp, armhf) in the Normal world under
fiqmon on virt, booted directly and chainloaded from Debian's U-Boot."""

import re
import subprocess

import pytest

from harness import ROOT, tokens

PAGE_OFFSET, PHYS_OFFSET = 0xC0000000, 0x40000000   # the 3G/1G split; RAM at 1 GiB on virt


@pytest.fixture(scope="module", autouse=True)
def debian_kernel():
    subprocess.run(["make", "-s", "-C", str(ROOT), "linux"], check=True)


def boot_linux(boot, **extra):
    fm = boot("virt", "nodelay", BOOT_DELAY_MS=0, KERNEL="debian", **extra)
    fm.console.expect(r"Booting Linux on physical CPU", timeout=60)
    return fm


def _bytes(md_out):
    return [w for row in md_out.splitlines() for w in row.split(":")[1].split("  ")[0].split()]


def test_knock_stops_the_panicked_kernel_and_md_translates(boot):
    fm = boot_linux(boot)
    fm.console.expect(r"Kernel panic - not syncing: VFS: Unable to mount root fs", timeout=60)
    # panic() loops with IRQs on: a knock can land in the IRQ entry (the vector page, IRQ
    # mode); sample until it stops the kernel in svc mode (bounded)
    for _ in range(20):
        m = fm.knock()
        if m.group(3) == b"svc":
            break
        fm.leave()
    pc = int(m.group(2), 16)
    assert pc >= PAGE_OFFSET and m.group(3) == b"svc", m.group(0)
    regs = tokens(fm.cmd("regs"))
    assert regs["pc"] >= PAGE_OFFSET and regs["sp"] >= PAGE_OFFSET
    assert regs["cpsr"] & 0x1f == 0x13
    cp15 = tokens(fm.cmd("cp15"))
    assert cp15["sctlr"] & 1, "the kernel runs with its MMU on"
    # a kernel virtual address and its physical address show the same bytes
    page = pc & ~0xFFF
    virt = _bytes(fm.cmd(f"md {page:x} 40"))
    phys = _bytes(fm.cmd(f"md -p {page - PAGE_OFFSET + PHYS_OFFSET:x} 40"))
    assert virt == phys and any(w != "00000000" for w in virt)
    # an address the kernel has not mapped is an error, not a hang
    assert fm.cmd("md 1000 10").startswith("error: fault at 0x00001000")
    fm.leave()


def test_halt_stops_the_kernel_and_continue_resumes_it(boot):
    fm = boot_linux(boot)
    fm.knock()                       # early in boot: the kernel is printing
    assert "stop reason: knock" in fm.cmd("halt")
    fm.console.drain(0.3)            # what the kernel printed before the halt, still in flight
    silent = fm.console.received_within(1.5)
    assert silent == b"", f"the halted kernel printed {silent[:200]!r}"
    assert "kernel continues" in fm.cmd("continue")
    fm.console.expect(r"Kernel panic - not syncing", timeout=60)


def test_uboot_chainloads_fiqmon_which_boots_linux(boot):
    fm = boot("virt", "nodelay", BOOT_DELAY_MS=0, KERNEL="debian", BOOT="uboot")
    fm.console.expect(r"U-Boot 20\d\d", timeout=60)
    fm.console.expect(r"fiqmon: chainloading from U-Boot", timeout=60)
    fm.debug.expect(r"fiqmon: booting linux image at 0x40800000", timeout=60)
    fm.console.expect(r"Booting Linux on physical CPU", timeout=60)
    fm.console.expect(r"Kernel panic - not syncing", timeout=60)
    m = fm.knock()
    assert int(m.group(2), 16) >= PAGE_OFFSET
