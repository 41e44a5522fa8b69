"""The examples in the README and in the docstrings run, with the output shown."""

import doctest
from pathlib import Path

import pytest

import solver
import solver.actions
import solver.api

ROOT = Path(__file__).resolve().parents[1]
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@pytest.fixture
def session_tables(nordic, tables_dir, monkeypatch):
    """The examples' default tables folder: the session's, nordic solved."""
    monkeypatch.setenv("YATZY_TABLES", str(tables_dir))


def test_readme_python_examples(session_tables):
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False,
                              optionflags=FLAGS)
    assert result.failed == 0 and result.attempted >= 20


@pytest.mark.parametrize("module", [solver, solver.actions, solver.api],
                         ids=lambda m: m.__name__)
def test_docstring_examples(module, session_tables):
    result = doctest.testmod(module, optionflags=FLAGS)
    assert result.failed == 0 and result.attempted > 0
