"""The Python examples in README.md, docs/*.md and the docstrings run, with the output shown."""

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import solver

ROOT = Path(__file__).resolve().parents[2]
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@pytest.fixture
def session_tables(nordic, tables_dir, monkeypatch):
    """The examples' default tables folder: the session's, nordic solved."""
    monkeypatch.setenv("YATZY_TABLES", str(tables_dir))


PAGES = [page for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
         if ">>> " in page.read_text()]


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_python_examples_of_the_docs(page, session_tables):
    result = doctest.testfile(str(page), module_relative=False, optionflags=FLAGS)
    assert result.failed == 0 and result.attempted > 0


def test_the_docs_have_python_examples():
    assert {"README.md", "python.md"} <= {page.name for page in PAGES}


MODULES = sorted(m.name for m in pkgutil.walk_packages(solver.__path__, "solver.")
                 if m.name != "solver.__main__")          # it runs the command


def test_every_module_is_walked():
    assert {"solver.api", "solver.game", "solver.position.actions"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name, session_tables):
    """Every docstring example of every module of the package runs."""
    result = doctest.testmod(importlib.import_module(name), optionflags=FLAGS)
    assert result.failed == 0
