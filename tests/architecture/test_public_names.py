"""``import yatzy`` exports the public API lazily: fast to import, every
name resolves to the object its module defines."""

import importlib
import subprocess
import sys

import yatzy


def test_every_public_name_resolves_to_its_module():
    for name in yatzy.__all__:
        obj = getattr(yatzy, name)
        assert obj.__module__.startswith("yatzy.")
        assert obj is getattr(importlib.import_module(obj.__module__), name)


def test_importing_the_package_loads_neither_numba_nor_the_api():
    code = "import sys, yatzy; print('numba' in sys.modules, 'yatzy.api' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_an_unknown_name_is_an_attribute_error():
    try:
        yatzy.NoSuchThing
    except AttributeError as e:
        assert "NoSuchThing" in str(e)
    else:
        raise AssertionError("yatzy.NoSuchThing resolved")
