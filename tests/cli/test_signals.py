"""A signal that comes while the prompt is being drawn stops the coach.

Readline's startup hook runs while the prompt is drawn, before readline
waits for a key; a script's hook sends SIGTERM to its own process there.
With a plain handler the signal is lost until the next Enter (the control
case shows this setup reproduces it); under ``signals.stopping``, as in
``yatzy play``, the program stops at once.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import os, signal, sys, readline
sys.path.insert(0, {root!r})
from yatzy.cli.coach.prompt import read_line
from yatzy.cli.coach.signals import stopping

class Stopped(Exception):
    pass

def stop(signum, frame):
    raise Stopped(signum)

readline.set_startup_hook(lambda: os.kill(os.getpid(), signal.SIGTERM))
try:
    if sys.argv[1] == "plain":
        signal.signal(signal.SIGTERM, stop)
        read_line("> ")
    else:
        with stopping(stop):
            read_line("> ")
except Stopped as e:
    print("stopped by", e.args[0])
"""


def run(tmp_path, how, timeout):
    script = tmp_path / "prompt.py"
    script.write_text(SCRIPT.format(root=str(ROOT)))
    child = pexpect.spawn(sys.executable, [str(script), how], encoding="utf-8",
                          timeout=timeout)
    try:
        return child.expect([r"stopped by (\d+)", pexpect.TIMEOUT, pexpect.EOF]), child
    finally:
        child.terminate(force=True)


def test_a_plain_handler_loses_a_signal_sent_as_the_prompt_is_drawn(tmp_path):
    got, _ = run(tmp_path, "plain", timeout=2)
    assert got == 1                         # still waiting for a key after 2 s


def test_stopping_stops_on_a_signal_sent_as_the_prompt_is_drawn(tmp_path):
    got, child = run(tmp_path, "stopping", timeout=20)
    assert got == 0, child.before
    assert child.match.group(1) == "15"     # SIGTERM, once
