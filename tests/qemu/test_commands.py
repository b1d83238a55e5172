# SPDX-License-Identifier: MIT
"""Every shell command, with its output checked against what the machine really holds."""

import re
import struct

from harness import ROOT, elf_symbols, stable, tokens

COMMANDS = ["help", "version", "unlock", "lock", "readonly",
            "pc", "regs", "allregs", "md", "mw", "kmsg", "sym", "bt", "ps", "lsmod",
            "cpu", "irqs", "stats", "knock", "entry",
            "halt", "continue", "c", "release", "boot", "go", "gdb", "watchdog",
            "last", "exit", "reboot"]
PLATFORM_COMMANDS = {"versatilepb": [], "virt": ["cp15"], "virt64": []}


def built(platform):
    """The commands this platform's build has, in help's order."""
    return [c for c in COMMANDS if c not in platform.unbuilt] + PLATFORM_COMMANDS[platform.name]


def test_help_lists_every_command_with_usage(entered, platform):
    out = entered.cmd("help")
    listed = [line.split()[0] for line in out.splitlines() if line.startswith("  ")]
    assert listed == built(platform)
    for name in platform.unbuilt:
        assert entered.cmd(name) == f"error: '{name}' is not built in\n"
    assert "md [-p] ADDR [LEN] [b|h|w]" in " ".join(out.split())
    one = entered.cmd("help md")
    assert one.startswith("md [-p] ADDR [LEN] [b|h|w]")


def test_version_shows_version_build_id_and_platform(entered, platform):
    out = entered.cmd("version")
    version = (ROOT / "VERSION").read_text().strip()
    assert out.startswith(f"fiqmon {version} (git ")
    build_id = re.search(r"build-id ([0-9a-f]+)", out).group(1)
    # the linker's note, found in the image independently of fiqmon's own lookup
    image = entered.elf.with_suffix(".bin").read_bytes()
    header = struct.pack("<III", 4, 20, 3) + b"GNU\0"
    at = image.index(header) + len(header)
    assert build_id == image[at:at + 20].hex()
    assert f"platform {platform.name}, cpu {platform.cpu}, debug port {platform.uart}" in out


def test_pc_shows_the_idle_loop_in_svc_mode(entered, platform):
    if platform.arch == "a64":
        # EL3 on its own stack (SP_EL0: EL3t), IRQs masked, FIQs enabled
        m = re.match(r"pc=([0-9a-f]{16}) pstate=([0-9a-f]{8}) \(el3t NzCv DAI\)", entered.cmd("pc"))
        start, size = elf_symbols(entered.elf)["idle_loop"]
        assert m and start <= int(m.group(1), 16) < start + size, m
        assert int(m.group(2), 16) & 0x3cf == 0x38c
        return
    out = entered.cmd("pc")
    m = re.match(r"pc=([0-9a-f]{8}) cpsr=([0-9a-f]{8}) \(svc ([nN][zZ][cC][vV])", out)
    assert m, out
    start, size = elf_symbols(entered.elf)["idle_loop"]
    assert start <= int(m.group(1), 16) < start + size
    cpsr = int(m.group(2), 16)
    assert cpsr & 0x1f == 0x13
    assert cpsr & 0x80, "the idle loop runs with IRQs masked"
    assert not cpsr & 0x40, "and FIQs enabled"


def test_regs_show_the_idle_loops_known_values(entered, platform):
    t = tokens(entered.cmd("regs"))
    syms = elf_symbols(entered.elf)
    start, size = syms["idle_loop"]
    if platform.arch == "a64":
        for n in range(31):
            assert t[f"x{n}"] == platform.idle_value(n), f"x{n}"
        assert t["sp"] == syms["__stack_svc_top"][0]
        assert start <= t["pc"] < start + size
        assert t["pstate"] >> 28 == 0xa, "N and C set, Z and V clear, as the idle loop left them"
        return
    for n in range(1, 13):
        assert t[f"r{n}"] == 0x0a000000 | (n << 20), f"r{n}"
    assert t["r0"] == 0
    assert t["lr"] == 0x0ae00000
    assert t["sp"] == syms["__stack_svc_top"][0]
    assert start <= t["pc"] < start + size
    assert t["cpsr"] >> 28 == 0xa, "N and C set, Z and V clear, as the idle loop left them"


def test_allregs_show_every_bank(entered, platform):
    out = entered.cmd("allregs")
    t = tokens(out)
    syms = elf_symbols(entered.elf)
    if platform.arch == "a64":
        # each lower EL's stack pointer and exception registers, and the system registers
        for reg in ("sp_el0", "sp_el1", "elr_el1", "spsr_el1", "sp_el2", "elr_el2", "spsr_el2",
                    "sctlr_el1", "tcr_el1", "ttbr0_el1", "ttbr1_el1", "esr_el1", "far_el1",
                    "vbar_el1", "mair_el1", "hcr_el2", "scr_el3"):
            assert reg in t, f"{reg} missing"
        assert t["sp_el0"] == t["sp"] == syms["__stack_svc_top"][0]  # the idle loop's (EL3t)
        assert t["scr_el3"] & 0x405 == 0x404, "FIQs to EL3, AArch64 below; Secure: no kernel"
        return
    for mode in ("svc", "abt", "und", "irq", "fiq"):
        for reg in ("sp", "lr", "spsr"):
            assert f"{reg}_{mode}" in t, f"{reg}_{mode} missing"
    for n in range(8, 13):
        assert f"r{n}_fiq" in t
    assert "sp_usr" in t and "lr_usr" in t
    assert t["sp_svc"] == t["sp"] == syms["__stack_svc_top"][0]
    assert t["sp_abt"] == syms["__stack_abt_top"][0]
    # the bank of the mode that took the FIQ: fiqmon's stack, the return address, the cpsr
    bank = platform.monitor_bank
    assert t[f"sp_{bank}"] == syms[platform.monitor_stack][0]
    assert t[f"lr_{bank}"] == t["pc"] + 4
    assert t[f"spsr_{bank}"] == t["cpsr"]


def _bytes(md_out):
    """Memory bytes from md rows of any width (elements are little-endian values)."""
    return b"".join(int(e, 16).to_bytes(len(e) // 2, "little")
                    for row in md_out.splitlines()
                    for e in row.split(":")[1].split("  ")[0].split())


def test_mw_then_md_in_every_width(entered, platform):
    SCRATCH = platform.scratch
    assert entered.cmd(f"mw {SCRATCH:x} 12345678") == ""
    assert entered.cmd(f"mw {SCRATCH + 4:x} abcd h") == ""
    assert entered.cmd(f"mw {SCRATCH + 6:x} #239 b") == ""   # decimal 239 = 0xef
    assert entered.cmd(f"mw 0x{SCRATCH + 7:x} 0x01 b") == ""
    b = entered.cmd(f"md {SCRATCH:x} 8 b")
    assert re.match(rf"{platform.addr(SCRATCH)}: 78 56 34 12 cd ab ef 01 {{26}}xV4\.\.\.\.\.\n$", b), b
    h = entered.cmd(f"md {SCRATCH:x} 8 h")
    assert h.split(":")[1].split()[:4] == ["5678", "1234", "abcd", "01ef"]
    w = entered.cmd(f"md {SCRATCH:x} 8")
    assert w.split(":")[1].split()[:2] == ["12345678", "01efabcd"]
    assert _bytes(b) == _bytes(h) == _bytes(w)


def test_md_rows_and_ascii(entered, platform):
    SCRATCH = platform.scratch
    text = b"fiqmon md test!\x00\x7f"
    for i in range(0, len(text), 4):
        word = int.from_bytes(text[i:i + 4].ljust(4, b"\0"), "little")
        entered.cmd(f"mw {SCRATCH + i:x} {word:x}")
    out = entered.cmd(f"md {SCRATCH:x} 14 b")
    rows = out.splitlines()
    assert len(rows) == 2
    assert rows[0].startswith(f"{platform.addr(SCRATCH)}: 66 69 71")
    assert rows[0].endswith("  fiqmon md test!.")
    assert rows[1].startswith(f"{platform.addr(SCRATCH + 16)}: 7f 00 00 00")
    assert rows[1].endswith("  ....")
    # the ASCII column lines up on the partial row
    assert rows[0].index("  fiq") == rows[1].index("  ....")


def test_md_default_length_is_64_bytes(entered, platform):
    out = entered.cmd(f"md {platform.scratch:x}")
    assert len(out.splitlines()) == 4


def test_faulting_access_is_reported_and_harmless(entered, platform):
    before = stable(tokens(entered.cmd("allregs")))
    for args, addr in platform.faults:
        assert entered.cmd(f"md {args}") == f"error: fault at 0x{platform.addr(addr)}\n"
        assert entered.cmd(f"mw {args.split()[0]} 5 {args.split()[2]}") == \
            f"error: fault at 0x{platform.addr(addr)}\n"
    after = stable(tokens(entered.cmd("allregs")))
    # the abort the probe took must not leak into the interrupted context
    assert before == after


def test_irqs_shows_the_debug_uart_routed_to_fiq_and_counts(entered, platform):
    def debug_line():
        out = entered.cmd("irqs")
        m = re.search(rf"line={platform.debug_line}\s+raw=(\d) en=(\d) (fiq|irq) fiqs=(\d+) (.*)",
                      out)
        assert m, out
        return m

    first = debug_line()
    assert first.group(2) == "1" and first.group(3) == "fiq"
    assert "uart" in first.group(5)
    second = debug_line()
    assert int(second.group(4)) > int(first.group(4)) > 0


def test_stats_count_bytes_noise_and_commands(fiqmon):
    fiqmon.knock()
    s0 = {k: int(v) for k, v in re.findall(r"(\w+)=(\d+)", fiqmon.cmd("stats"))}
    fiqmon.leave()
    noise = b"noise bytes\r"
    fiqmon.debug.send(noise)
    fiqmon.debug.expect(re.escape("Type $3#33"))
    fiqmon.knock()
    s1 = {k: int(v) for k, v in re.findall(r"(\w+)=(\d+)", fiqmon.cmd("stats"))}
    # s0 already counted its own "stats\r"
    sent = len("exit\r") + len(noise) + len("$3#33") + len("stats\r")
    assert s1["rx_bytes"] - s0["rx_bytes"] == sent
    assert s1["noise"] - s0["noise"] == len(noise)
    assert s1["commands"] - s0["commands"] == 2  # stats, exit
    assert s1["fiqs"] > s0["fiqs"]
    assert s1["ring_drops"] == 0 and s1["rx_errors"] == 0


def test_last_after_power_on_has_no_report(entered, platform):
    if "last" in platform.unbuilt:
        assert entered.cmd("last") == "error: 'last' is not built in\n"
        return
    assert entered.cmd("last") == "error: no watchdog report saved (none since power-on)\n"


def test_reboot_brings_the_banner_back(entered):
    entered.debug.send("reboot\r")
    entered.debug.expect("fiqmon: rebooting")
    entered.wait_banner()
    entered.knock()
    assert entered.cmd("pc").startswith("pc=")


def test_commands_can_be_abbreviated(entered, platform):
    assert entered.cmd("al").startswith("x0 =" if platform.arch == "a64" else "r0=")
    assert entered.cmd("ver").startswith("fiqmon ")


def test_help_is_aligned_in_80_columns(entered, platform):
    out = entered.cmd("help")
    lines = out.splitlines()
    assert all(len(line) <= 80 for line in lines), max(lines, key=len)
    rows = [line for line in lines if line.startswith("  ")]
    assert len(rows) == len(built(platform))
    for row in rows:
        # name, usage and help each start in their own column
        assert row[2] != " " and row[10] == " " and row[34] == " " and row[35] != " ", row
        assert row[11] != " " or row[11:35].strip() == "", row
    md = next(row for row in rows if row.split()[0] == "md")
    assert md[11:35].rstrip() == "[-p] ADDR [LEN] [b|h|w]"
    assert out.endswith("Commands may be abbreviated, except: readonly release boot go reboot\n")


def test_a_full_name_is_needed_for_reboot(entered):
    assert entered.cmd("rebo") == "error: 'reboot' must be typed in full (it cannot be undone)\n"
    assert entered.cmd("pc").startswith("pc=")  # no reboot happened: the session goes on
