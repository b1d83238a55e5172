# SPDX-License-Identifier: MIT
import shutil
import subprocess

import pytest

from harness import ROOT, Fiqmon

REQUIRED_TOOLS = ["qemu-system-arm", "arm-none-eabi-gcc", "arm-none-eabi-nm", "make"]


def pytest_sessionstart(session):
    missing = [t for t in REQUIRED_TOOLS if shutil.which(t) is None]
    if missing:
        raise pytest.UsageError(f"missing tools {missing}: run `make deps` (as root) first")


_built = {}


def build(variant="default", **make_vars):
    """Build fiqmon once per variant into its own build directory."""
    if variant not in _built:
        build_dir = f"build/test-{variant}" if variant != "default" else "build/versatilepb"
        args = ["make", "-s", "--no-print-directory", "-C", str(ROOT), "all",
                f"BUILD={build_dir}"] + [f"{k}={v}" for k, v in make_vars.items()]
        subprocess.run(args, check=True)
        _built[variant] = dict(make_vars, BUILD=build_dir)
    return _built[variant]


@pytest.fixture
def boot(tmp_path):
    """boot(variant, **make_vars) -> a running Fiqmon whose banner has been seen."""
    running = []

    def _boot(variant="default", qemu_extra="", **make_vars):
        fm = Fiqmon(tmp_path / f"q{len(running)}", build(variant, **make_vars), qemu_extra)
        running.append(fm)
        fm.banner = fm.wait_banner()
        return fm

    yield _boot
    for fm in running:
        try:
            fm.debug.drain(0.05)
        except EOFError:
            pass
        fm.close()
        # the idle loop reports any register the FIQ path failed to restore
        assert b"fiqmon: fatal" not in fm.debug.log, fm.debug.log[-400:]


@pytest.fixture
def fiqmon(boot):
    return boot()


@pytest.fixture
def entered(fiqmon):
    fiqmon.knock()
    return fiqmon
