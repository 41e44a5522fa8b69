"""yatzy.research.plots: PNG files for distribution, simulate and compare; without
matplotlib a one-line error before any work."""

import sys

import pytest
from click.testing import CliRunner

from yatzy.cli import main


def test_plots_are_png_files(tables_dir, tmp_path):
    pytest.importorskip("matplotlib")
    for args, name in ((["distribution", "--rules", "forced"], "d.png"),
                       (["simulate", "--games", "200", "--rules", "forced"], "s.png"),
                       (["distribution", "--rules", "yahtzee"], "e.png"),
                       (["simulate", "--games", "200", "--rules", "yahtzee"], "y.png"),
                       (["compare", "--rules", "forced", "--policy", "optimal", "--policy",
                         "simple"], "c.png")):
        out = tmp_path / name
        r = CliRunner().invoke(main, [*args, "--plot", str(out), "--tables", str(tables_dir)])
        assert r.exit_code == 0, r.output
        assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plot_without_matplotlib_fails_before_any_work(monkeypatch, tables_dir):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    r = CliRunner().invoke(main, ["distribution", "--plot", "x.png", "--rules", "forced",
                                  "--tables", str(tables_dir)])
    assert r.exit_code == 2 and "needs matplotlib" in r.output


@pytest.mark.parametrize("name, magic", [("d.svg", b"<?xml"), ("d.pdf", b"%PDF"),
                                         ("D.PNG", b"\x89PNG")])
def test_the_format_follows_the_extension(tables_dir, tmp_path, name, magic):
    pytest.importorskip("matplotlib")
    out = tmp_path / name
    r = CliRunner().invoke(main, ["distribution", "--rules", "forced", "--plot", str(out),
                                  "--tables", str(tables_dir)])
    assert r.exit_code == 0, r.output
    assert out.read_bytes().startswith(magic)


def test_another_extension_is_refused_before_any_work(tmp_path):
    fresh = tmp_path / "tables"
    r = CliRunner().invoke(main, ["distribution", "--plot", str(tmp_path / "x.jpg"),
                                  "--tables", str(fresh)])
    assert r.exit_code == 2 and "a plot is written as .png, .svg or .pdf" in r.output
    assert not (tmp_path / "x.jpg").exists() and not fresh.exists()
