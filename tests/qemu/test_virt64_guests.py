# SPDX-License-Identifier: MIT
"""virt64: fiqmon at EL3 under the AArch64 Normal-world test guests (tests/guests/virt64/),
booted from the payload image at EL2h. Nothing of the interrupted kernel's state is lost,
and nothing a hostile kernel does from EL2 or EL1 masks, reroutes or overwrites fiqmon."""

import re
import struct
import subprocess
import zlib

import pytest

from harness import ROOT, elf_symbols
from platforms import PLATFORMS, Platform

GUESTS = ROOT / "build/guests/virt64"
GUEST_BASE, GUEST_END = 0x40100000, 0x40200000   # guest.ld: 1 MiB into Normal RAM

# platforms.py's virt64, or while it has none, a stand-in with what these tests need.
VIRT64 = PLATFORMS.get("virt64") or Platform(
    name="virt64", uart="uart1", debug_line=40, scratch=0x40100000,
    faults=(("e000000 4 w", 0x0e000000), ("0 10 b", 0x00000000)), flash=0x04000000,
    monitor_stack="__stack_fiq_top", monitor_bank="el3", cpu="cortex-a57 (el3)",
    watchdog_line=0, payload="build/guests/virt64/hello.elf",
    payload_hello="guest hello64: ready")


@pytest.fixture(scope="module", autouse=True)
def guests():
    subprocess.run(["make", "-s", "-C", str(ROOT), "virt64-guests"], check=True)


def run_guest(boot, name):
    fm = boot(VIRT64, "nodelay", BOOT_DELAY_MS=0, KERNEL=f"build/guests/virt64/{name}.elf")
    fm.debug.expect(r"fiqmon: booting bare-metal image at 0x40100000 \(x0=00000000, el2h\)")
    return fm


def in_guest(pc):
    return GUEST_BASE <= pc < GUEST_END


def first_words(elf):
    """The guest's first four instruction words, from its ELF (what md must show)."""
    out = subprocess.run(["aarch64-linux-gnu-objcopy", "-O", "binary", "--only-section=.text",
                          str(elf), "/dev/stdout"], check=True, capture_output=True).stdout
    return struct.unpack_from("<4I", out)


# --- nothing lost ---------------------------------------------------------------------

ROUND = rb"guest integrity64: round (\d+) checksum ([0-9a-f]{8}) errors (\d+)\r\n"
REGS = re.compile(r"^x0 =([0-9a-f]{16}) .* x30=([0-9a-f]{16}) sp =([0-9a-f]{16})\n"
                  r"pc =([0-9a-f]{16}) pstate=([0-9a-f]{8}) \((\w+) ", re.S | re.M)


def rounds_in(log):
    """{round: (checksum, errors)} of every round line in a console log."""
    return {int(r): (c.decode(), int(e)) for r, c, e in re.findall(ROUND, log)}


def wait_for_round(fm, number, timeout=60):
    """Consume round lines up to and including `number`."""
    while True:
        _, m = fm.console.expect(ROUND, timeout=timeout)
        if int(m.group(1)) >= number:
            return


def fiqs(fm):
    return int(re.search(r"^fiqs=(\d+)", fm.cmd("stats"), re.M).group(1))


def check_regs(text, loop, state):
    """regs as AArch64 prints it, the guest at EL2h; inside the loop, sp is the state's
    address (integrity.S points it there for the whole round). Returns the pc."""
    m = REGS.search(text)
    assert m, f"regs printed:\n{text}"
    pc, mode = int(m.group(4), 16), m.group(6)
    assert in_guest(pc) and mode == "el2h", text
    if loop[0] <= pc < loop[1]:
        assert int(m.group(3), 16) == state, f"sp in the loop is not &integrity_state:\n{text}"
    return pc


def test_nothing_lost_integrity64_checksums_survive_1000_interruptions(boot):
    """The project's most important test, on AArch64: the integrity guest keeps live values
    in x0-x30, q0-q31, NZCV, FPSR and FPCR (and checks the EL0-EL2 system registers fiqmon
    saves) and prints a checksum per round. Interrupted over a thousand times, mixing every
    kind of debugger activity, it must print exactly the checksums of an undisturbed run,
    for every round the interruptions touched."""
    syms = elf_symbols(GUESTS / "integrity.elf")
    loop = (syms["integrity_round"][0], syms["integrity_round"][0] + syms["integrity_round"][1])
    window = syms["integrity_window"][0]    # x0-x30 all live before it
    state = syms["integrity_state"][0]
    first_line = "0000000040100000: " + " ".join(f"{w:08x}" for w in first_words(
        GUESTS / "integrity.elf"))

    fm = run_guest(boot, "integrity")
    fm.console.expect(r"guest integrity64: started\r\n")
    m = fm.knock()
    assert in_guest(int(m.group(2), 16)) and m.group(3) == b"el2h", m.group(0)
    start = fiqs(fm)
    noise = bytes((i * 37 + 11) % 256 for i in range(512)).replace(b"$", b"%")
    interrupted, pcs = 0, []
    for cycle in range(200):
        if cycle % 5 == 0:
            interrupted = fiqs(fm) - start
            if interrupted >= 1000:
                break
        pcs.append(check_regs(fm.cmd("regs"), loop, state))
        assert "spsr_el2=" in fm.cmd("allregs")
        assert fm.cmd("md 40100000 10").startswith(first_line)
        assert "stop reason: knock" in fm.cmd("halt")
        assert in_guest(int(re.match(r"pc=([0-9a-f]{16}) ", fm.cmd("pc")).group(1), 16))
        assert fm.cmd("continue") == "fiqmon: kernel continues\n"
        fm.leave()
        fm.debug.send(noise)
        m = fm.knock()
        assert in_guest(int(m.group(2), 16)), m.group(0)
    assert interrupted >= 1000, f"only {interrupted} interruptions"
    # the guest ran between the interruptions, and they caught its loop, some of them with
    # every register live (TCG takes interrupts only where a translation block starts:
    # after one of integrity.S's mixing blocks, or in its exit window, x30 borrowed)
    places = sorted({hex(pc) for pc in pcs if loop[0] <= pc < window})
    assert places, f"no sample of {len(pcs)} caught the loop with x30 live: {sorted(set(pcs))}"
    fm.leave()
    # every interruption happened before the round in progress now ends
    last = max(rounds_in(fm.console.log), default=0) + 1
    wait_for_round(fm, last)
    got = rounds_in(fm.console.log)
    fm.close()

    clean = run_guest(boot, "integrity")
    wait_for_round(clean, last, timeout=120)
    reference = rounds_in(clean.console.log)
    for r in range(1, last + 1):
        assert got[r] == reference[r], \
            f"round {r}: {got[r]} after {interrupted} FIQs, undisturbed {reference[r]}"
    assert all(errors == 0 for _, errors in got.values()), got


# --- a hostile kernel -----------------------------------------------------------------

def image_crc(elf, tmp_path):
    """CRC-32 of fiqmon's resident code and constants (__resident_copy_start to
    __rodata_end, as `version` computes it in memory), from the ELF on the host."""
    out = tmp_path / "code.bin"
    subprocess.run(["aarch64-linux-gnu-objcopy", "-O", "binary", "--only-section=.text",
                    "--only-section=.rodata", str(elf), str(out)], check=True)
    syms = elf_symbols(elf)
    size = syms["__rodata_end"][0] - syms["__resident_copy_start"][0]
    return zlib.crc32(out.read_bytes()[:size])


def results(out, el):
    """{what: result} of the guest's `guest hostile64: elN what -> result` lines."""
    return dict(re.findall(rf"guest hostile64: {el} (.+?) -> (.*?)\r\n", out))


def readback(res, what):
    m = re.fullmatch(r"wrote [0-9a-f]{8}, reads ([0-9a-f]{8})", res[what])
    assert m, f"{what}: {res[what]}"
    return int(m.group(1), 16)


def spin_with_fiq_masked_and_knock(fm, el):
    """The guest spins with PSTATE.F set until a byte arrives on its console: the knock
    must still get in, there, and the guest go on when released."""
    fm.console.expect(rf"guest hostile64: {el} masked F, spinning until a byte on the console")
    m = fm.knock()
    assert in_guest(int(m.group(2), 16)) and m.group(3).decode() == f"{el}h", m.group(0)
    pstate = int(re.search(r"pstate=([0-9a-f]{8})", fm.cmd("pc")).group(1), 16)
    assert pstate & 0x40, f"pstate {pstate:08x}: F is not set, the test proves nothing"
    fm.leave()
    fm.console.send(b"k")
    fm.console.expect(rf"guest hostile64: {el} spin with F masked -> ended by the console byte")


def test_hostile_guest_cannot_mask_reroute_or_overwrite_fiqmon(boot, tmp_path):
    fm = run_guest(boot, "hostile")
    fm.console.expect(r"guest hostile64: started\r\n")
    for el in ("el2", "el1"):
        spin_with_fiq_masked_and_knock(fm, el)
    fm.console.expect(r"guest hostile64: done\r\n", timeout=60)
    log = fm.console.log.decode("latin1")
    for el in ("el2", "el1"):
        res = results(log, el)
        # The GIC keeps Group 0 to the Secure world: its bits and bytes read as zero (RAZ)
        # to the Normal world, and the writes do not reach them (fiqmon's irqs, below).
        assert readback(res, "gicd igroupr1 (intid 40 is bit 8)") & (1 << 8) == 0
        assert readback(res, "gicd igrpmodr1 (intid 40 is bit 8)") & (1 << 8) == 0
        assert readback(res, "gicd ipriorityr10 (intid 40 is byte 0)") & 0xff == 0
        assert readback(res, "gicd irouter40 = cpu 255") == 0
        assert readback(res, "gicr igroupr0 (sgi 15 is bit 15)") & (1 << 15) == 0
        assert readback(res, "gicr igrpmodr0 (sgi 15 is bit 15)") & (1 << 15) == 0
        assert readback(res, "gicr ipriorityr3 (sgi 15 is byte 3)") >> 24 == 0
        # (gicr waker is left out: QEMU 7.2 keeps a Non-secure ProcessorSleep write, but
        # delivers interrupts all the same; the knocks after it show fiqmon unharmed)
        secure = {w: r for w, r in res.items() if "secure" in w}
        assert len(secure) == 11, secure
        assert secure.pop("overwrite 32 words of secure ram") == "aborted 32 of 32"
        assert set(secure.values()) == {"aborted"}, secure
        assert res["mrs scr_el3"] == "undefined" and res["msr scr_el3"] == "undefined"
        assert res["smc fuzz"] == ("10000 calls, 10000 returned -1, 0 changed x4-x7, "
                                   "the guest survived"), res["smc fuzz"]
    assert "guest: unexpected exception" not in log

    # fiqmon still answers, its interrupts still Group 0, enabled, its code unchanged
    m = fm.knock()
    assert in_guest(int(m.group(2), 16)) and m.group(3) == b"el1h", m.group(0)
    irqs = fm.cmd("irqs")
    assert re.search(r"line=40\s+raw=\d en=1 fiq fiqs=[1-9]", irqs), irqs
    assert re.search(r"line=15\s+raw=\d en=1 fiq ", irqs), irqs
    crc = re.search(r"resident code crc32 ([0-9a-f]{8})", fm.cmd("version")).group(1)
    assert int(crc, 16) == image_crc(fm.elf, tmp_path)
    assert fm.cmd("md -p e000000 10") == "error: fault at 0x000000000e000000\n"
    fm.leave()
    m = fm.knock()
    assert m.group(1) == b"knock"


def test_group0_cpu_interface_access_from_the_normal_world_leaves_fiqmon_running(boot):
    """A kernel that touches Group 0 of the GIC CPU interface traps to EL3 (SCR_EL3.FIQ):
    fiqmon answers it as RAZ/WI (IAR0 as 1023, spurious) and runs on, its line still on."""
    fm = run_guest(boot, "hostile")
    for el in ("el2", "el1"):
        fm.console.expect(rf"guest hostile64: {el} masked F, spinning")
        fm.console.send(b"k")
    fm.console.expect(r"guest hostile64: done\r\n", timeout=60)
    fm.console.send(b"g")
    out, _ = fm.console.expect(r"guest hostile64: group 0 done\r\n")
    assert "icc_igrpen0_el1 = 0 (group 0 off) -> no exception" in out, out
    assert re.search(r"icc_iar0_el1 \(take fiqmon's interrupt\) -> read 0*3ff\b", out), out
    assert b"fiqmon: fatal" not in fm.debug.log
    m = fm.knock()
    assert in_guest(int(m.group(2), 16)), m.group(0)
    assert re.search(r"line=40\s+raw=\d en=1 fiq ", fm.cmd("irqs"))
