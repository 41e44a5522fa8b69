import os

import pytest

from yatzy.rules.ruleset import parse_rules
from yatzy.tables.store import open_table


@pytest.fixture(scope="session")
def tables_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("tables")


@pytest.fixture(scope="session", autouse=True)
def _default_tables_in_the_session_folder(tables_dir):
    """Code that falls back on the default tables folder (``$YATZY_TABLES``,
    else the checkout's ``tables/``), in the test process and in the
    commands it starts, uses this run's tables folder (``tables_dir``): a
    test run writes nothing into the checkout, and shares what it solves.  A test of
    the default itself removes the variable (``monkeypatch.delenv``)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("YATZY_TABLES", str(tables_dir))
        yield


@pytest.fixture(scope="session", autouse=True)
def _lasting_state_in_the_session_folder(tmp_path_factory):
    """Ratings, records and shared games that fall back on the user's data
    folder (``$YATZY_DATA``, else ``~/.local/share/yatzy``) go to this run's
    own folder: a test run never reads or writes the user's own.  A test of
    the default itself removes the variable (``monkeypatch.delenv``)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("YATZY_DATA", str(tmp_path_factory.mktemp("data")))
        yield


@pytest.fixture(scope="session")
def nordic(tables_dir):
    """The full nordic table, solved once per test session."""
    return open_table(parse_rules("nordic"), tables_dir, progress=False)


@pytest.fixture(scope="session")
def tiny(tables_dir):
    """The TINY game of tests/small_games.py, solved once per session."""
    from small_games import TINY
    return open_table(TINY, tables_dir, progress=False)


@pytest.fixture(scope="session")
def small(tables_dir):
    """The SMALL game of tests/small_games.py, solved once per session."""
    from small_games import SMALL
    return open_table(SMALL, tables_dir, progress=False)


# ------------------------------------------------------------ skipped tests
# With $YATZY_SKIPPED set to a file, every skipped test (and every module
# skipped as a whole) is written there, one node id a line: .ci/run reruns
# them with every extra installed, so that each test runs once per CI run.

def _log_skip(report):
    log = os.environ.get("YATZY_SKIPPED")
    if log and report.skipped and not hasattr(report, "wasxfail"):
        with open(log, "a") as f:
            f.write(report.nodeid + "\n")


def pytest_runtest_logreport(report):
    if report.when == "setup" or report.when == "call":
        _log_skip(report)


def pytest_collectreport(report):
    _log_skip(report)


# ------------------------------------------------------------ the test process
# Code that leaves its process at once (``yatzy serve`` after a real stop)
# must never do so inside the test runner: that would end the run with
# status 0 and no summary, whatever had failed.

class LeftTheProcess(BaseException):
    """``os._exit`` was called in the test process."""


@pytest.fixture(autouse=True)
def _no_exit_from_the_runner(monkeypatch):
    runner, leave = os.getpid(), os._exit

    def refuse(code):
        if os.getpid() != runner:        # a forked child (multiprocessing) leaves as it should
            leave(code)
        raise LeftTheProcess(f"os._exit({code}) called in the test process")
    monkeypatch.setattr(os, "_exit", refuse)
