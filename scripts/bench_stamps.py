# SPDX-License-Identifier: MIT
"""Boot costs too long for an exec log, read from the guest's own clock (virt).

Under `-icount shift=0,sleep=off` QEMU's virtual clock advances exactly 1 ns per
instruction and never by host time, and the generic timer's physical count (CNTPCT) is
that clock / 16. Two stamps read it: tests/bench/stamp_entry.S, prepended to fiqmon in
its U-Boot standalone image, and tests/bench/stamp_kernel.S, written over the start of
the zImage, which prints both. A stamp of S means S*16 <= the instructions before it, and
the reading one itself, < S*16+16.
"""

import re
import statistics
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
UBOOT_BIN = "/usr/lib/u-boot/qemu_arm/u-boot.bin"
NS_PER_TICK = 16                  # QEMU's generic timer: 62.5 MHz
ENTRY_STAMP_INSNS = 6             # stamp_entry.S: instructions run before fiqmon's first
ENTRY_STAMP_BEFORE = 1            # ... of which before its CNTPCT read
UBOOT_LOAD = 0x40200000           # fiqmon's standalone load address (platforms/virt)
KERNEL_ADDR = 0x40800000
ZIMAGE_MAGIC = (0x016F2818).to_bytes(4, "little")
QEMU_VIRT = ["qemu-system-arm", "-M", "virt,secure=on", "-cpu", "cortex-a15", "-m", "1G",
             "-smp", "1", "-nographic", "-nic", "none", "-monitor", "none",
             "-audiodev", "none,id=snd0", "-icount", "shift=0,sleep=off"]


def sh(*args):
    return subprocess.run(args, check=True, capture_output=True).stdout


def stamp_bin(name, out_dir):
    """Assemble tests/bench/NAME.S into a flat binary."""
    out_dir.mkdir(parents=True, exist_ok=True)
    elf, binary = out_dir / f"{name}.elf", out_dir / f"{name}.bin"
    sh("arm-none-eabi-gcc", "-mcpu=cortex-a15", "-marm", "-nostdlib", "-Ttext=0",
       f"-I{ROOT / 'tests/bench'}", str(ROOT / f"tests/bench/{name}.S"), "-o", str(elf))
    sh("arm-none-eabi-objcopy", "-O", "binary", str(elf), str(binary))
    return binary.read_bytes()


def stamped_zimage(zimage, out_dir):
    """zimage with stamp_kernel.S over its start, magic and size kept."""
    stub = stamp_bin("stamp_kernel", out_dir)
    k = bytearray(zimage)
    if k[0x24:0x28] != ZIMAGE_MAGIC or stub[0x24:0x28] != ZIMAGE_MAGIC:
        raise RuntimeError("not a zImage (no magic at 0x24)")
    k[0:0x24] = stub[0:0x24]
    k[0x30:len(stub)] = stub[0x30:]
    return bytes(k)


def run_for_stamps(args, console, timeout=120):
    """Start QEMU, wait for the stamp line on the console file, stop QEMU.
    Returns (entry stamp, kernel stamp)."""
    console.unlink(missing_ok=True)
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + timeout
    rx = re.compile(rb"bench stamps ([0-9a-f]{8}) ([0-9a-f]{8})\r\n")
    try:
        while True:
            m = rx.search(console.read_bytes()) if console.exists() else None
            if m:
                return int(m.group(1), 16), int(m.group(2), 16)
            if proc.poll() is not None:
                raise RuntimeError(f"QEMU exited {proc.returncode}: {proc.stderr.read()[-500:]!r}")
            if time.monotonic() > deadline:
                raise TimeoutError(f"no stamp line within {timeout} s in {console}")
            time.sleep(0.02)   # polling a file for output, bounded by the deadline
    finally:
        proc.terminate()
        proc.wait()


def fiqmon_alone(fiqmon_bin, work):
    """Stamp of fiqmon booting from Secure flash into a stamped zImage header (the
    exec-log figure's setup): used to check the stamp method against the exact count."""
    kernel = work / "stamp_kernel.bin"
    kernel.write_bytes(stamp_bin("stamp_kernel", work))
    console = work / "alone-console.txt"
    _, k = run_for_stamps([*QEMU_VIRT, "-serial", f"file:{console}", "-serial", "null",
                           "-bios", str(fiqmon_bin), "-device",
                           f"loader,file={kernel},addr=0x{KERNEL_ADDR:x},force-raw=on"],
                          console)
    return k


def uboot_env_flash(path):
    """Flash bank 1 holding U-Boot's own default environment with bootdelay=0: the 2 s
    autoboot countdown would otherwise be 2e9 instructions of waiting."""
    blob = Path(UBOOT_BIN).read_bytes()
    start = blob.find(b"bootcmd=run distro_bootcmd\0")
    if start < 0:
        raise RuntimeError(f"no default environment found in {UBOOT_BIN}")
    env = blob[start:blob.find(b"\0\0", start)].split(b"\0")
    env = [b"bootdelay=0" if v.startswith(b"bootdelay=") else v for v in env]
    text = path.with_suffix(".txt")
    text.write_bytes(b"\n".join(env) + b"\n")
    # qemu_arm: CONFIG_ENV_ADDR 0x04000000 (flash bank 1, offset 0), CONFIG_ENV_SIZE 256 KiB
    sh("mkenvimage", "-s", "0x40000", "-o", str(path), str(text))
    with open(path, "r+b") as f:
        f.truncate(64 << 20)          # QEMU's virt flash banks are 64 MiB
    return path


def uboot_disk(fiqmon_bin, zimage, disk):
    """The chainload disk of `make run BOOT=uboot`, with both stamps in place."""
    disk.mkdir(parents=True, exist_ok=True)
    work = disk.parent
    image = work / "fiqmon-stamped.bin"
    image.write_bytes(stamp_bin("stamp_entry", work) + fiqmon_bin.read_bytes())
    sh("mkimage", "-A", "arm", "-O", "u-boot", "-T", "standalone", "-C", "none",
       "-a", f"0x{UBOOT_LOAD:x}", "-e", f"0x{UBOOT_LOAD:x}", "-n", "fiqmon",
       "-d", str(image), str(disk / "fiqmon.uimg"))
    (disk / "vmlinuz").write_bytes(stamped_zimage(zimage.read_bytes(), work))
    sh("mkimage", "-A", "arm", "-O", "linux", "-T", "script", "-C", "none",
       "-n", "fiqmon-boot", "-d", str(ROOT / "platforms/virt/uboot-boot.cmd"),
       str(disk / "boot.scr.uimg"))


def uboot_chainload(fiqmon_bin, zimage, work, runs):
    """Reset -> fiqmon's first instruction (U-Boot's part) and -> the kernel's first
    (fiqmon's part), in instructions, over `runs` boots."""
    disk = work / "disk"
    uboot_disk(fiqmon_bin, zimage, disk)
    flash = uboot_env_flash(work / "env-flash.bin")
    console = work / "uboot-console.txt"
    args = [*QEMU_VIRT, "-serial", f"file:{console}", "-serial", "null", "-bios", UBOOT_BIN,
            "-drive", f"if=pflash,format=raw,index=1,file={flash}",
            "-drive", f"if=virtio,format=raw,readonly=on,file=fat:{disk}"]
    uboot, fiqmon, total = [], [], []
    for _ in range(runs):
        e, k = run_for_stamps(args, console)
        uboot.append(e * NS_PER_TICK - ENTRY_STAMP_BEFORE)
        fiqmon.append((k - e) * NS_PER_TICK - (ENTRY_STAMP_INSNS - ENTRY_STAMP_BEFORE))
        total.append(k * NS_PER_TICK - ENTRY_STAMP_INSNS)

    def mmm(v):
        return {"min": min(v), "median": statistics.median(v), "max": max(v)}
    return {"runs": runs, "uboot": mmm(uboot), "fiqmon": mmm(fiqmon), "total": mmm(total),
            "resolution": NS_PER_TICK}
