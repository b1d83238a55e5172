# SPDX-License-Identifier: MIT
"""What the shared tests need to know about each platform."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Platform:
    name: str
    uart: str               # fiqmon's debug port, as the banner names it
    debug_line: int         # its interrupt line / INTID
    scratch: int            # RAM free for mw/md tests while fiqmon idles
    faults: tuple           # (md arguments, faulting address) that must report a fault
    flash: int              # flash a user may write (mw -p), which keeps its contents
    monitor_stack: str      # symbol: top of the stack the monitor runs on
    monitor_bank: str       # the banked mode that takes fiqmon's FIQ (fiq / mon)
    cpu: str
    watchdog_line: int      # the hard-lockup watchdog's sampling timer
    payload: str            # a test guest to boot as the payload (make builds it)
    payload_hello: str      # what it prints first on the kernel console
    arch: str = "a32"       # the interrupted context's: "a32" (r0-r15, cpsr) or "a64"
    idle_mode: str = "svc"  # the mode fiqmon's idle loop runs in (AArch64: EL3 on SP_EL0)
    # commands this platform's build leaves out (not ported yet: docs/aarch64.md)
    unbuilt: tuple = ()

    def idle_value(self, n):
        """What fiqmon's idle loop keeps in register n (r/x; 0 in 0): boot/*idle.S."""
        if n == 0:
            return 0
        return (0xa00 + n) << 12 if self.arch == "a64" else 0x0a000000 | (n << 20)

    def addr(self, a):
        """An address as fiqmon prints it: as wide as the target."""
        return f"{a:016x}" if self.arch == "a64" else f"{a:08x}"


PLATFORMS = {
    "versatilepb": Platform(
        name="versatilepb", uart="uart0", debug_line=12, scratch=0x00100000,
        # ARMv5 with alignment checking on: an unaligned word faults
        faults=(("100001 4 w", 0x00100001), ("100001 2 h", 0x00100001)),
        flash=0x34000000,
        monitor_stack="__stack_fiq_top", monitor_bank="fiq", cpu="arm926ej-s",
        watchdog_line=5,
        payload="build/guests/spin.elf", payload_hello="guest spin: entering spin_forever"),
    "virt": Platform(
        name="virt", uart="uart1", debug_line=40, scratch=0x40100000,
        # Secure memory is never shown: fiqmon's RAM and the flash it booted from
        faults=(("e000000 4 w", 0x0e000000), ("0 10 b", 0x00000000)),
        flash=0x04000000,  # the Non-secure bank
        monitor_stack="__stack_fiq_top", monitor_bank="mon", cpu="cortex-a15 (secure)",
        watchdog_line=29,
        payload="build/guests/virt/flood.elf", payload_hello="guest flood: ready"),
    "virt64": Platform(
        name="virt64", uart="uart1", debug_line=40, scratch=0x40100000,
        faults=(("e000000 4 w", 0x0e000000), ("0 10 b", 0x00000000)),
        flash=0x04000000,
        monitor_stack="__stack_fiq_top", monitor_bank="el3", cpu="cortex-a57 (el3)",
        watchdog_line=29,
        payload="build/guests/virt64/hello.elf", payload_hello="guest hello64: ready",
        arch="a64", idle_mode="el3t"),
}
