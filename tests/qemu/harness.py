# SPDX-License-Identifier: MIT
"""Drive fiqmon in real QEMU through its real serial ports.

`make run` starts QEMU with both serial ports on unix sockets; this module connects to
them and waits for output with timeouts (never sleeps as synchronisation)."""

import os
import re
import threading
import signal
import socket
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROMPT = "fiqmon> "
KNOCK = b"$3#33"


class Port:
    """One QEMU serial port on a unix socket: send bytes, wait for patterns.

    A reader thread drains the socket all the time, so QEMU never blocks on a port the
    test is not looking at (a blocked chardev write stalls the whole machine)."""

    def __init__(self, sock, name):
        self.sock = sock
        self.name = name
        self.buf = b""      # received, not yet consumed by expect()
        self.log = b""      # everything ever received
        self.closed = False
        self._cond = threading.Condition()
        self._reader = threading.Thread(target=self._read_forever, daemon=True)
        self._reader.start()

    def _read_forever(self):
        while True:
            try:
                data = self.sock.recv(65536)
            except OSError:
                data = b""
            with self._cond:
                if not data:
                    self.closed = True
                    self._cond.notify_all()
                    return
                self.buf += data
                self.log += data
                self._cond.notify_all()

    def send(self, data):
        if isinstance(data, str):
            data = data.encode()
        self.sock.sendall(data)

    def expect(self, pattern, timeout=10.0):
        """Wait until pattern (regex str/bytes) matches the unconsumed output.
        Consumes through the match; returns the text before it and the match."""
        if isinstance(pattern, str):
            pattern = pattern.encode()
        rx = re.compile(pattern, re.S)
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                m = rx.search(self.buf)
                if m:
                    before = self.buf[: m.start()]
                    self.buf = self.buf[m.end():]
                    return before.decode("latin1"), m
                left = deadline - time.monotonic()
                if left <= 0 or self.closed:
                    tail = self.buf[-600:].decode("latin1")
                    why = "QEMU closed the port" if self.closed else f"timed out after {timeout}s"
                    raise AssertionError(
                        f"{self.name}: {why} waiting for {pattern!r}; "
                        f"unconsumed output ends with:\n{tail}")
                self._cond.wait(left)

    def received_within(self, seconds):
        """Everything that arrives in the next `seconds` (to assert that a halted machine
        stays silent; positive waits use expect())."""
        with self._cond:
            start = len(self.log)
        time.sleep(seconds)  # an observation window, not synchronisation
        with self._cond:
            return self.log[start:]

    def drain(self, quiet=0.2, limit=5.0):
        """Collect output until the port has been quiet for `quiet` seconds, or `limit`
        seconds have passed (a guest that prints all the time is never quiet)."""
        deadline = time.monotonic() + limit
        with self._cond:
            while time.monotonic() < deadline:
                n = len(self.log)
                self._cond.wait(quiet)
                if len(self.log) == n:
                    break
            out, self.buf = self.buf, b""
        return out.decode("latin1")

    def close(self):
        """Hang up (shutdown wakes the reader thread, so QEMU really sees the client go)."""
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()
        self._reader.join(timeout=5)

    def forget(self):
        """Drop what has arrived so far, so the next expect() sees only new output."""
        with self._cond:
            self.buf = b""


def _connect(path, deadline):
    while True:
        try:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(str(path))
            return s
        except (FileNotFoundError, ConnectionRefusedError):
            s.close()
            if time.monotonic() > deadline:
                raise
            time.sleep(0.02)  # polling for QEMU to create the socket, not synchronisation


class Fiqmon:
    """A fiqmon build booted in QEMU by `make run`, both UARTs on unix sockets."""

    def __init__(self, workdir, make_vars=None, qemu_extra="", gdb=False, telnet=False):
        """gdb=True: leave the debug port's socket to GDB (attach_debug() later).
        telnet=True: the debug port speaks telnet (IAC BREAK sends a serial BREAK; a 0xff
        byte must be doubled).
        CONSOLE=shared among make_vars: one wire, so console and debug are one Port."""
        shared = (make_vars or {}).get("CONSOLE") == "shared"
        self.workdir = Path(workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)
        dbg = self.workdir / "debug.sock"
        con = self.workdir / "console.sock"
        for p in (dbg, con):
            if p.exists():
                p.unlink()
        self.debug_path = dbg
        args = ["make", "-s", "--no-print-directory", "-C", str(ROOT), "run",
                f"DEBUG_SERIAL=unix:{dbg},server=on,wait={'off' if gdb else 'on'}"
                + (",telnet=on" if telnet else ""),
                f"CONSOLE_SERIAL=unix:{con},server=on,wait=on"]
        if qemu_extra:
            args.append(f"QEMU_EXTRA={qemu_extra}")
        for k, v in (make_vars or {}).items():
            args.append(f"{k}={v}")
        self.stderr_path = self.workdir / "qemu.stderr"
        self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL,
                                     stdout=open(self.workdir / "qemu.stdout", "wb"),
                                     stderr=open(self.stderr_path, "wb"),
                                     start_new_session=True)
        deadline = time.monotonic() + 60
        socks = {}
        # QEMU creates and waits on the sockets one after another, in -serial order.
        wanted = ("console",) if gdb else ("debug",) if shared else ("debug", "console")
        while len(socks) < len(wanted):
            if self.proc.poll() is not None:
                raise RuntimeError(f"make run exited {self.proc.returncode}: "
                                   f"{self.stderr_path.read_text(errors='replace')[-2000:]}")
            for name, path in (("debug", dbg), ("console", con)):
                if name in wanted and name not in socks and path.exists():
                    socks[name] = _connect(path, deadline)
            if time.monotonic() > deadline:
                raise TimeoutError("QEMU did not open its serial sockets")
            time.sleep(0.02)  # polling for the sockets to appear
        self.debug = Port(socks["debug"], "debug port") if not gdb else None
        self.console = self.debug if shared else Port(socks["console"], "console port")

    def attach_debug(self):
        """Connect to the debug port (after GDB has let go of it)."""
        self.debug = Port(_connect(self.debug_path, time.monotonic() + 10), "debug port")
        return self.debug

    def close(self):
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        for p in {id(p): p for p in (self.debug, self.console)}.values():
            if p is None:
                continue
            try:
                p.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            p.sock.close()

    # --- the fiqmon shell ---------------------------------------------------------------
    def wait_banner(self, timeout=20):
        before, m = self.debug.expect(r"fiqmon (\S+) \(git [^)]*\) on (\S+): resident at "
                                      r"0x([0-9a-f]{8}), debug port (\S+), knock (-?\d)\r\n",
                                      timeout)
        return m

    def knock(self, data=KNOCK):
        self.debug.send(data)
        _, m = self.debug.expect(r"fiqmon: entered by (\S+) at pc=([0-9a-f]{8}|[0-9a-f]{16}) \((\w+)\)\r\n")
        self.debug.expect(re_prompt())
        return m

    def leave(self):
        """exit: back to waiting for a knock (no prompt follows). The line says what runs
        now: a kernel, fiqmon's idle loop (nothing was booted), or a payload held back by a
        knock in the boot countdown, which exit boots."""
        self.debug.send("exit\r")
        out, _ = self.debug.expect(r"fiqmon: left; (the kernel runs on|no kernel was started: "
                                   r"fiqmon idles|the payload runs)\r\n")
        return out

    def cmd(self, line, timeout=10):
        """Run one command; return its output (CR LF -> LF), without echo and prompt."""
        self.debug.send(line + "\r")
        self.debug.expect(re.escape(line) + r"\r\n", timeout)
        out, _ = self.debug.expect(re_prompt(), timeout)
        return out.replace("\r\n", "\n")


def re_prompt():
    return re.escape(PROMPT)


def tokens(text):
    """name=hex tokens, as regs/allregs/pc print them."""
    return {k: int(v, 16) for k, v in re.findall(r"(\w+)=([0-9a-f]{8})\b", text)}


def stable(regs):
    """Register tokens minus those that legitimately differ between two samples of a
    running loop (where the FIQ landed, and the flags the loop's own compares set)."""
    return {k: v for k, v in regs.items()
            if k not in ("pc", "cpsr", "lr_fiq", "spsr_fiq", "lr_mon", "spsr_mon")}


def fiq_counts(fm):
    """FIQs taken since reset: all of them (`stats`), the watchdog timer's and the debug
    port's (`irqs`)."""
    total = int(re.search(r"^fiqs=(\d+)", fm.cmd("stats"), re.M).group(1))
    irqs = fm.cmd("irqs")

    def line(n):
        return int(re.search(rf"^  line={n}\s+raw=\d en=\d fiq fiqs=(\d+)", irqs, re.M).group(1))
    return total, line(fm.platform.watchdog_line), line(fm.platform.debug_line)


# The watchdog's sampling timer asks for a FIQ every 100 ms, in every monitor state.
WINDOW = 3.0       # seconds observed per state
MAX_PER_S = 15     # one sample per 100 ms, with slack for the emulator's timing
MIN_PER_S = 5      # ... and the timer does run


def stay(seconds=WINDOW):
    return lambda: time.sleep(seconds)  # an observation window, not synchronisation


def assert_sampling(rates):
    """rates from watchdog_fiq_rates(): about ten a second, and no other FIQ storming."""
    timer, others = rates
    assert MIN_PER_S <= timer <= MAX_PER_S, f"{timer:.0f} watchdog timer FIQs a second"
    assert others <= MAX_PER_S, f"{others:.0f} FIQs a second (besides the debug port's)"


def assert_timer_not_left_asserted(fm):
    """The timer fires every 100 ms; serviced, it is low again at once. Two reads: a command
    may just land in the moment it fires, but not twice."""
    rx = rf"^  line={fm.platform.watchdog_line}\s+raw=(\d)"
    raws = [re.search(rx, fm.cmd("irqs"), re.M).group(1) for _ in range(2)]
    assert "0" in raws, "the watchdog's timer is left asserted"


def watchdog_fiq_rates(fm, observe):
    """FIQs a second while observe() runs, from the shell back to the shell: (the watchdog
    timer's, all but the debug port's). The debug port's own FIQs are left out: they count
    the bytes the test typed, which says nothing about a storm."""
    (total0, timer0, port0), start = fiq_counts(fm), time.monotonic()
    observe()
    (total1, timer1, port1), seconds = fiq_counts(fm), time.monotonic() - start
    return (timer1 - timer0) / seconds, ((total1 - port1) - (total0 - port0)) / seconds


def elf_entry(elf):
    """e_entry of a 32-bit or 64-bit ELF."""
    import struct
    data = Path(elf).read_bytes()
    return struct.unpack_from("<Q" if data[4] == 2 else "<I", data, 0x18)[0]


def gdb_packet(body):
    """body framed as a GDB remote packet, checksum included."""
    if isinstance(body, str):
        body = body.encode()
    return b"$" + body + b"#%02x" % (sum(body) & 0xff)


def expand_rle(body):
    """A packet body as GDB reads it: each `*` repeats the character before it (count
    character - 29) more times. Fails on a count the protocol forbids."""
    binary = isinstance(body, bytes)
    b = body if binary else body.encode("latin1")
    out, i = bytearray(), 0
    while i < len(b):
        if b[i] == ord("*"):
            assert out and i + 1 < len(b), f"bad run in {body!r}"
            k = b[i + 1]
            assert 32 <= k <= 126 and chr(k) not in "#$+-", f"bad count {k:#x} in {body!r}"
            out += bytes([out[-1]]) * (k - 29)
            i += 2
        else:
            out.append(b[i])
            i += 1
    return bytes(out) if binary else out.decode("latin1")


def elf_symbols(elf):
    """{name: (address, size)} from arm-none-eabi-nm."""
    out = subprocess.run(["arm-none-eabi-nm", "-S", "--defined-only", str(elf)],
                         check=True, capture_output=True, text=True).stdout
    syms = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4:
            syms[parts[3]] = (int(parts[0], 16), int(parts[1], 16))
        elif len(parts) == 3:
            syms[parts[2]] = (int(parts[0], 16), 0)
    return syms


def assert_last_report_survives_a_reset(fm, pc):
    """`last` shows the report from fiqmon's own RAM, also after a warm reset (last_kmsg)."""
    out = fm.cmd("last")
    assert out.startswith("fiqmon: last watchdog report, from this boot:\n"), out
    assert f"cpu0 pc={pc} " in out and "\nr0=" in out, out
    fm.debug.send("reboot\r")
    fm.debug.expect("fiqmon: rebooting")
    fm.wait_banner()
    fm.knock()
    after = fm.cmd("last")
    assert after == out.replace("from this boot", "from before 1 reset"), after
