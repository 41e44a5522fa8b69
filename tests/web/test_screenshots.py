"""The page tests' pictures go to a temporary folder unless asked for
(``$YATZY_SCREENSHOTS``): a test run leaves the committed pictures of
docs/screenshots/ as they are, and ``git status`` clean."""

from __future__ import annotations

import ast
import os
from pathlib import Path

from .conftest import ROOT, screenshots_folder

HERE = Path(__file__).resolve().parent


def test_the_pictures_go_to_the_tests_folder_unless_one_is_named(monkeypatch, tmp_path):
    monkeypatch.delenv("YATZY_SCREENSHOTS", raising=False)
    assert screenshots_folder(tmp_path / "s") == tmp_path / "s"
    monkeypatch.setenv("YATZY_SCREENSHOTS", "docs/screenshots")
    assert screenshots_folder(tmp_path / "s") == ROOT / "docs" / "screenshots"
    monkeypatch.setenv("YATZY_SCREENSHOTS", str(tmp_path / "elsewhere"))
    assert screenshots_folder(tmp_path / "s") == tmp_path / "elsewhere"


def test_the_shots_fixture_is_the_tests_own_folder_unless_one_is_named(shots, tmp_path):
    assert shots.is_dir()
    if "YATZY_SCREENSHOTS" in os.environ:
        assert shots == screenshots_folder(tmp_path)
    else:
        assert shots == tmp_path / "screenshots"


def docs_paths(source: str) -> list[str]:
    """The string constants of ``source`` naming docs/ (not its docstrings).

    >>> docs_paths("'Pictures in docs/.'\\nSHOTS = ROOT / 'docs' / 'screenshots'")
    ['docs']
    >>> docs_paths("def f():\\n    'docs/x.png'\\n    return 'docs/y.png'")
    ['docs/y.png']
    """
    tree = ast.parse(source)
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)}
    return [node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and id(node) not in docstrings
            and (node.value == "docs" or node.value.startswith("docs/"))]


def test_no_page_test_writes_into_docs():
    """Every picture goes through ``shots``: no module of tests/web names a
    path under docs/ (before, five of them wrote docs/screenshots/*.png on
    every run)."""
    found = {f.name: docs_paths(f.read_text(encoding="utf-8")) for f in sorted(HERE.glob("*.py"))
             if f.name != Path(__file__).name}          # this one names docs/ to test the scan
    assert {name: paths for name, paths in found.items() if paths} == {}


def test_docstring_examples_of_this_module():
    import doctest
    import sys
    assert doctest.testmod(sys.modules[__name__]).failed == 0
