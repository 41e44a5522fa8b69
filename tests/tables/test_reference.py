"""The C reference solver of benchmarks/reference agrees with ours on nordic.

An independent check: a separate program, in another language, solving the
same game by the same recursion written out plainly, must reach the same
expected score.  Skipped where gcc is missing.
"""

import shutil
import subprocess
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parents[2] / "benchmarks" / "reference" / "nordic.c"


@pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")
def test_reference_agrees_with_our_value(nordic, tmp_path):
    exe = tmp_path / "nordic"
    subprocess.run(["gcc", "-O2", "-fopenmp", str(SOURCE), "-o", str(exe), "-lm"], check=True,
                   capture_output=True)
    out = subprocess.run([str(exe)], check=True, capture_output=True, text=True,
                         timeout=120).stdout.split()
    fields = dict(zip(out[::2], out[1::2]))
    assert set(fields) == {"ev", "seconds", "threads"}
    assert float(fields["ev"]) == pytest.approx(nordic.expected_score, abs=1e-6)
    assert 240 < float(fields["ev"]) < 260
