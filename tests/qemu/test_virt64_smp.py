# SPDX-License-Identifier: MIT
"""Every core on virt64: fiqmon is the PSCI firmware (SMC64 CPU_ON) of Debian's arm64
kernel on 4 CPUs, and stops, shows and unwinds each of them from EL3."""

import re
import subprocess

import pytest

from harness import ROOT

PANIC = "Kernel panic - not syncing: VFS: Unable to mount root fs"
KERNEL_VA = 0xFFFF000000000000
CPUS = 4


@pytest.fixture(scope="module", autouse=True)
def debian_kernel():
    subprocess.run(["make", "-s", "-C", str(ROOT), "linux", "ARCH=arm64"], check=True)


@pytest.fixture(scope="module")
def kernel(module_boot):
    fm = module_boot("virt64", f"smp{CPUS}", SMP=CPUS, BOOT_DELAY_MS=0, KERNEL="debian")
    fm.console.expect(r"---\[ end " + re.escape(PANIC) + r"[^\r\n]*\]---\r?\n", timeout=120)
    fm.knock()
    return fm


def cpu_lines(out):
    return {int(n): (state, int(pc, 16), mode) for n, state, pc, mode in
            re.findall(r"^[* ] cpu(\d) (\w+) pc=([0-9a-f]{16}) \((\w+)\)", out, re.M)}


def test_psci_brings_up_every_cpu_at_el2(kernel):
    console = kernel.console.log.decode("latin1")
    assert "psci: PSCIv1.0 detected in firmware." in console
    assert f"smp: Brought up 1 node, {CPUS} CPUs" in console
    assert "CPU: All CPU(s) started at EL2" in console
    for n in range(1, CPUS):
        assert f"CPU{n}: Booted secondary processor 0x000000000{n}" in console


def test_cpu_lists_every_cpu_in_the_kernels_text(kernel):
    out = kernel.cmd("cpu")
    cpus = cpu_lines(out)
    assert sorted(cpus) == list(range(CPUS)), out
    assert all(pc >= KERNEL_VA and mode == "el1h" for _, pc, mode in cpus.values()), out
    assert all(cpus[n][0] == "running" for n in range(1, CPUS)), out
    # the others sit where panic's smp_send_stop left them
    assert out.count("pc: local_cpu_stop+") == CPUS - 1, out


def test_halt_stops_every_cpu_and_each_unwinds_to_its_start(kernel):
    assert "stop reason: knock" in kernel.cmd("halt")
    cpus = cpu_lines(kernel.cmd("cpu"))
    assert all(cpus[n][0] == "stopped" for n in range(CPUS)), cpus
    out = kernel.cmd("bt -a", timeout=60)
    per_cpu = re.split(r"^cpu(\d):\n", out, flags=re.M)[1:]
    chains = {int(per_cpu[i]): per_cpu[i + 1] for i in range(0, len(per_cpu), 2)}
    assert sorted(chains) == list(range(CPUS)), out
    # one CPU ran init into panic (any of them); the others stopped in panic's
    # smp_send_stop, each on the idle stack it started with
    panicked = [n for n in chains if "panic+" in chains[n]]
    assert len(panicked) == 1 and "ret_from_fork+" in chains[panicked[0]], out
    for n in set(chains) - set(panicked):
        assert chains[n].endswith("bt: end of the chain\n"), chains[n]
        start = "__primary_switched+" if n == 0 else "__secondary_switched+"
        assert start in chains[n] and "local_cpu_stop+" in chains[n], chains[n]
    # one CPU's registers: its own, not CPU 0's
    other = max(set(range(1, CPUS)) - set(panicked))
    assert kernel.cmd(f"cpu {other}").startswith(f"cpu{other} selected: pc=")
    regs = kernel.cmd("regs")
    assert re.search(r"^pc: local_cpu_stop\+", regs, re.M), regs
    assert kernel.cmd("cpu 9") == "error: no cpu 9\n"
    assert kernel.cmd("continue") == "fiqmon: kernel continues\n"
    cpus = cpu_lines(kernel.cmd("cpu"))
    assert all(cpus[n][0] == "running" for n in range(1, CPUS)), cpus
