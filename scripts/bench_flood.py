# SPDX-License-Identifier: MIT
"""Kernel throughput under a full-rate noise flood, measured (versatilepb and virt).

The `flood` guest (tests/guests/flood.c; tests/guests/virt/flood.c on virt) runs under fiqmon with QEMU
`-icount shift=0,sleep=off`: one instruction is one nanosecond of virtual time, and the
guest's clock window (SYS_24MHZ; the generic timer on virt) is a fixed number of
instructions. It counts its loop iterations
in that window while writing, every 1/11520 s of virtual time, a request on its console.
In flood runs it then waits in WFI, which costs no virtual time, until this script's
answer (one noise byte on the debug UART) interrupts it: so the flood arrives at
115200 8N1's full rate in the guest's own time, one interrupt per byte, whatever the
host's speed. Three modes, one QEMU run: silent (requests unanswered, no wait), armed
(fiqmon's FIQ takes each byte) and released (after `release`, the guest's own IRQ driver
takes them; versatilepb only: virt's debug UART is Secure, never the kernel's).
"""

import re
import socket
import statistics
import subprocess
import threading
import time

NOISE = b"noise!%&"               # never a knock, a GDB packet or a line end
REQUEST = 0x01
QEMU_COMMON = ["-nographic", "-nic", "none", "-monitor", "none", "-audiodev", "none,id=snd0",
               "-icount", "shift=0,sleep=off"]
PLATFORMS = {
    # machine, how the combined image (fiqmon + guest) is loaded, serial ports in -serial
    # order, and whether `release` exists (the side-by-side peer)
    "versatilepb": dict(machine=["-M", "versatilepb", "-cpu", "arm926", "-m", "128M",
                                 "-global", "pl041.audiodev=snd0"],
                        load=lambda image: ["-device", f"loader,file={image},addr=0x10000,"
                                            "force-raw=on", "-device",
                                            "loader,addr=0x10000,cpu-num=0"],
                        serials=("debug", "console"), release=True),
    "virt": dict(machine=["-M", "virt,secure=on", "-cpu", "cortex-a15", "-m", "1G",
                          "-smp", "1"],
                 load=lambda image: ["-bios", str(image)],
                 serials=("console", "debug"), release=False),
}
RESULT = re.compile(rb"guest flood: iterations (\d+) ticks (\d+) requests (\d+) bytes (\d+) "
                    rb"irqs (\d+) x [0-9a-f]{8}(?: hz (\d+))?\r\n")
SYS_24MHZ = 24_000_000            # versatilepb's guest clock; virt's guest says its own
ANSWER_DELAY = 0.0002             # s of wall time before answering a request
RETRY_AFTER = 0.25                # s without a new request: send another byte
# Between the two `stats` that bracket the armed runs, fiqmon also takes at most this many
# FIQs for the shell session itself (exit, the prompt-printing byte, knock, stats).
SESSION_EXIT, SESSION_KNOCK = b"exit\r", b"$3#33"
SESSION_BYTES = len(SESSION_EXIT) + 1 + len(SESSION_KNOCK) + len(b"stats\r")


class Port:
    """A serial port on a unix socket; on_byte sees every received byte (the reader
    thread answers requests without a round trip through the measuring code)."""

    def __init__(self, path, on_byte=None):
        # QEMU creates the socket file when it binds and accepts after it listens: a
        # connect in between is refused (the harness retries the same way)
        deadline = time.monotonic() + 10
        while True:
            self.sock = socket.socket(socket.AF_UNIX)
            try:
                self.sock.connect(str(path))
                break
            except ConnectionRefusedError:
                self.sock.close()
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.01)  # (a retry interval, not a synchronisation)
        self.buf = b""
        self.cond = threading.Condition()
        self.on_byte = on_byte
        self.closed = False
        threading.Thread(target=self._reader, daemon=True).start()

    def _reader(self):
        while True:
            try:
                data = self.sock.recv(65536)
            except OSError:
                data = b""
            if self.on_byte:
                for b in data:
                    self.on_byte(b)
                data_kept = data.replace(bytes([REQUEST]), b"")
            else:
                data_kept = data
            with self.cond:
                self.buf += data_kept
                self.closed = not data
                if data_kept or not data:     # requests alone wake nobody
                    self.cond.notify_all()
            if not data:
                return

    def send(self, data):
        self.sock.sendall(data)

    def expect(self, pattern, timeout=60):
        rx = pattern if isinstance(pattern, re.Pattern) else re.compile(pattern, re.S)
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                m = rx.search(self.buf)
                if m:
                    self.buf = self.buf[m.end():]
                    return m
                left = deadline - time.monotonic()
                if left <= 0 or self.closed:
                    raise TimeoutError(f"no {pattern!r}; output ends {self.buf[-300:]!r}")
                self.cond.wait(left)

    def close(self):
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()


def wait_socket(path, proc, timeout=30):
    deadline = time.monotonic() + timeout
    while not path.exists():
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"QEMU did not create {path}")
        time.sleep(0.02)   # polling for QEMU to create the socket, bounded


def stats(debug):
    """FIQs taken so far, from fiqmon's `stats`."""
    debug.send(b"stats\r")
    m = debug.expect(rb"fiqs=(\d+) ")
    debug.expect(rb"fiqmon> ")
    return int(m.group(1))


def flood(image, work, runs, platform="versatilepb"):
    """image: fiqmon (BOOT_DELAY_MS=0) + the flood guest. Returns the figures."""
    plat = PLATFORMS[platform]
    work.mkdir(parents=True, exist_ok=True)
    paths = {name: work / f"{name}.sock" for name in plat["serials"]}
    dbg_path, con_path = paths["debug"], paths["console"]
    for p in paths.values():
        p.unlink(missing_ok=True)
    args = ["qemu-system-arm", *plat["machine"], *QEMU_COMMON]
    for name in plat["serials"]:
        args += ["-serial", f"unix:{paths[name]},server=on,wait=on"]
    args += plat["load"](image)
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    state = {"answer": False, "sent": 0}
    debug = console = None
    try:
        # QEMU waits for a client on each port in -serial order: connect in that order;
        # the console's reader answers requests, so it needs answer() first
        if plat["serials"][0] == "debug":
            wait_socket(dbg_path, proc)
            debug = Port(dbg_path)
        wait_socket(con_path, proc)

        def answer():
            debug.send(NOISE[state["sent"] % len(NOISE):][:1])
            state["sent"] += 1

        def on_console_byte(b):
            if b == REQUEST:
                state["requests"] += 1
                if state["answer"]:
                    # a moment for the guest to reach its WFI (less work for the retry
                    # below; never needed for correctness)
                    time.sleep(ANSWER_DELAY)
                    answer()
        state["requests"] = 0
        console = Port(con_path, on_console_byte)
        if debug is None:
            wait_socket(dbg_path, proc)
            debug = Port(dbg_path)
        console.expect(rb"guest flood: ready\r\n")

        def measure_runs(command):
            out = []
            for _ in range(runs):
                state["answer"] = command == b"f"
                sent0 = state["sent"]
                console.send(command)
                m, deadline = None, time.monotonic() + 120
                while m is None:
                    seen = state["requests"]
                    try:
                        m = console.expect(RESULT, timeout=RETRY_AFTER)
                    except TimeoutError:
                        if time.monotonic() > deadline or not state["answer"]:
                            raise
                        # no new request: the answer's interrupt came before the guest's
                        # WFI, so it sleeps on; one more byte wakes it. Every byte sent
                        # is taken inside the run and counted, so this changes nothing
                        # but the pacing of that one period
                        if state["requests"] == seen:
                            answer()
                state["answer"] = False
                r = {k: int(v) for k, v in zip(
                    ("iterations", "ticks", "requests", "bytes", "irqs"), m.groups()[:5])}
                r["tick_ns"] = 1e9 / int(m.group(6) or SYS_24MHZ)
                r["sent"] = state["sent"] - sent0
                out.append(r)
            return out

        silent = measure_runs(b"s")
        sent0 = state["sent"]
        # fiqmon's FIQ count around the armed runs: FIQs per byte checks that every byte
        # had its own FIQ (the worst case the figure is meant to be)
        debug.send(b"$3#33")
        debug.expect(rb"fiqmon> ")
        before = stats(debug)
        debug.send(SESSION_EXIT)
        debug.expect(rb"fiqmon: left")
        # armed: the first noise byte of a line prints the knock prompt; send it first
        debug.send(b"x")
        debug.expect(rb"Type \$3#33 to enter the debugger>")
        armed = measure_runs(b"f")
        debug.send(SESSION_KNOCK)
        debug.expect(rb"fiqmon> ")
        after = stats(debug)
        armed_fiqs, armed_bytes = after - before, state["sent"] - sent0
        released = None
        if plat["release"]:
            debug.send(b"release\r")
            debug.expect(rb"released to the kernel")
            console.send(b"i")
            console.expect(rb"guest flood: uart0 is mine\r\n")
            released = measure_runs(b"f")
    finally:
        proc.terminate()
        proc.wait()
        for port in (debug, console):
            if port:
                port.close()
    return summarise(silent, armed, released, armed_fiqs, armed_bytes)


def summarise(silent, armed, released, armed_fiqs, armed_bytes):
    """Iterations per ns of the silent runs is the loop's full speed; a flooded run loses
    (its ns - its iterations x ns per iteration) instructions (1 insn = 1 ns)."""
    def rate(r):
        return r["iterations"] / (r["ticks"] * r["tick_ns"])
    base = statistics.median(rate(r) for r in silent)

    def mode(rs, counted):
        per_byte, ratio = [], []
        for r in rs:
            nbytes = r["bytes"] if counted else r["sent"]
            if nbytes == 0:
                raise RuntimeError(f"no flood bytes arrived in the window: {r}")
            ratio.append(rate(r) / base)
            lost = r["ticks"] * r["tick_ns"] - r["iterations"] / base
            per_byte.append(lost / nbytes)
        return {"throughput": {"min": min(ratio), "median": statistics.median(ratio),
                               "max": max(ratio)},
                "per_byte": {"min": min(per_byte), "median": statistics.median(per_byte),
                             "max": max(per_byte)},
                "runs": rs}

    out = {"window_ns": statistics.median(r["ticks"] * r["tick_ns"] for r in silent),
            "insns_per_iteration": 1 / base, "silent": silent,
            "silent_spread": (max(rate(r) for r in silent) - min(rate(r) for r in silent)) / base,
            "armed": dict(mode(armed, False), interrupts_per_byte=(
                max(0, armed_fiqs - SESSION_BYTES) / armed_bytes, armed_fiqs / armed_bytes))}
    if released is not None:
        out["released"] = dict(mode(released, True), interrupts_per_byte=(sum(
            r["irqs"] for r in released) / sum(r["bytes"] for r in released),) * 2)
    return out
