# SPDX-License-Identifier: MIT
import os
import shutil
import subprocess

import pytest

from harness import ROOT, Fiqmon
from platforms import PLATFORMS

RUN_VARS = ("KERNEL", "BOOT", "PAYLOAD_KIND", "CMDLINE", "DTB", "QEMU_LOAD", "INITRD",
            "KERNEL_ARGS", "QEMU_CPU")

REQUIRED_TOOLS = ["qemu-system-arm", "qemu-system-aarch64", "arm-none-eabi-gcc", "arm-none-eabi-nm",
                  "aarch64-linux-gnu-gcc", "make"]


def pytest_sessionstart(session):
    missing = [t for t in REQUIRED_TOOLS if shutil.which(t) is None]
    if missing:
        raise pytest.UsageError(f"missing tools {missing}: run `make deps` (as root) first")


_built = {}

# `make test` runs the suite on every core (pytest-xdist, one module per worker at a time).
# Each worker builds fiqmon's variants into its own tree, so no two machines ever share an
# image a `make run` may rewrite; what every worker only reads (the kernels, initramfs and
# test guests) `make qemu-test` builds before the workers start.
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
BUILD_ROOT = "build" if WORKER == "gw0" else f"build/{WORKER}"


def build_dir(platform, variant="default"):
    return f"{BUILD_ROOT}/{platform}" if variant == "default" else \
        f"{BUILD_ROOT}/test-{platform}-{variant}"


def build(platform, variant="default", **make_vars):
    """Build fiqmon once per platform and variant, each in its own build directory."""
    key = (platform, variant)
    if key not in _built:
        make_vars = dict(make_vars, PLATFORM=platform, BUILD=build_dir(platform, variant))
        args = ["make", "-s", "--no-print-directory", f"-j{os.cpu_count() or 1}", "-C",
                str(ROOT), "all"] + [f"{k}={v}" for k, v in make_vars.items()]
        subprocess.run(args, check=True)
        _built[key] = make_vars
    elif any(_built[key].get(k) != v for k, v in make_vars.items()):
        # one variant name, one configuration: a second one would run the first's build
        raise RuntimeError(f"variant {key} was built with {_built[key]}, not {make_vars}")
    return _built[key]


@pytest.fixture(params=list(PLATFORMS))
def platform(request):
    """The shared tests run on every platform."""
    return PLATFORMS[request.param]


def _booter(workdir):
    """boot(platform, variant, **make_vars) -> a running Fiqmon whose banner was seen;
    and finish(), which stops every machine it booted."""
    running = []

    def _boot(platform, variant="default", qemu_extra="", **make_vars):
        if isinstance(platform, str):
            platform = PLATFORMS[platform]
        gdb = make_vars.pop("gdb", False)
        telnet = make_vars.pop("telnet", False)
        # these choose what `make run` starts, not how fiqmon is built
        run_vars = {k: make_vars.pop(k) for k in RUN_VARS if k in make_vars}
        make_vars = dict(build(platform.name, variant, **make_vars), **run_vars)
        fm = Fiqmon(workdir / f"q{len(running)}", make_vars, qemu_extra, gdb=gdb, telnet=telnet)
        fm.platform = platform
        fm.elf = ROOT / make_vars["BUILD"] / "fiqmon.elf"
        running.append(fm)
        if not gdb:
            fm.banner = fm.wait_banner()
        return fm

    def finish():
        for fm in running:
            if fm.debug is None:
                fm.close()
                continue
            try:
                fm.debug.drain(0.05)
            except EOFError:
                pass
            fm.close()
            # the idle loop reports any register the FIQ path failed to restore
            assert b"fiqmon: fatal" not in fm.debug.log, fm.debug.log[-400:]

    _boot.running = running
    return _boot, finish


@pytest.fixture
def boot(tmp_path):
    """boot(platform, variant, **make_vars) -> a running Fiqmon whose banner was seen."""
    _boot, finish = _booter(tmp_path)
    yield _boot
    finish()


@pytest.fixture(scope="module")
def module_boot(tmp_path_factory):
    """boot, for machines a whole module shares (one kernel boot for many checks)."""
    _boot, finish = _booter(tmp_path_factory.mktemp("module"))
    yield _boot
    finish()


@pytest.fixture
def fiqmon(boot, platform):
    return boot(platform)


@pytest.fixture
def entered(fiqmon):
    fiqmon.knock()
    return fiqmon
