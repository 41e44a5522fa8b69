"""The shape of the code, read from the source: no import circle (in the
package or among the page's ES modules), no import inside a function that
could hide one, no game moved by anything but the session, and no class
over 300 lines or function over 80 lines outside the kernels."""

import ast
import re
from pathlib import Path

import pytest

from tests.architecture import test_layers
from tests.architecture.test_layers import PACKAGE, imports, stage

PARSED = list(test_layers.parsed())


def parsed():
    return iter(PARSED)


STATIC = PACKAGE / "web" / "static"
MODULES = {name for name, _ in parsed()}

# Numba and the optional extras: loading them may be put off until needed
HEAVY_LIBRARIES = {"numba", "llvmlite", "matplotlib", "pandas", "pyarrow", "dask",
                   "distributed", "starlette", "uvicorn", "qrcode"}

# What is left to the parts being reworked, one line each saying why; each
# entry must still be needed (``test_every_exception_is_still_needed``), so
# the lists only shrink.
CIRCLES_LEFT = {
    ("yatzy.web.app", "yatzy.web.practice"): "the server's routes, being given one style",
}
INSIDE_LEFT = {
    "yatzy.cli.coach.solving": "the coach's builds: moving to the announcement service",
    "yatzy.cli.coach.ending": "the coach's end: reading the session's review",
    "yatzy.cli.coach.records": "the coach's records: reading the session's view",
    "yatzy.cli.coach.screen": "the coach's compile notice: the announcement service's",
    "yatzy.web.app": "the server's routes, being given one style",
    "yatzy.cli.serve": "yatzy serve: the web extra (starlette, uvicorn) loaded when it runs",
}
MOVES_LEFT: dict[str, str] = {}
LONG_LEFT: dict[str, str] = {}


def owner(imported: str) -> str | None:
    """The module of the package an imported name lives in."""
    while imported and imported not in MODULES:
        imported = imported.rpartition(".")[0]
    return imported or None


def nodes_under_type_checking(tree: ast.Module) -> set[int]:
    return {id(n) for node in ast.walk(tree)
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.dump(node.test)
            for b in node.body for n in ast.walk(b)}


def package_imports(tree: ast.Module, name: str, skip: set[int] = frozenset()):
    """``(line, module, in a function)`` of every import of a module of the
    package (but the nodes in ``skip``), ``if TYPE_CHECKING:`` included (a
    circle of types is a circle)."""
    inside = {id(n) for node in ast.walk(tree)
              if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
              for n in ast.walk(node) if n is not node}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in skip:
            for line, imported in imports(ast.Module([node], []), name):
                target = owner(imported) if imported.startswith("yatzy") else None
                if target not in (None, name, "yatzy"):
                    yield line, target, id(node) in inside


GRAPH = {name: {t for _, t, _ in package_imports(tree, name)} for name, tree in parsed()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of more than one node (Tarjan)."""
    index, low, stack, found = {}, {}, [], []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while not part or part[-1] != v:
                part.append(stack.pop())
            if len(part) > 1:
                found.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def heavy_modules() -> set[str]:
    """The modules whose import (module level, all the way down) loads
    Numba or an optional extra."""
    direct = set()
    for name, tree in parsed():
        skip = nodes_under_type_checking(tree)
        for node in tree.body:
            if id(node) in skip or not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            roots = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if not node.level else [])
            if any(r.split(".")[0] in HEAVY_LIBRARIES for r in roots):
                direct.add(name)
    level = {}
    for name, tree in parsed():
        typing_only = nodes_under_type_checking(tree)
        level[name] = {t for line, t, inside in package_imports(tree, name, typing_only)
                       if not inside}
        level[name] |= {name.rpartition(".")[0]} - {"yatzy", ""}   # its package runs first
    heavy, grew = set(direct), True
    while grew:
        more = {n for n, ts in level.items() if n not in heavy and ts & heavy}
        heavy |= more
        grew = bool(more)
    return heavy


def test_no_import_circle_in_the_package():
    assert [c for c in circles(GRAPH) if tuple(c) not in CIRCLES_LEFT] == []


def imports_inside_functions() -> dict[str, list[str]]:
    """``{module: [line imports module]}`` of the imports inside a function
    that do not put off loading Numba or an optional extra (from a module
    that does not load it already); the package's lazy public names aside."""
    heavy, found = heavy_modules(), {}
    for name, tree in parsed():
        for line, target, inside in package_imports(tree, name):
            if inside and name != "yatzy" and (target not in heavy or name in heavy):
                found.setdefault(name, []).append(f"{line} imports {target}")
    return found


def test_no_import_inside_a_function():
    """An import inside a function hides a circle or a layer."""
    found = imports_inside_functions()
    assert {n: lines for n, lines in found.items() if n not in INSIDE_LEFT} == {}


def test_no_arrow_up_even_for_types():
    wrong = [f"{n} imports {t}" for n, ts in GRAPH.items() for t in ts
             if n != "yatzy" and stage(t) > stage(n)]
    assert wrong == []


MOVES = {"play", "undo", "redo"}
GAME_NAMES = re.compile(r"(^|_)game$")


def game_moves(tree: ast.Module) -> list[int]:
    """Lines calling ``play``/``undo``/``redo`` on a name or attribute that
    holds a game (``game``, ``self.game``, ``table.game``, ``new_game``)."""
    lines = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in MOVES):
            held = node.func.value
            label = held.id if isinstance(held, ast.Name) else getattr(held, "attr", "")
            if GAME_NAMES.search(label):
                lines.append(node.lineno)
    return lines


def moved_games() -> dict[str, list[int]]:
    return {name: lines for name, tree in parsed()
            if name not in ("yatzy.session", "yatzy.game") and (lines := game_moves(tree))}


def test_only_the_session_moves_a_game():
    assert {n: lines for n, lines in moved_games().items() if n not in MOVES_LEFT} == {}


def too_long(tree: ast.Module) -> dict[str, int]:
    """``{"class C" or "f": lines}`` of the classes over 300 lines and the
    functions over 80."""
    found = {}
    for node in ast.walk(tree):
        lines = getattr(node, "end_lineno", 0) - getattr(node, "lineno", 0) + 1
        if isinstance(node, ast.ClassDef) and lines > 300:
            found[f"class {node.name}"] = lines
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and lines > 80:
            found[node.name] = lines
    return found


def long_parts() -> dict[str, int]:
    return {f"{name}: {what}": lines for name, tree in parsed()
            if not name.startswith("yatzy.kernels") for what, lines in too_long(tree).items()}


def test_no_class_over_300_lines_nor_function_over_80():
    assert {k: v for k, v in long_parts().items() if k not in LONG_LEFT} == {}


JS_IMPORT = re.compile(r"""^\s*(?:import|export)\b[^;]*?\bfrom\s*["']\./([\w.-]+\.js)["']""",
                       re.MULTILINE | re.DOTALL)


def page_graph(folder: Path = STATIC) -> dict[str, set[str]]:
    return {p.name: set(JS_IMPORT.findall(p.read_text())) for p in sorted(folder.glob("*.js"))}


# the page's one circle, around game.js, being cut where its modules are
# rewritten (the game view renders the card, the table, the pad, and they
# call its move, send and render back): no other module may join it
UNFINISHED_PAGE = {"card.js", "game.js", "links.js", "newgame.js", "scorepad.js", "share.js"}


def test_no_import_circle_among_the_page_modules():
    assert [c for c in circles(page_graph()) if not set(c) <= UNFINISHED_PAGE] == []


# the checks can fail


def test_a_circle_is_found():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_an_import_inside_a_function_is_found():
    tree = ast.parse("def f():\n    from yatzy.tables.store import Table\n")
    assert list(package_imports(tree, "yatzy.tables.plan")) == [(2, "yatzy.tables.store", True)]
    tree = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                     "    from yatzy.tables.values import StateValues\n")
    assert list(package_imports(tree, "yatzy.rules.ties")) == [
        (3, "yatzy.tables.values", False)]


def test_a_game_moved_outside_the_session_is_found():
    tree = ast.parse("game.play(a)\nself.game.undo()\nt.game.redo()\nnew_game.play(x)\n"
                     "session.play(a)\nplayer.play()\n")
    assert game_moves(tree) == [1, 2, 3, 4]


def test_a_long_function_or_class_is_found():
    body = "\n".join(f"    x = {i}" for i in range(80))
    assert too_long(ast.parse(f"def f():\n{body}\n")) == {"f": 81}
    assert too_long(ast.parse(f"def f():\n{body[:-11]}\n")) == {}
    methods = "\n".join(f"    def m{i}(self):\n        pass\n" for i in range(100))
    assert too_long(ast.parse(f"class C:\n{methods}")) == {}          # 300 lines
    assert too_long(ast.parse(f"class C:\n    x = 0\n{methods}")) == {"class C": 301}


def test_a_page_circle_is_found(tmp_path):
    (tmp_path / "a.js").write_text('import {b} from "./b.js";\nexport const a = 1;\n')
    (tmp_path / "b.js").write_text('import {\n  a,\n} from "./a.js";\n')
    (tmp_path / "c.js").write_text('export {a} from "./a.js";\n')
    assert page_graph(tmp_path) == {"a.js": {"b.js"}, "b.js": {"a.js"}, "c.js": {"a.js"}}
    assert circles(page_graph(tmp_path)) == [["a.js", "b.js"]]


def test_every_exception_is_still_needed():
    """An exception whose part was reworked goes from its list."""
    assert set(CIRCLES_LEFT) <= {tuple(c) for c in circles(GRAPH)}
    assert set(INSIDE_LEFT) <= set(imports_inside_functions())
    assert set(MOVES_LEFT) <= set(moved_games())
    assert set(LONG_LEFT) <= set(long_parts())
    assert any(set(c) == UNFINISHED_PAGE for c in circles(page_graph()))


@pytest.mark.parametrize("module", ["yatzy.kernels.turn", "yatzy.tables.build",
                                    "yatzy.players.win", "yatzy.web.app"])
def test_the_kernels_and_the_server_count_as_heavy(module):
    assert module in heavy_modules()


@pytest.mark.parametrize("module", ["yatzy.api", "yatzy.players.advice", "yatzy.tables.store",
                                    "yatzy.cli.core"])
def test_what_advice_loads_counts_as_light(module):
    """What ``yatzy advise`` imports loads no Numba: an import inside one of
    its functions has nothing to put off but a heavy module."""
    assert module not in heavy_modules()
