# SPDX-License-Identifier: MIT
"""fiqmon at EL3 under Debian's unmodified arm64 kernel (linux-image-arm64) on virt64:
the kernel boots at EL2 and panics for lack of a root fs (KASLR on, as Debian ships it);
fiqmon, which never saw its build, stops it, translates its addresses, reads its log,
version and symbols, and follows its frame records. Every answer is checked against what
the kernel itself printed on UART0 in the same boot, or against the Image file."""

import re
import subprocess

import pytest

from harness import ROOT, console_lines, tokens

PANIC = "Kernel panic - not syncing: VFS: Unable to mount root fs"
IMAGE = ROOT / "build/linux-arm64/vmlinuz"
IMAGE_PA = 0x40200000                      # where QEMU loads it (platform.mk)
KERNEL_VA = 0xFFFF000000000000             # TTBR1: every kernel address is above
SYMBOL = r"([\w.$]+)\+0x([0-9a-f]+)/0x([0-9a-f]+)"
FRAME = re.compile(r"^#(\d+)\s+([0-9a-f]{16}) " + SYMBOL, re.M)


@pytest.fixture(scope="module", autouse=True)
def debian_kernel():
    subprocess.run(["make", "-s", "-C", str(ROOT), "linux", "ARCH=arm64"], check=True)


def panicked(boot, **extra):
    fm = boot("virt64", "nodelay", BOOT_DELAY_MS=0, KERNEL="debian", **extra)
    # the whole end line: the console log is compared with kmsg
    fm.console.expect(r"---\[ end " + re.escape(PANIC) + r"[^\r\n]*\]---\r?\n", timeout=120)
    fm.knock()
    return fm


@pytest.fixture(scope="module")
def kernel(module_boot):
    """One boot for the module: every test leaves the shell as it found it."""
    return panicked(module_boot)


def kernel_call_trace(fm):
    """The kernel's own panic backtrace: [(function, offset, size)] from the lines after
    'Call trace:', like ' panic+0x184/0x364'."""
    lines = console_lines(fm)
    start = next(i for i, line in enumerate(lines) if line.endswith("Call trace:"))
    frames = []
    for line in lines[start + 1:]:
        m = re.search(r"\] +" + SYMBOL + "$", line)
        if not m:
            break
        frames.append((m.group(1), int(m.group(2), 16), int(m.group(3), 16)))
    assert frames, "the kernel printed no call trace"
    return frames


def _frames(out):
    return [(name, int(off, 16), int(size, 16)) for _, _, name, off, size in FRAME.findall(out)]


def test_the_kernel_boots_at_el2_and_panics(kernel):
    console = "\n".join(console_lines(kernel))
    assert "CPU: All CPU(s) started at EL2" in console
    assert "kvm [1]: Hyp mode initialized successfully" in console
    assert PANIC in console


def test_a_knock_stops_the_kernel_in_its_text_symbolized(kernel):
    kernel.leave()
    m = kernel.knock()
    assert int(m.group(2), 16) >= KERNEL_VA and m.group(3) == b"el1h", m.group(0)
    out = kernel.cmd("pc")
    pc = int(re.match(r"pc=([0-9a-f]{16}) ", out).group(1), 16)
    assert pc >= KERNEL_VA
    assert re.search(r"^pc: " + SYMBOL + "$", out, re.M), out
    regs = kernel.cmd("regs")
    assert re.search(r"^x28=[0-9a-f]{16} x29=[0-9a-f]{16} x30=[0-9a-f]{16} sp =[0-9a-f]{16}$",
                     regs, re.M), regs
    sp = int(re.search(r"sp =([0-9a-f]{16})", regs).group(1), 16)
    assert sp >= KERNEL_VA and sp % 16 == 0, "the kernel's stack, as EL1 sees it"
    assert re.search(r"^lr: " + SYMBOL + "$", regs, re.M), regs


def _md_bytes(out):
    return bytes.fromhex("".join(w[6:8] + w[4:6] + w[2:4] + w[0:2]
                                 for row in out.splitlines()
                                 for w in row.split(":")[1].split("  ")[0].split()))


def test_md_translates_the_kernels_addresses(kernel):
    panic = int(re.search(r"^([0-9a-f]{16}) panic\+0x0/", kernel.cmd("sym panic"), re.M)
                .group(1), 16)
    # (past its patchable entry: ftrace rewrote the first instruction at boot)
    virt = _md_bytes(kernel.cmd(f"md {panic + 0x10:x} 40"))
    assert len(virt) == 0x40 and any(virt)
    image = IMAGE.read_bytes()
    offset = image.find(virt)
    assert offset > 0 and image.find(virt, offset + 1) < 0, "panic's code, once, in the Image"
    phys = _md_bytes(kernel.cmd(f"md -p {IMAGE_PA + offset:x} 40"))
    assert phys == virt
    # an address the kernel has not mapped, fiqmon's own memory: one error, no hang
    assert kernel.cmd("md 1000 10") == "error: fault at 0x0000000000001000\n"
    assert kernel.cmd("md -p e000000 4").startswith("error: fault at 0x000000000e000000")
    assert kernel.cmd("md fffffffffffffff0 20") == \
        "error: range wraps past 0xffffffffffffffff\n"
    assert kernel.cmd("md 10000000000000000") == \
        "error: bad address '10000000000000000': number too large\n"


def test_kmsg_and_version_match_what_the_kernel_printed(kernel):
    out = kernel.cmd("kmsg #40", timeout=30)
    lines = out.splitlines()
    assert any(PANIC in line for line in lines), out
    assert len(lines) == 40, out
    console = console_lines(kernel)
    at = 0
    for line in lines:
        assert re.match(r"\[ *\d+\.\d{6}\] ", line), f"not a log line: {line!r}"
        assert line in console[at:], f"{line!r} is not what the kernel printed (in order)"
        at = console.index(line, at) + 1
    assert kernel.cmd("kmsg").splitlines() == lines[-20:]

    version = kernel.cmd("version")
    release, uts = re.search(r"^linux (\S+) (.+)$", version, re.M).groups()
    banner = next(line for line in console if "Linux version " in line)
    assert release == re.search(r"Linux version (\S+) ", banner).group(1)
    assert release.endswith("-arm64")
    assert banner.endswith(" " + uts), f"uname -v {uts!r} does not end {banner!r}"


def test_sym_agrees_with_the_kernels_own_call_trace(kernel):
    for function, offset, size in kernel_call_trace(kernel):
        by_name = kernel.cmd(f"sym {function}", timeout=30)
        matches = [m for m in re.finditer(r"^([0-9a-f]{16}) " + SYMBOL + "$", by_name, re.M)
                   if m.group(2) == function and int(m.group(4), 16) == size]
        assert matches, f"sym {function}: {by_name!r}, the kernel says size {size:#x}"
        start = int(matches[0].group(1), 16)
        assert start >= KERNEL_VA
        back = kernel.cmd(f"sym {start + offset:x}")
        assert back == f"{start + offset:016x} {function}+{offset:#x}/{size:#x}\n", back
    assert kernel.cmd("sym no_such_symbol_at_all") == \
        "error: no symbol 'no_such_symbol_at_all'\n"
    assert kernel.cmd("sym 1000") == "error: 0000000000001000 is not in the kernel's code\n"


def test_bt_reproduces_the_kernels_chain_below_panic(kernel):
    trace = kernel_call_trace(kernel)
    below = trace[[f for f, _, _ in trace].index("panic") + 1:]
    assert below[-1][0] == "ret_from_fork"
    for sample in range(3):
        assert "stop reason: knock" in kernel.cmd("halt")
        out = kernel.cmd("bt", timeout=30)
        assert out.startswith("bt: frame records (x29)\n") and out.endswith(
            "bt: end of the chain\n"), out
        names = [name for name, _, _ in _frames(out)]
        assert "panic" in names, out
        assert _frames(out)[names.index("panic") + 1:] == below, \
            f"sample {sample}: fiqmon\n{out}\nthe kernel: {below}"
        assert kernel.cmd("continue") == "fiqmon: kernel continues\n"
    assert kernel.cmd("bt -s").startswith("error: bt -s: ")


def test_allregs_shows_the_kernels_system_registers(kernel):
    out = kernel.cmd("allregs")
    regs = {k: int(v, 16) for k, v in re.findall(r"(\w+_el[0-3])=([0-9a-f]+)", out)}
    assert regs["sctlr_el1"] & 1, "the kernel runs with its MMU on"
    assert regs["ttbr1_el1"] and regs["tcr_el1"]
    assert regs["scr_el3"] & 0x405 == 0x405, "NS, FIQ to EL3, lower ELs AArch64"
    assert regs["sp_el1"] >= KERNEL_VA
    vectors = kernel.cmd(f"sym {regs['vbar_el1']:x}")
    assert re.match(r"[0-9a-f]{16} vectors\+0x0/", vectors), vectors
    assert "hcr_el2" in regs and "vbar_el2" in regs


def test_return_addresses_lose_their_pac_bits(boot):
    """-cpu max has pointer authentication: the kernel signs its return addresses, and bt
    must show them plain."""
    fm = panicked(boot, QEMU_CPU="max")
    console = "\n".join(console_lines(fm))
    assert "Address authentication" in console, "this CPU must sign the kernel's returns"
    assert "stop reason: knock" in fm.cmd("halt")
    out = fm.cmd("bt", timeout=30)
    frames = FRAME.findall(out)
    names = [name for _, _, name, _, _ in frames]
    assert "panic" in names and names[-1] == "ret_from_fork", out
    assert all(int(addr, 16) >> 48 == 0xffff for _, addr, *_ in frames), out
    fm.cmd("continue")


def test_symbols_and_bt_without_kaslr(boot):
    """KASLR off (nokaslr on the command line; the busybox boot is the one that takes
    KERNEL_ARGS): the kernel sits at its link address and fiqmon's answers are the same."""
    subprocess.run(["make", "-s", "-C", str(ROOT), "initramfs", "ARCH=arm64"], check=True)
    fm = boot("virt64", "nodelay", BOOT_DELAY_MS=0, KERNEL="debian", INITRD="busybox",
              KERNEL_ARGS="nokaslr")
    fm.console.expect(r"Run /init as init process", timeout=120)
    console = "\n".join(console_lines(fm))
    assert "nokaslr" in console and "KASLR disabled on command line" in console, console[-2000:]
    fm.knock()
    # the link-time address: _stext at KIMAGE_VADDR + 64 KiB (arm64, 48-bit VAs)
    assert fm.cmd("sym _stext").startswith("ffff800008010000 _stext+0x0/")
    out = fm.cmd("pc")
    assert re.search(r"^pc: " + SYMBOL + "$", out, re.M), out
    assert "stop reason: knock" in fm.cmd("halt")
    bt = fm.cmd("bt", timeout=30)
    assert bt.endswith("bt: end of the chain\n") and FRAME.search(bt), bt
    assert all(0xffff800008000000 <= int(a, 16) < 0xffff800010000000
               for _, a, *_ in FRAME.findall(bt)), bt
    fm.cmd("continue")
