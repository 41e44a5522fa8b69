"""A kernel's first compile said once, in every language: a check the
tests of each such notice share."""

from __future__ import annotations

import warnings
from typing import Callable


def check_compile_said(run: Callable[[], object], starts: str, monkeypatch,
                       said: dict[str, str]) -> None:
    """``run()`` says nothing once its kernels are compiled in this process,
    and, as after an install (Numba's cache empty), says exactly one
    ``TableWarning`` whose English starts with ``starts``; ``said[lang]``:
    how it starts in each language."""
    import yatzy.kernels.cache as cache
    from yatzy.tables.announce import TableWarning

    def notes() -> list:
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            run()
        return [w.message for w in seen if issubclass(w.category, TableWarning)
                and str(w.message).startswith(starts)]

    run()                                                   # compiled in this process now
    assert notes() == []
    monkeypatch.setattr(cache, "compiled", lambda kernel: False)    # as after an install
    found = notes()
    assert len(found) == 1, found
    for lang, text in said.items():
        assert found[0].said(lang).startswith(text), (lang, found[0].said(lang))
