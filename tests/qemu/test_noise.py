# SPDX-License-Identifier: MIT
"""Line noise never enters the debugger and never hurts the machine."""

import random
import re

from harness import KNOCK

PROMPT = b"Type $3#33 to enter the debugger>"


def noise(size, seed):
    rng = random.Random(seed)
    data = bytearray(rng.getrandbits(8) for _ in range(size))
    # a real knock inside random data would be a (vanishingly unlikely) different test
    while KNOCK in data:
        i = data.index(KNOCK)
        data[i] ^= 0xff
    return bytes(data)


def lines_of(data):
    return len(re.split(rb"\r\n|\r|\n", data))


def test_64k_of_random_noise_never_enters_and_a_knock_still_works(fiqmon):
    data = noise(64 * 1024, seed=0xF1C)
    fiqmon.debug.expect(re.escape(PROMPT))
    fiqmon.debug.send(data)
    # everything sent before the knock is processed before it
    fiqmon.knock()
    log = fiqmon.debug.log
    assert log.count(b"fiqmon: entered") == 1
    assert b"fatal" not in log
    prompts = log.split(PROMPT, 1)[1].split(b"fiqmon: entered")[0].count(PROMPT)
    assert 0 < prompts <= lines_of(data)
    stats = dict(re.findall(r"(\w+)=(\d+)", fiqmon.cmd("stats")))
    assert int(stats["noise"]) == len(data)
    assert int(stats["ring_drops"]) == 0
    # the machine kept running: the idle loop is intact and still where the FIQ found it
    regs = fiqmon.cmd("regs")
    assert "r1=0a100000" in regs and "r12=0ac00000" in regs
    fiqmon.leave()
    fiqmon.debug.send(noise(4096, seed=2))
    fiqmon.knock()


def test_noise_inside_the_shell_is_harmless(entered):
    """Random bytes typed at the prompt: errors at worst, never a crash or a hang."""
    data = noise(8 * 1024, seed=7).replace(b"\x03", b"")
    # keep 'reboot' and 'exit' out of reach: they would be legitimate commands
    data = bytes(b for b in data if b not in b"\r\n") 
    chunks = [data[i:i + 100] for i in range(0, len(data), 100)]
    for c in chunks:
        entered.debug.send(c + b"\r")
        out, _ = entered.debug.expect(r"fiqmon> ", timeout=20)
    regs = entered.cmd("regs")
    assert "r1=0a100000" in regs
