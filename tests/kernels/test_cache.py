"""Numba cache indexes left by older code are ignored, not fatal."""

import pickle
import sys
import types

import numba
from numba.core.caching import IndexDataCacheFile

import yatzy.tables.build  # noqa: F401  (installs the kernels cache)


def _index(tmp_path, stamp, overloads):
    (tmp_path / "kernel-1.py311.nbi").write_bytes(pickle.dumps(numba.__version__)
                                                  + pickle.dumps((stamp, overloads)))
    return IndexDataCacheFile(str(tmp_path), "kernel-1.py311", "today")


def test_an_index_naming_a_class_that_no_longer_exists_counts_as_stale(tmp_path, monkeypatch):
    gone = types.ModuleType("yatzy_gone")

    class Scratch:                         # a class of an older version of the code
        pass

    Scratch.__module__, Scratch.__qualname__ = "yatzy_gone", "Scratch"
    gone.Scratch = Scratch
    monkeypatch.setitem(sys.modules, "yatzy_gone", gone)
    data = pickle.dumps(("yesterday", {"key": Scratch()}))
    monkeypatch.delitem(sys.modules, "yatzy_gone")
    (tmp_path / "kernel-1.py311.nbi").write_bytes(pickle.dumps(numba.__version__) + data)
    assert IndexDataCacheFile(str(tmp_path), "kernel-1.py311", "today")._load_index() == {}


def test_a_current_index_still_loads(tmp_path):
    assert _index(tmp_path, "today", {"key": "kernel-1.py311.1.nbc"})._load_index() == \
        {"key": "kernel-1.py311.1.nbc"}
    assert _index(tmp_path, "yesterday", {"key": "x"})._load_index() == {}


def test_a_kernels_stamp_covers_every_module_of_the_package(monkeypatch):
    """A cached kernel runs the kernels it calls from other modules: its
    stamp changes when any module of the package changes, not only its own."""
    from yatzy.kernels import cache as kernel_cache
    from yatzy.kernels import turn
    locator = turn.pick._cache._impl.locator
    before = locator.get_source_stamp()
    monkeypatch.setattr(kernel_cache, "package_stamp", lambda: "another version")
    after = locator.get_source_stamp()
    assert before != after and after[1] == "another version" and after[0] == before[0]
