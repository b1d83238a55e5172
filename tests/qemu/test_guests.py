# SPDX-License-Identifier: MIT
"""versatilepb: fiqmon resident under test guests (tests/guests/), booted from a payload
image; it interrupts a hung kernel and changes nothing of its state."""

import re
import subprocess

import pytest

import conftest

from harness import (KNOCK, ROOT, assert_last_report_survives_a_reset, assert_sampling,
                     assert_timer_not_left_asserted, elf_symbols, stay, tokens,
                     watchdog_fiq_rates)

GUESTS = ROOT / "build/guests"


@pytest.fixture(scope="module", autouse=True)
def guests():
    subprocess.run(["make", "-s", "-C", str(ROOT), "guests"], check=True)


def run_guest(boot, name, qemu_extra="", **extra):
    fm = boot("versatilepb", "nodelay", qemu_extra=qemu_extra, BOOT_DELAY_MS=0,
              KERNEL=f"build/guests/{name}.elf", **extra)
    fm.debug.expect(r"fiqmon: booting \S+ image at 0x00200000")
    return fm


def in_function(elf, name, pc):
    start, size = elf_symbols(elf)[name]
    return start <= pc < start + size


def test_knock_stops_a_hard_hang_inside_its_loop(boot):
    fm = run_guest(boot, "spin")
    fm.console.expect(r"guest spin: entering spin_forever")
    # the line is on the console a moment before the guest's con_putc has returned: a
    # knock that quick lands there, so sample until the loop is reached (then it stays)
    for _ in range(20):
        m = fm.knock()
        if in_function(GUESTS / "spin.elf", "spin_forever", int(m.group(2), 16)):
            break
        fm.leave()
    else:
        raise AssertionError(f"pc never reached spin_forever (last {m.group(2)})")
    assert tokens(fm.cmd("pc"))["cpsr"] & 0x80, "spin masked IRQs; fiqmon still got in"
    fm.leave()
    m = fm.knock()  # and it never leaves it
    assert in_function(GUESTS / "spin.elf", "spin_forever", int(m.group(2), 16)), m.group(2)


def test_knock_stops_a_deadlock_in_irq_mode(boot):
    fm = run_guest(boot, "deadlock")
    fm.console.expect(r"guest deadlock: taking the lock twice")
    elf = GUESTS / "deadlock.elf"
    # the first timer IRQ walks into the lock; sample until the CPU is stuck there (the
    # main loop's own spin_lock call, in SVC mode, is not the deadlock yet)...
    for _ in range(50):
        m = fm.knock()
        if in_function(elf, "spin_lock", int(m.group(2), 16)) and m.group(3) == b"irq":
            break
        fm.leave()
    else:
        raise AssertionError(f"pc never reached spin_lock (last {m.group(2)})")
    # ...and then it never leaves: every later sample is in spin_lock, in IRQ mode
    for _ in range(5):
        assert m.group(3) == b"irq"
        assert in_function(elf, "spin_lock", int(m.group(2), 16))
        fm.leave()
        m = fm.knock()


def ticks(fm, count):
    """The next `count` tick lines: [(tick, clock)]."""
    out = []
    for _ in range(count):
        _, m = fm.console.expect(rb"guest ticker: tick (\d+) clock (\d+)\r?\n", timeout=10)
        out.append((int(m.group(1)), int(m.group(2))))
    return out


def rate(samples):
    (t0, c0), (t1, c1) = samples[0], samples[-1]
    return (t1 - t0) / ((c1 - c0) / 24e6)       # ticks per second of the 24 MHz clock


def test_ticker_keeps_ticking_at_its_rate_across_debugger_sessions(boot):
    fm = run_guest(boot, "ticker")
    fm.console.expect(r"guest ticker: started")
    # 100 Hz against the board's 24 MHz counter. The tolerance is wide because a starved
    # host thread makes QEMU drop timer interrupts (it delivers one for several periods);
    # a debugger that cost ticks would show as a rate well below the one before it.
    before = ticks(fm, 5)
    assert 70 < rate(before) <= 105, rate(before)
    for _ in range(3):
        fm.knock()
        fm.cmd("regs")
        fm.cmd("allregs")
        fm.cmd(f"md 200000 100")
        fm.leave()
    after = ticks(fm, 5)
    assert after[0][0] > before[-1][0]
    assert 70 < rate(after) <= 105, "IRQs still reach the kernel at the timer's rate"


def test_halt_freezes_the_ticker_and_continue_resumes_it(boot):
    fm = run_guest(boot, "ticker")
    ticks(fm, 1)
    fm.knock()
    assert "stop reason: knock" in fm.cmd("halt")
    fm.console.drain(0.3)            # a tick printed just before the halt may be in flight
    assert fm.console.received_within(0.5) == b""
    assert "already halted" in fm.cmd("halt")
    fm.cmd("continue")
    resumed = ticks(fm, 2)
    assert resumed[1][0] > resumed[0][0]
    assert fm.cmd("continue") == "error: not halted\n"


ROUNDS = 10


def checksums(fm, rounds=ROUNDS):
    got = {}
    while len(got) < rounds:
        _, m = fm.console.expect(
            rb"guest integrity: round (\d+) checksum ([0-9a-f]{8}) errors (\d+)\r?\n", timeout=20)
        got[int(m.group(1))] = (m.group(2).decode(), int(m.group(3)))
    return got


def test_nothing_lost_integrity_checksums_survive_1000_interruptions(boot):
    """The project's most important test: the integrity guest keeps live values in every
    register, the flags and the banked registers of its modes, and prints a checksum per
    round. Interrupted over a thousand times, mixing every kind of debugger activity, it
    must print exactly the checksums of an undisturbed run."""
    clean = run_guest(boot, "integrity")
    reference = checksums(clean)
    clean.close()

    fm = run_guest(boot, "integrity")
    fm.console.expect(r"guest integrity: started")
    fm.knock()
    start = int(re.search(r"fiqs=(\d+)", fm.cmd("stats")).group(1))
    noise = bytes((i * 37 + 11) % 256 for i in range(512)).replace(b"$", b"%")
    rounds_seen = 0
    fiqs = 0
    for cycle in range(200):
        if cycle % 10 == 0:
            fiqs = int(re.search(r"fiqs=(\d+)", fm.cmd("stats")).group(1)) - start
            if fiqs >= 1000:
                break
        fm.cmd("regs")
        fm.cmd("allregs")
        fm.cmd("md 200000 40")
        fm.cmd("halt")
        fm.cmd("pc")
        fm.cmd("continue")
        fm.leave()
        fm.debug.send(noise)
        fm.knock()
    fm.leave()
    got = checksums(fm)
    assert fiqs >= 1000, f"only {fiqs} interruptions"
    for r in sorted(reference):
        assert got[r] == reference[r], f"round {r}: {got[r]} after {fiqs} FIQs, want {reference[r]}"
    assert all(errors == 0 for _, errors in got.values())
    rounds_seen = max(got)
    assert rounds_seen >= ROUNDS


def build_image(guest, variant="nodelay", delay_ms=0):
    build = conftest.build("versatilepb", variant, BOOT_DELAY_MS=delay_ms)["BUILD"]
    subprocess.run(["make", "-s", "-C", str(ROOT), "image", "PLATFORM=versatilepb",
                    f"BUILD={build}", f"BOOT_DELAY_MS={delay_ms}",
                    f"KERNEL=build/guests/{guest}.elf"], check=True, capture_output=True)
    image = (ROOT / build / "fiqmon-image.bin").read_bytes()
    offset = -(-len((ROOT / build / "fiqmon.bin").read_bytes()) // 16) * 16
    assert image[offset:offset + 4] == b"FQMP"
    return image, offset


def boot_image(boot, tmp_path, data):
    path = tmp_path / "image.bin"
    path.write_bytes(data)
    load = (f"-device loader,file={path},addr=0x10000,force-raw=on "
            f"-device loader,addr=0x10000,cpu-num=0")
    return boot("versatilepb", "nodelay", BOOT_DELAY_MS=0, QEMU_LOAD=load)


def with_header_crc(data, off):
    import struct
    import zlib
    hdr = bytearray(data[off:off + 64])
    hdr[60:64] = struct.pack("<I", zlib.crc32(bytes(hdr[:60])))
    return data[:off] + bytes(hdr) + data[off + 64:]


@pytest.mark.parametrize("damage,why", [
    ("header", "header CRC mismatch"),
    ("data", "data CRC mismatch"),
    ("oversized", "oversized payload"),
    ("outside", "image does not fit in RAM outside fiqmon's region"),
])
def test_bad_payloads_are_refused_and_fiqmon_stays_usable(boot, tmp_path, damage, why):
    import struct
    image, off = build_image("spin")
    image = bytearray(image)
    if damage == "header":
        image[off + 16] ^= 0x01                    # load address, header CRC now wrong
    elif damage == "data":
        image[off + 64 + 8] ^= 0x80                # a byte of the kernel
    elif damage == "oversized":
        image[off + 24:off + 28] = struct.pack("<I", 0x10000000)
        image = bytearray(with_header_crc(bytes(image), off))
    else:
        image[off + 16:off + 20] = struct.pack("<I", 0x07ff8000)   # into fiqmon's home
        image[off + 20:off + 24] = struct.pack("<I", 0x07ff8000)
        image = bytearray(with_header_crc(bytes(image), off))
    fm = boot_image(boot, tmp_path, bytes(image))
    _, m = fm.debug.expect(r"fiqmon: payload refused: ([^\r\n]*)\r\n")
    assert m.group(1).decode() == why
    fm.knock()
    assert fm.cmd("boot") == f"error: payload refused: {why}\n"
    assert fm.cmd("pc").startswith("pc=")


def test_good_image_boots_and_boot_delay_lets_you_stay(boot, tmp_path):
    image, _ = build_image("spin", "delay", 3000)
    path = tmp_path / "image.bin"
    path.write_bytes(image)
    load = (f"-device loader,file={path},addr=0x10000,force-raw=on "
            f"-device loader,addr=0x10000,cpu-num=0")
    fm = boot("versatilepb", "delay", BOOT_DELAY_MS=3000, QEMU_LOAD=load)
    fm.debug.expect(re.escape("Type $3#33 to stay in fiqmon: 3.0 s"))
    fm.debug.send("x")                  # not the knock: noise, the countdown goes on
    fm.debug.send(KNOCK)
    _, m = fm.debug.expect(r"fiqmon: entered by (boot delay) at pc=")
    fm.debug.expect(r"fiqmon> ")
    assert fm.console.received_within(0.3) == b"", "the payload must not have started"
    fm.debug.send("boot\r")              # the kernel starts: no prompt follows
    fm.debug.expect(r"fiqmon: booting bare-metal image at 0x00200000")
    fm.console.expect(r"guest spin: entering spin_forever")


def test_linux_protocol_atags_exclude_fiqmon_and_keep_the_cmdline(boot):
    cmdline = "console=ttyAMA1 fiqmon.test=atags root=/dev/ram"
    fm = run_guest(boot, "bootinfo", PAYLOAD_KIND="linux", CMDLINE=cmdline)
    out, _ = fm.console.expect(r"guest bootinfo: done", timeout=10)
    assert re.search(r"r0=00000000 r1=00000183 r2=00000100", out), out   # 387 = versatile PB
    assert "atag core" in out
    assert "atag mem start=00000000 size=07ff0000" in out
    assert f"atag cmdline {cmdline}" in out


def test_linux_protocol_dtb_gets_fiqmon_reserved(boot, tmp_path):
    dtb = tmp_path / "bootinfo.dtb"
    subprocess.run(["dtc", "-I", "dts", "-O", "dtb", "-o", str(dtb),
                    str(ROOT / "tests/guests/bootinfo.dts")], check=True, capture_output=True)
    fm = run_guest(boot, "bootinfo", PAYLOAD_KIND="linux", DTB=str(dtb))
    out, _ = fm.console.expect(r"guest bootinfo: done", timeout=10)
    assert re.search(r"r2=07ef0000", out), out
    assert "dtb memreserve start=00100000 size=00002000" in out        # the tree's own
    assert "dtb memreserve start=07ff0000 size=00010000" in out        # fiqmon's, added
    assert "dtb bootargs console=ttyAMA1 bootinfo=dts" in out


def test_flash_script_issues_the_expected_openocd_commands(tmp_path):
    build = conftest.build("versatilepb", "nodelay", BOOT_DELAY_MS=0)["BUILD"]
    out = subprocess.run(["make", "-s", "-C", str(ROOT), "flash", "PLATFORM=versatilepb",
                          f"BUILD={build}", "KERNEL=build/guests/spin.elf",
                          "OPENOCD_INTERFACE=interface/dummy.cfg", "DRY_RUN=1"],
                         capture_output=True, text=True, check=True)
    cmds = re.findall(r"^openocd: (.*)$", out.stdout + out.stderr, re.M)
    image = f"{build}/fiqmon-image.bin"
    assert cmds == ["reset halt", "flash probe 0",
                    f"flash write_image erase {image} 0x34000000 bin",
                    f"verify_image {image} 0x34000000 bin", "reset run"]


def test_release_gives_the_port_to_the_kernel_and_the_service_call_rearms(boot):
    fm = run_guest(boot, "uartecho")
    fm.console.expect(r"guest uartecho: ping response 0 version 000100")
    fm.console.expect(r"guest uartecho: waiting for release")
    fm.knock()
    fm.debug.send("release\r")
    fm.debug.expect(r"fiqmon: uart0 released to the kernel")
    fm.console.expect(r"guest uartecho: uart0 is mine")
    # the kernel's driver gets the bytes now, knocks included; fiqmon stays silent
    fm.debug.send("ab$3#33")
    for c in "ab$3#33":
        fm.console.expect(rf"guest uartecho: got {re.escape(c)}\r\n")
    assert fm.debug.received_within(0.3) == b""
    fm.debug.send("R")
    fm.console.expect(r"guest uartecho: rearm response 0")
    fm.debug.expect(r"fiqmon: re-armed by the kernel")
    fm.console.expect(r"guest uartecho: waiting for release")
    m = fm.knock()
    assert m.group(1) == b"knock"
    assert "fiq" in re.search(r"line=12 .*", fm.cmd("irqs")).group(0)


def test_watchdog_reports_a_hard_lockup_without_a_knock(boot):
    fm = run_guest(boot, "deadlock")
    fm.console.expect(r"guest deadlock: taking the lock twice")
    fm.knock()
    assert "watchdog=1s" in fm.cmd("watchdog #1")
    fm.leave()
    # nobody knocks: the timer interrupt stays pending in the deadlocked kernel
    _, m = fm.debug.expect(r"fiqmon: watchdog: hard lockup: the kernel has not taken its timer "
                           r"interrupt for 1 s\r\nfiqmon: watchdog: cpu0 pc=([0-9a-f]{8}) "
                           r"lr=[0-9a-f]{8} sp=[0-9a-f]{8} \((\w+)\)", timeout=10)
    assert in_function(GUESTS / "deadlock.elf", "spin_lock", int(m.group(1), 16))
    assert m.group(2) == b"irq"
    fm.debug.expect(r"r0=[0-9a-f]{8}")
    fm.debug.expect(r"fiqmon: watchdog: still watching")
    # one report per lockup, not one per sample
    assert b"hard lockup" not in fm.debug.received_within(1.5)
    fm.knock()
    assert_last_report_survives_a_reset(fm, m.group(1).decode())


def test_watchdog_halt_keeps_the_wedged_kernel_in_the_shell(boot):
    fm = run_guest(boot, "deadlock")
    fm.console.expect(r"guest deadlock: taking the lock twice")
    fm.knock()
    fm.cmd("watchdog #1")
    assert "on a lockup: report and halt)" in fm.cmd("watchdog halt")
    fm.leave()
    fm.debug.expect(r"fiqmon: watchdog: hard lockup", timeout=10)
    fm.debug.expect(r"fiqmon: watchdog: kernel halted; 'continue' resumes it\r\nfiqmon> ")
    pc = int(re.search(r"pc=([0-9a-f]{8})", fm.cmd("pc")).group(1), 16)
    assert in_function(GUESTS / "deadlock.elf", "spin_lock", pc)
    assert fm.cmd("halt") == "error: already halted\n"
    assert fm.cmd("continue") == "fiqmon: kernel continues\n"
    assert "report and keep watching" in fm.cmd("watchdog report")


def test_watchdog_stays_quiet_while_the_kernel_takes_interrupts(boot):
    fm = run_guest(boot, "ticker")
    fm.console.expect(r"guest ticker: started")
    fm.knock()
    fm.cmd("watchdog #1")
    fm.leave()
    ticks(fm, 35)                         # over three timeout periods of ticking
    assert b"hard lockup" not in fm.debug.log
    fm.knock()
    assert "lockups=0" in fm.cmd("watchdog")
    assert fm.cmd("watchdog off") == "watchdog=off\n"


def test_watchdog_timer_takes_ten_fiqs_a_second_in_every_state(boot):
    """The SP804 is acknowledged at its source on every FIQ, and by the polling loop while
    the kernel is held: about ten FIQs a second in the shell and after exit, none while
    halted, and the kernel ticking whenever it is not halted (issue 14's storm, on virt)."""
    fm = run_guest(boot, "ticker")
    fm.console.expect(r"guest ticker: started")
    fm.knock()
    assert fm.cmd("watchdog #1").startswith("watchdog=1s ")
    fm.console.forget()
    ran = []
    assert_sampling(watchdog_fiq_rates(fm, lambda: ran.append(rate(ticks(fm, 30)))))
    assert ran[0] > 50, f"{ran[0]:.0f} ticks a second in the shell"
    assert "kernel halted" in fm.cmd("halt")
    assert watchdog_fiq_rates(fm, stay()) == (0, 0), "FIQs are masked while halted"
    assert_timer_not_left_asserted(fm)
    fm.console.drain(0.3)  # a line already on its way
    assert b"tick" not in fm.console.received_within(1.0), "the halted kernel ticked"
    assert fm.cmd("continue") == "fiqmon: kernel continues\n"

    def away():
        fm.leave()
        fm.console.forget()
        ticks(fm, 30)
        fm.knock()
    assert_sampling(watchdog_fiq_rates(fm, away))
    assert "lockups=0" in fm.cmd("watchdog")


def test_a_cooperating_kernels_console_shares_the_one_wire(boot):
    """CONSOLE=ring (docs/one-wire.md): the fiqcon guest writes its console into fiqmon's
    ring and reads its input from it; both travel on the debug wire (UART0), where the
    knock still opens fiqmon's shell and never reaches the guest."""
    fm = boot("versatilepb", "ring", BOOT_DELAY_MS=0, CONSOLE="ring",
              KERNEL="build/guests/fiqcon.elf")
    fm.console.expect(r"guest fiqcon: console ring at 07ff[0-9a-f]{4}\r\n")
    wire = fm.debug
    wire.expect(r"fiqcon: hello on the one wire\r\n")
    wire.send(b"echo one\r")
    wire.expect(r"fiqcon: got \[echo one\]\r\n")
    wire.send(b"a$b $3x\r")   # knock candidates that fail are the guest's, in order
    wire.expect(r"fiqcon: got \[a\$b \$3x\]\r\n")
    wire.send(b"$")           # alone: held for 50 ms, then the guest's
    wire.expect(r"\$", timeout=10)
    wire.send(b"\r")
    wire.expect(r"fiqcon: got \[\$\]\r\n")
    m = fm.knock()
    assert "pc=" in fm.cmd("pc")
    fm.leave()
    wire.send(b"after\r")
    wire.expect(r"fiqcon: got \[after\]\r\n")
    log = wire.log.decode("latin1")
    got = re.findall(r"fiqcon: got \[(.*?)\]\r\n", log)
    assert got == ["echo one", "a$b $3x", "$", "after"], got
    assert "Type $3#33" not in log   # no knock prompt on the kernel's console
    assert 0x00200000 <= int(m.group(2), 16) < 0x00300000, m.group(0)  # in the guest
