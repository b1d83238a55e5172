# SPDX-License-Identifier: MIT
"""TrustZone isolation on virt: a Normal-world kernel that tries to mask, reroute or
overwrite fiqmon gets nowhere."""

import re
import subprocess
import zlib

from harness import ROOT

GUEST = "build/guests/virt/isolation.elf"


def image_crc(elf, tmp_path):
    """CRC-32 of fiqmon's code and constants, computed from the ELF on the host."""
    out = tmp_path / "code.bin"
    subprocess.run(["arm-none-eabi-objcopy", "-O", "binary", "--only-section=.text",
                    "--only-section=.rodata", str(elf), str(out)], check=True)
    return zlib.crc32(out.read_bytes())


def test_normal_world_cannot_mask_reroute_or_overwrite_fiqmon(boot, tmp_path):
    subprocess.run(["make", "-s", "-C", str(ROOT), "virt-guests"], check=True)
    fm = boot("virt", "nodelay", BOOT_DELAY_MS=0, KERNEL=GUEST)
    fm.debug.expect(r"fiqmon: booting bare-metal image at 0x40100000")
    out, _ = fm.console.expect(r"guest isolation: done", timeout=20)
    # what the guest saw: its own CPSR.F stays clear, group 0 state reads as zero
    cpsr = int(re.search(r"cpsr after cpsid f ([0-9a-f]{8})", out).group(1), 16)
    assert not cpsr & 0x40, "the Normal world masked FIQ"
    assert int(re.search(r"igroupr \(40 is bit 8\) ([0-9a-f]{8})", out).group(1), 16) & 0x100 == 0
    aborts = int(re.search(r"aborts taken ([0-9a-f]{8})", out).group(1), 16)
    assert aborts >= 16 + 1 + 2, "writes to Secure RAM and the Secure UART must abort"

    # fiqmon still answers, its interrupt still Secure and enabled, its code unchanged
    m = fm.knock()
    assert 0x40100000 <= int(m.group(2), 16) < 0x40200000
    irqs = fm.cmd("irqs")
    assert re.search(r"line=40\s+raw=\d en=1 fiq fiqs=[1-9]", irqs), irqs
    crc = re.search(r"resident code crc32 ([0-9a-f]{8})", fm.cmd("version")).group(1)
    assert int(crc, 16) == image_crc(fm.elf, tmp_path)
    # and the Normal world's view of the same memory is refused to md as well
    assert fm.cmd("md -p e000000 10") == "error: fault at 0x0e000000\n"


def test_a_command_line_without_a_device_tree_is_refused_not_lost(boot):
    """virt passes QEMU's device tree to Linux: a payload's CMDLINE would silently vanish."""
    subprocess.run(["make", "-s", "-C", str(ROOT), "virt-guests"], check=True)
    fm = boot("virt", "nodelay", BOOT_DELAY_MS=0, KERNEL=str(ROOT / "build/guests/virt/lockup.elf"),
              PAYLOAD_KIND="linux", CMDLINE="console=ttyAMA0 quiet")
    why = "a command line needs a device tree here (DTB=FILE with /chosen bootargs)"
    fm.debug.expect(f"error: payload refused: {re.escape(why)}\r\n")
    fm.knock()
    assert fm.cmd("boot") == f"error: payload refused: {why}\n"
    assert fm.cmd("pc").startswith("pc=")
