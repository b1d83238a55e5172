# SPDX-License-Identifier: MIT
"""Every core on virt (SMP=N) with bare-metal Normal-world guests (tests/guests/virt/):
smpintegrity (every CPU's registers survive a thousand roundups bit for bit) and psci
(fiqmon's PSCI answers, error returns included, checked against the PSCI specification)."""

import re
import subprocess
import time

import pytest

from harness import ROOT

SMP_INTEGRITY = ROOT / "build/guests/virt/smpintegrity.elf"
ROUNDS = 100  # smpintegrity.c's ROUNDS
ROUNDUPS = 1000
ROUND_LINE = re.compile(rb"guest smpintegrity: cpu (\d) round (\d+) checksum ([0-9a-f]{8}) "
                        rb"errors (\d+)\r\n")


@pytest.fixture(scope="module", autouse=True)
def guests():
    subprocess.run(["make", "-s", "-C", str(ROOT), "virt-guests"], check=True)


def start_smpintegrity(boot, smp):
    fm = boot("virt", f"smp{smp}", BOOT_DELAY_MS=0, SMP=smp, KERNEL=str(SMP_INTEGRITY))
    _, m = fm.console.expect(rb"guest smpintegrity: cpus (\d+)\r\n", timeout=30)
    assert int(m.group(1)) == smp, "the guest found another number of CPUs than QEMU has"
    return fm


def smpintegrity_results(fm, smp):
    """{(cpu, round): checksum} of the whole run, once the guest says it is done."""
    fm.console.expect(rb"guest smpintegrity: done\r\n", timeout=120)
    got = {}
    for cpu, rnd, checksum, errors in ROUND_LINE.findall(fm.console.log):
        assert int(errors) == 0, f"cpu {cpu} round {rnd}: the loop saw a corrupted count"
        got[int(cpu), int(rnd)] = checksum.decode()
    assert sorted(got) == [(c, r) for c in range(smp) for r in range(1, ROUNDS + 1)]
    return got


def roundup_stats(fm, smp):
    """(roundups, [answers of cpu1, cpu2, ...]) from stats."""
    out = fm.cmd("stats")
    roundups = int(re.search(r"roundups=(\d+)", out).group(1))
    answers = [int(re.search(rf"^  cpu{i} fiqs=(\d+)", out, re.M).group(1))
               for i in range(1, smp)]
    return roundups, answers


@pytest.mark.parametrize("smp", [4])  # (2 CPUs: test_virt_smp.py; make test time)
def test_every_cpus_checksums_survive_a_thousand_roundups(boot, smp):
    """Each CPU keeps live values in r0-r12, lr and the flags and publishes a checksum per
    round of fixed work. Stopped and released over a thousand times while it runs (halt
    and continue in the asynchronous shell; now and then a sample, and a session on
    CPU 1's registers), every CPU must print exactly the checksums of an undisturbed run."""
    fm = start_smpintegrity(boot, smp)
    fm.knock()
    roundups0, answers0 = roundup_stats(fm, smp)
    started = time.monotonic()
    cycles = 0
    while True:
        assert "kernel halted" in fm.cmd("halt")
        if cycles == 0:  # a roundup stops them all, in the guest's code
            # its pcs are annotated if a kernel is found: the first search reads all of
            # RAM, and QEMU faults in 1 GiB of untouched host memory for it (4 s idle; a
            # loaded 2-core host took over 10 s); later ones take 0.1 s
            listing = fm.cmd("cpu", timeout=60)
            for i in range(smp):
                assert re.search(rf"cpu{i} stopped pc=401[0-9a-f]{{5}} \(svc\)", listing), listing
        if cycles % 50 == 25:
            assert "cpu1 selected" in fm.cmd("cpu 1")
            assert "pc=401" in fm.cmd("regs")
        assert "kernel continues" in fm.cmd("continue")
        cycles += 1
        if cycles % 50 == 10:
            assert "running" in fm.cmd("cpu")  # a sample: one FIQ each, no stop
        if cycles % 100 == 0:
            roundups, answers = roundup_stats(fm, smp)
            if roundups - roundups0 >= ROUNDUPS:
                break
        assert b"smpintegrity: done" not in fm.console.log, \
            f"the guest finished after only {cycles} roundups: make its rounds longer"
    seconds = time.monotonic() - started
    fm.leave()
    # every other CPU answered every roundup (and the samples), none was left running
    late = re.findall(rb"fiqmon: cpu \d did not answer the roundup[^\r]*", fm.debug.log)
    assert not late, f"{len(late)} late answers, the first: {late[0]}"
    for i, (before, after) in enumerate(zip(answers0, answers), 1):
        assert after - before >= roundups - roundups0, f"cpu{i} answered {after - before}"
    rounds_during = {int(r) for c, r, _, _ in ROUND_LINE.findall(fm.console.log) if c == b"0"}
    got = smpintegrity_results(fm, smp)
    fm.close()
    print(f"smp={smp}: {roundups - roundups0} roundups in {seconds:.1f} s "
          f"({(roundups - roundups0) / seconds:.0f}/s); cpu0 finished "
          f"{max(rounds_during, default=0)} of {ROUNDS} rounds meanwhile")

    clean = start_smpintegrity(boot, smp)
    reference = smpintegrity_results(clean, smp)
    clean.close()
    assert len(set(reference.values())) == len(reference), "every round's checksum differs"
    wrong = {k: (got[k], reference[k]) for k in reference if got[k] != reference[k]}
    assert not wrong, f"(cpu, round): (after roundups, undisturbed) {wrong}"


# --- PSCI conformance ------------------------------------------------------------------------
# PSCI 1.0 (ARM DEN 0022) return codes and fiqmon's documented answers (docs/every-core.md):
# the expected values are written here, never taken from the guest.
SUCCESS, NOT_SUPPORTED, INVALID_PARAMETERS, DENIED = 0, -1, -2, -3
ALREADY_ON, ON_PENDING, INVALID_ADDRESS = -4, -5, -9
ON, OFF, PENDING = 0, 1, 2  # AFFINITY_INFO
IMPLEMENTED = ["psci_version", "cpu_suspend", "cpu_off", "cpu_on", "affinity_info",
               "migrate_info_type", "system_off", "system_reset", "psci_features"]
UNKNOWN_IDS = ["0x84000005 migrate", "0x8400000b", "0x8400001f", "0x84000020",
               "0xc4000003 cpu_on smc64", "0x80000000 smccc_version", "0x83000000 oem",
               "0x00000000", "0xffffffff"]
PSCI_EXPECTED = {
    "psci_version": 0x00010000,
    **{f"features {f}": SUCCESS for f in IMPLEMENTED},
    **{f"features {f}": NOT_SUPPORTED for f in
       ["migrate", "migrate_info_up_cpu", "0x8400001f", "smccc_version", "cpu_on smc64"]},
    "migrate_info_type": 2,  # no Trusted OS: nothing to migrate
    **{f"unknown {f}": NOT_SUPPORTED for f in UNKNOWN_IDS},
    **{f"unknown {f} r1-r3 kept": 1 for f in UNKNOWN_IDS},
    "affinity_info cpu0": ON,
    "affinity_info cpu1": OFF,
    "affinity_info cpu4": INVALID_PARAMETERS,       # SMP=4: no such CPU
    "affinity_info 0x100": INVALID_PARAMETERS,      # affinity level 1: not a CPU here
    "affinity_info cpu0 level 1": INVALID_PARAMETERS,  # level 0 only
    "cpu_on cpu0 self": ALREADY_ON,
    "cpu_on cpu4": INVALID_PARAMETERS,
    "cpu_on cpu8": INVALID_PARAMETERS,
    "cpu_on 0x100": INVALID_PARAMETERS,
    "cpu_on cpu1 entry 0": INVALID_ADDRESS,
    "cpu_on cpu1 entry below ram": INVALID_ADDRESS,
    "cpu_on cpu1 entry past ram": INVALID_ADDRESS,
    "affinity_info cpu1 after refusals": OFF,
    "cpu_on cpu1": SUCCESS,
    "cpu_on cpu1 again at once": ON_PENDING,
    "affinity_info cpu1 at once": PENDING,
    "cpu1 started": 1,
    "cpu1 cpu_on self": ALREADY_ON,
    "cpu1 cpu_on cpu0": ALREADY_ON,
    "affinity_info cpu1 after cpu_off": OFF,
    "cpu_on cpu1 after cpu_off": SUCCESS,
    "cpu1 started again": 1,
    "affinity_info cpu1 on": ON,
    "cpu_on cpu1 online": ALREADY_ON,
    "cpu_on cpu2": SUCCESS,
    "cpu2 started": 1,
    "cpu2 cpu_on self": ALREADY_ON,
    "cpu_on cpu3 thumb entry": SUCCESS,             # entry bit 0: T32
    "cpu3 started": 1,
    "cpu3 ran thumb code": 1,
    "cpu_on cpu3 online": ALREADY_ON,
    "affinity_info cpu3": ON,
    "cpu_suspend powerdown": INVALID_PARAMETERS,    # standby only
    "cpu_suspend level 1": INVALID_PARAMETERS,
    "cpu_suspend standby": SUCCESS,
    "cpu_off cpu0": DENIED,                         # the monitor's own CPU stays on
    "affinity_info cpu0 after cpu_off": ON,
}
PSCI_LINE = re.compile(r"guest psci: (.+?) = (-?\d+)\r\n")


def test_psci_answers_every_function_and_error_as_the_spec_says(boot):
    """Under -icount the CPUs run in turn: the CPU_ON that follows a CPU_ON at once finds
    the target still pending in every run (ON_PENDING), the same way each time."""
    fm = boot("virt", "smp4", BOOT_DELAY_MS=0, SMP=4, KERNEL=str(ROOT / "build/guests/virt/psci.elf"),
              qemu_extra="-icount shift=0,sleep=off")
    out, _ = fm.console.expect(r"guest psci: system_off next\r\n", timeout=60)
    got = {}
    for name, value in PSCI_LINE.findall(out):
        assert name not in got, f"{name} printed twice"
        got[name] = int(value)
    wrong = {k: (got.get(k), want) for k, want in PSCI_EXPECTED.items() if got.get(k) != want}
    assert not wrong, f"name: (got, expected) {wrong}"
    assert sorted(got) == sorted(PSCI_EXPECTED), set(got) ^ set(PSCI_EXPECTED)
    # SYSTEM_OFF does not return: QEMU powers off
    try:
        assert fm.proc.wait(timeout=30) == 0
    finally:
        fm.close()
    assert "system_off returned" not in fm.console.log.decode("latin1")
