"""``import solver`` exports the public API lazily: fast to import, every
name resolves to the object its module defines."""

import importlib
import subprocess
import sys

import solver


def test_every_public_name_resolves_to_its_module():
    for name in solver.__all__:
        obj = getattr(solver, name)
        assert obj.__module__.startswith("solver.")
        assert obj is getattr(importlib.import_module(obj.__module__), name)


def test_importing_the_package_loads_neither_numba_nor_the_api():
    code = "import sys, solver; print('numba' in sys.modules, 'solver.api' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_an_unknown_name_is_an_attribute_error():
    try:
        solver.NoSuchThing
    except AttributeError as e:
        assert "NoSuchThing" in str(e)
    else:
        raise AssertionError("solver.NoSuchThing resolved")
