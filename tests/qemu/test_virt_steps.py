# SPDX-License-Identifier: MIT
"""Single-stepping a bare-metal Normal-world guest on virt (HYP=1) through every branch kind
an ARM or Thumb step must follow, against the guest's own expected trace (issue 19)."""

import re
import subprocess

from harness import ROOT
from test_gdb import read_until
from test_virt_breakpoints import finish, gdb_async


STEPS_GUEST = ROOT / "build/guests/virt/steps.elf"


def steps_machine(boot):
    """virt with the Hyp shim running the steps guest, at its "ready"; and the guest's
    symbols (name: address)."""
    subprocess.run(["make", "-s", "-C", str(ROOT), str(STEPS_GUEST.relative_to(ROOT))],
                   check=True)
    fm = boot("virt", "steps", BOOT_DELAY_MS=0, HYP=1, KERNEL=str(STEPS_GUEST))
    fm.console.expect(r"guest steps: ready")
    nm = subprocess.run(["arm-none-eabi-nm", str(STEPS_GUEST)], capture_output=True,
                        text=True, check=True).stdout
    return fm, {f[2]: int(f[0], 16) for f in map(str.split, nm.splitlines()) if len(f) == 3}


def test_stepping_a_guest_through_every_branch_kind_follows_its_own_trace(boot):
    """A bare-metal Normal-world guest (tests/guests/virt/steps_tour.S): ARM and Thumb code
    through every branch kind, an IT block, tbb, and an SVC into its vector table and back.
    GDB (with the guest's ELF) breaks on its first instruction and steps it to the end:
    each pc must be the next entry of the guest's own expected_trace. Then the guest runs
    on and its result is the one the tour gives without a debugger."""
    fm, syms = steps_machine(boot)
    steps = 41
    commands = [f"file {STEPS_GUEST}", "set breakpoint always-inserted on",
                f"break *{syms['branch_tour']:#x}", "echo armed\\n", "continue", "p/x $pc"]
    commands += ["stepi", "p/x $pc"] * (steps - 1)
    commands += ["p *(unsigned *)&expected_steps", f"x/{steps}xw &expected_trace", "delete",
                 "detach"]
    proc = gdb_async(fm, *commands)
    got = read_until(proc, b"armed", 60)
    fm.console.send(b"g")
    out = got + finish(fm, proc)
    pcs = [int(v, 16) for v in re.findall(r"^(?:\(gdb\) )*\$\d+ = (0x[0-9a-f]+)$", out, re.M)]
    assert re.search(rf"^(?:\(gdb\) )*\$\d+ = {steps}$", out, re.M), out[-3000:]
    rows = [re.sub(r"^(\(gdb\) )+", "", line) for line in out.splitlines()]
    trace = [int(w, 16) & ~1 for row in rows if re.match(r"^0x[0-9a-f]+ <expected_trace", row)
             for w in row.split(":", 1)[1].split()]
    assert len(trace) == steps and trace[0] == syms["branch_tour"], out[-3000:]
    assert pcs == trace, "\n".join(f"{p:#x} {t:#x}{'' if p == t else '  <--'}"
                                   for p, t in zip(pcs, trace)) + out[-2000:]
    assert syms["v_svc"] in pcs   # the step into the SVC vector was reported there
    fm.console.expect(r"guest steps: tour done 0000100b", timeout=30)


def test_the_guests_own_bkpt_is_handed_back_as_its_prefetch_abort(boot):
    """A BKPT fiqmon did not plant (the guest's own) traps to the Hyp shim like fiqmon's, and
    fiqmon reflects it: the guest's Prefetch Abort handler runs in Abort mode with lr = the
    BKPT + 4, SPSR the guest's SVC state and IFSR a debug event, as with no shim; the shim
    counted it as a debug event, and nothing stopped."""
    fm, syms = steps_machine(boot)
    at = syms["own_bkpt_at"]

    def debug_events():
        fm.knock()
        out = fm.cmd("hyp")
        fm.leave()
        m = re.search(r"^debug: events=(\d+)", out, re.M)
        assert m, out
        return int(m.group(1))

    before = debug_events()
    for _ in range(3):
        fm.console.send(b"b")
        _, m = fm.console.expect(rb"guest steps: own bkpt ([0-9a-f]{8}) ([0-9a-f]{8}) "
                                 rb"([0-9a-f]{8}) ([0-9a-f]{8})\r?\n", timeout=10)
        lr, spsr, ifsr, cpsr = (int(v, 16) for v in m.groups())
        assert lr == at + 4, (hex(lr), hex(at))
        assert spsr & 0x3f == 0x13 and cpsr & 0x1f == 0x17, (hex(spsr), hex(cpsr))
        assert ifsr & 0x40f == 0x2, hex(ifsr)        # FS = 0b00010: a debug event
    assert debug_events() == before + 3
    assert b"fiqmon:" not in fm.debug.received_within(0.2)   # no stop line
