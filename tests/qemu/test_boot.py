# SPDX-License-Identifier: MIT
"""Boot: banner, relocation to the resident home, the idle loop."""

import os
import pty
import re
import select
import subprocess
import time

from harness import ROOT, Fiqmon, elf_symbols


def test_banner_names_version_platform_home_and_port(fiqmon, platform):
    version, name, home, port, knock = fiqmon.banner.groups()
    assert version.decode() == (ROOT / "VERSION").read_text().strip()
    assert name.decode() == platform.name
    syms = elf_symbols(fiqmon.elf)
    assert int(home, 16) == syms["__resident_start"][0]
    assert port.decode() == platform.uart
    assert knock == b"1"
    fiqmon.debug.expect(re.escape("Type $3#33 to enter the debugger>"))


def test_resident_code_matches_the_elf(boot, tmp_path):
    """md of the resident home shows the linked .text: the boot stub copied it there.
    (versatilepb: on virt the home is Secure memory, which md never shows.)"""
    entered = boot("versatilepb")
    entered.knock()
    elf = entered.elf
    text = tmp_path / "text.bin"
    subprocess.run(["arm-none-eabi-objcopy", "-O", "binary", "--only-section=.text",
                    str(elf), str(text)], check=True)
    want = text.read_bytes()[:64]
    base = elf_symbols(elf)["__resident_copy_start"][0]
    out = entered.cmd(f"md {base:x} 40 b")
    got = bytes(int(b, 16) for row in out.splitlines()
                for b in row.split(":")[1].split("  ")[0].split())
    assert got == want


def test_vectors_at_zero_send_fiq_to_the_resident_handler(boot):
    entered = boot("versatilepb")
    entered.knock()
    syms = elf_symbols(entered.elf)
    out = entered.cmd("md 1c 8")
    words = [int(w, 16) for w in out.split(":")[1].split()[:2]]
    assert words[0] == 0xe51ff004          # ldr pc, [pc, #-4]
    assert words[1] == syms["fiq_noise"][0]    # the platform's noise path


def test_make_run_on_a_terminal_quits_with_ctrl_a_x():
    """The README's interactive recipe: make run, knock, Ctrl-A x."""
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(ROOT)
        os.execvp("make", ["make", "-s", "--no-print-directory", "run"])
    out = b""

    def wait_for(pattern, timeout=30):
        nonlocal out
        deadline = time.monotonic() + timeout
        while not re.search(pattern, out):
            assert time.monotonic() < deadline, f"no {pattern!r} in {out[-500:]!r}"
            r, _, _ = select.select([fd], [], [], 0.5)
            if r:
                try:
                    out += os.read(fd, 4096)
                except OSError:
                    break

    try:
        wait_for(rb"Type \$3#33 to enter the debugger>")
        os.write(fd, b"$3#33")
        wait_for(rb"fiqmon> ")
        os.write(fd, b"\x01x")
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            r, _, _ = select.select([fd], [], [], 0.2)
            if r:
                try:
                    out += os.read(fd, 4096)
                except OSError:
                    pass
        else:
            raise AssertionError("QEMU did not quit on Ctrl-A x")
    finally:
        try:
            os.kill(pid, 9)
        except ProcessLookupError:
            pass
        os.close(fd)


def test_make_run_with_a_guest_kernel_builds_it_on_a_fresh_tree(tmp_path):
    """The README's `make run KERNEL=build/guests/spin.elf` on a fresh clone: make builds the
    guest (here into an empty GUEST_BUILD, with fiqmon into an empty BUILD) and boots it."""
    fresh = tmp_path / "fresh"
    fm = Fiqmon(tmp_path / "q", {"BUILD": fresh / "versatilepb", "GUEST_BUILD": fresh / "guests",
                                 "KERNEL": fresh / "guests" / "spin.elf"})
    try:
        fm.wait_banner(timeout=60)
        fm.debug.expect(re.escape("Type $3#33 to stay in fiqmon: 1.0 s "))
        fm.console.expect(r"guest spin: entering spin_forever", timeout=15)
    finally:
        fm.close()
    assert (fresh / "guests" / "spin.elf").exists()
    assert b"Traceback" not in fm.stderr_path.read_bytes()


def test_make_image_with_a_missing_kernel_says_so_in_one_line(tmp_path):
    missing = tmp_path / "no-such-kernel.elf"
    out = subprocess.run(["make", "-s", "--no-print-directory", "-C", str(ROOT), "image",
                          f"KERNEL={missing}"], capture_output=True, text=True)
    assert out.returncode != 0
    assert "Traceback" not in out.stderr + out.stdout
    # make's own "make: ***" (or "make[2]: ***" under make test) line is not ours
    errors = [l for l in out.stderr.splitlines() if not re.match(r"make(\[\d+\])?: \*\*\*", l)]
    assert errors == [f"make image: KERNEL={missing}: no such file"], out.stderr
    # mkimage itself, given a missing file, says one line too
    out = subprocess.run(["/usr/bin/python3", str(ROOT / "scripts/mkimage.py"), "--fiqmon",
                          str(ROOT / "build/versatilepb/fiqmon.bin"), "--kernel", str(missing),
                          "--linux-load", "0", "-o", str(tmp_path / "x.bin")],
                         capture_output=True, text=True)
    assert out.returncode == 2
    assert out.stderr == f"mkimage: cannot read the kernel {missing}: No such file or directory\n"
