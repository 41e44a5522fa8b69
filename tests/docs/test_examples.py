"""The Python examples in README.md, docs/*.md and the docstrings run, with the output shown."""

import doctest
import importlib
import pkgutil
import re
import tomllib
from pathlib import Path

import pytest

import yatzy

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


MODULES = sorted(m.name for m in pkgutil.walk_packages(yatzy.__path__, "yatzy.")
                 if m.name != "yatzy.__main__")          # it runs the command


def test_every_module_is_walked():
    assert {"yatzy.api", "yatzy.game", "yatzy.position.actions"} <= set(MODULES)


PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
REQUIRED = {re.split(r"[^A-Za-z0-9_.-]", dep, maxsplit=1)[0].lower()
            for dep in PROJECT["dependencies"]}


def import_or_skip(name):
    """The module ``name``; a module that needs what only an extra installs
    (``starlette`` for ``yatzy.web.app``, ...) is skipped, naming what is
    missing.  A missing required dependency, or a missing module of the
    package itself, still fails."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as e:
        missing = (e.name or "").split(".")[0]
        if not missing or missing == "yatzy" or missing.lower() in REQUIRED:
            raise
        extras = ", ".join(sorted(PROJECT["optional-dependencies"]))
        pytest.skip(f"{name} needs {missing}, which is not installed "
                    f"(it comes with an extra of pyproject.toml: {extras})")


def test_a_required_dependency_is_not_skipped():
    assert {"numpy", "numba", "click", "rich"} <= REQUIRED


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name, session_tables):
    """Every docstring example of every module of the package runs (a
    module that needs an extra that is not installed is skipped)."""
    result = doctest.testmod(import_or_skip(name), optionflags=FLAGS)
    assert result.failed == 0
