"""What the web tests share beyond tests/conftest.py."""

import os
import shutil
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def screenshots_folder(default: Path) -> Path:
    """Where the page tests write their pictures: the folder
    ``$YATZY_SCREENSHOTS`` names (relative to the checkout's root;
    ``YATZY_SCREENSHOTS=docs/screenshots`` retakes the docs' pictures), else
    ``default``, a test's own temporary folder, so that a test run leaves
    the checkout as it found it."""
    named = os.environ.get("YATZY_SCREENSHOTS")
    return ROOT / named if named else default


@pytest.fixture
def shots(tmp_path):
    """The folder a test's screenshots go to (``screenshots_folder``), made."""
    folder = screenshots_folder(tmp_path / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="session")
def explained(nordic, tables_dir, tmp_path_factory):
    """The explanation table of ``nordic``, built once per session: through
    the app, in a folder holding only the value table, with the value
    table's status read at each look meanwhile; then put into the session's
    tables folder, so that no later test builds it again (it is the
    longest build of the web tests).

    Answers what the build showed, for the test of the build to judge:
    ``status`` and ``text`` of the puzzles' answer once it came, ``seen``
    (the value table's states), ``ev_after`` (the status of ``/api/ev``
    after it) and ``built`` (the names of the explanation tables made)."""
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from starlette.testclient import TestClient

    from yatzy import Solver
    from yatzy.web.app import create_app

    folder = tmp_path_factory.mktemp("explained")
    values = Path(Solver("nordic", tables=tables_dir).path)
    for f in values.parent.glob(values.name + "*"):          # the value table, not its parts
        shutil.copy(f, folder / f.name)
    seen = []
    with TestClient(create_app("nordic", folder, folder / "tables.sqlite"),
                    raise_server_exceptions=False) as c:
        ready = c.get("/api/ev").status_code
        for _ in range(1200):
            r = c.get("/api/puzzles?count=1&seed=1")
            seen.append(c.get("/api/status").json()["tables"]["nordic"]["state"])
            if r.status_code != 503:
                break
            time.sleep(0.1)
        shown = {"status": r.status_code, "text": r.text, "seen": seen, "ready": ready,
                 "ev_after": c.get("/api/ev").status_code}
    built = sorted(folder.glob("*-explain.tbl"))
    for f in built:
        target = Path(tables_dir) / f.name
        if not target.exists():
            shutil.copy(f, target.with_name(target.name + ".copying"))
            os.replace(target.with_name(target.name + ".copying"), target)
    return {**shown, "built": [f.name for f in built]}
