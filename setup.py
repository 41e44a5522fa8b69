"""The build step that puts the default rules' value table into a wheel.

Everything else about the package is in ``pyproject.toml``.  When a wheel is
built, ``build_py`` copies the modules as usual and then solves the Nordic
table (``yatzy solve``'s work, in a separate process, with Numba's cache
and Python's bytecode kept out of the build) into
``yatzy/tables/shipped/``.  The table store opens it from there when the
tables folder has no table of its own (``yatzy.tables.store.SHIPPED``), so
the first advice after ``pip install yatzy-*.whl`` reads a checked table
instead of compiling the solver and solving.  An editable install
(``pip install -e .``) ships nothing: it solves into the checkout's
``tables/`` on first use.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

SOLVE = """
import sys
from yatzy.rules.ruleset import parse_rules
from yatzy.tables.store import open_table
table = open_table(parse_rules("nordic"), sys.argv[1], progress=False)
print(f"{table.path.name}: expected score {table.expected_score:.7f}")
"""


class BuildWithTable(build_py):
    """``build_py``, then the Nordic value table solved into the build."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        build_lib = str(Path(self.build_lib).resolve())
        package = Path(build_lib) / "yatzy"
        shipped = package / "tables" / "shipped"
        if any(shipped.glob("*.tbl")):
            return
        with tempfile.TemporaryDirectory() as work:
            env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1",
                   "NUMBA_CACHE_DIR": str(Path(work) / "numba"),
                   "PYTHONPATH": os.pathsep.join([build_lib,
                                                  os.environ.get("PYTHONPATH", "")])}
            env.pop("YATZY_TABLES", None)
            tables = Path(work) / "tables"
            print("solving the nordic table for the wheel (compile and solve, "
                  "about a minute)", flush=True)
            subprocess.run([sys.executable, "-c", SOLVE, str(tables)], env=env, check=True,
                           cwd=work)
            shipped.mkdir(parents=True, exist_ok=True)
            for table in tables.glob("*.tbl"):
                shutil.copyfile(table, shipped / table.name)
        for cache in package.rglob("__pycache__"):
            shutil.rmtree(cache, ignore_errors=True)


setup(cmdclass={"build_py": BuildWithTable})
