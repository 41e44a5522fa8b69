"""The QR code of ``yatzy serve --host 0.0.0.0``: the modules of the
standard's fixed patterns and format words, and, where Debian's ``zbarimg``
is installed, a round trip through a real decoder."""

import doctest
import shutil
import subprocess

import pytest

import yatzy.web.qr
from yatzy.web.qr import _bch, matrix, terminal

TEXTS = ["x", "http://192.168.1.20:8000/", "http://[fe80::1234:5678:9abc:def0]:65535/?lang=nb",
         "A" * 100, "h" * 200]


def test_docstring_examples():
    result = doctest.testmod(yatzy.web.qr)
    assert result.failed == 0 and result.attempted > 0


@pytest.mark.parametrize("text", TEXTS)
def test_fixed_patterns_and_format(text):
    m = matrix(text)
    n = len(m)
    assert (n - 17) % 4 == 0 and all(len(row) == n for row in m)
    for cx, cy in ((3, 3), (n - 4, 3), (3, n - 4)):          # the three finders
        for d in range(-3, 4):
            assert m[cy - 3][cx + d] and m[cy + 3][cx + d] and m[cy + d][cx - 3]
        assert not m[cy - 2][cx] and m[cy][cx]
    assert [m[6][x] for x in range(8, n - 8)] == [x % 2 == 0 for x in range(8, n - 8)]
    first = [m[i][8] for i in range(6)] + [m[7][8], m[8][8], m[8][7]] + \
        [m[8][14 - i] for i in range(9, 15)]
    second = [m[8][n - 1 - i] for i in range(8)] + [m[n - 15 + i][8] for i in range(8, 15)]
    assert first == second                                  # the format word twice
    word = sum(b << i for i, b in enumerate(first)) ^ 0x5412
    assert word >> 13 == 0 and _bch(word >> 10, 10, 0x537) == word      # level M, a valid BCH word
    assert m[n - 8][8]                                      # the dark module


def test_too_long_and_terminal_drawing():
    with pytest.raises(ValueError, match="do not fit"):
        matrix("h" * 300)
    lines = terminal("x", quiet=1).splitlines()
    assert len(lines) == (21 + 2 + 1) // 2 and all(line.startswith("\x1b[30;47m") for line in lines)


@pytest.mark.skipif(shutil.which("zbarimg") is None, reason="zbarimg (zbar-tools) is not installed")
@pytest.mark.parametrize("text", TEXTS)
def test_a_decoder_reads_it_back(text, tmp_path):
    PIL = pytest.importorskip("PIL.Image")
    m = matrix(text)
    scale, quiet = 4, 4
    size = (len(m) + 2 * quiet) * scale
    image = PIL.new("L", (size, size), 255)
    for y, row in enumerate(m):
        for x, dark in enumerate(row):
            if dark:
                image.paste(0, ((x + quiet) * scale, (y + quiet) * scale,
                                (x + quiet + 1) * scale, (y + quiet + 1) * scale))
    path = tmp_path / "qr.png"
    image.save(path)
    out = subprocess.run(["zbarimg", "-q", "--raw", str(path)], capture_output=True, text=True)
    assert out.stdout.rstrip("\n") == text


def test_serve_prints_the_network_address_and_its_qr_code(monkeypatch, nordic, tables_dir):
    uvicorn = pytest.importorskip("uvicorn")
    pytest.importorskip("starlette")
    import click
    from click.testing import CliRunner

    from yatzy.cli import serve as command
    monkeypatch.setattr(command, "network_addresses", lambda: ["192.168.1.20"])
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)

    monkeypatch.setattr(command, "on_terminal", lambda: True)
    result = CliRunner().invoke(command.serve, ["--host", "0.0.0.0", "--port", "0",
                                                "--tables", str(tables_dir)])
    assert result.exit_code == 0, result.output
    address = next(w for w in result.output.split() if w.startswith("http://192.168.1.20:"))
    assert click.unstyle(terminal(address)) in result.output   # colours: on a real terminal
