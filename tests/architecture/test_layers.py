"""The package's layers: the stages, in the order data flows (each imports
only itself and earlier ones: ``test_structure``), Numba only in the kernels
and the table builder, no private names across modules, and no function
outside the CLI with more than 8 parameters."""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "solver"

# the order data flows in; a module may import its own stage and earlier ones
STAGES = [
    {"yatzy.errors", "yatzy.version", "yatzy.files", "yatzy.bounds", "yatzy.database",
     "yatzy.history"},
    {"yatzy.rules"},
    {"yatzy.space"},
    {"yatzy.position"},
    {"yatzy.kernels"},
    {"yatzy.tables"},
    {"yatzy.players"},
    {"yatzy.research"},
    {"yatzy.studies"},
    {"yatzy.api"},
    {"yatzy.game", "yatzy.record", "yatzy.session", "yatzy.scorepad"},
    {"yatzy.cli", "yatzy.web", "yatzy.__main__"},
]
NUMBA_ALLOWED = ("yatzy.kernels", "yatzy.tables.build")


def module_name(path: Path) -> str:
    """The name a file of solver/ imports as (the folder is the package ``yatzy``)."""
    rel = path.relative_to(PACKAGE)
    parts = ("yatzy",) + (rel.with_suffix("").parts if rel.parts else ())
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def stage(name: str) -> int | None:
    for i, group in enumerate(STAGES):
        if any(name == g or name.startswith(g + ".") for g in group):
            return i
    return None


def imports(tree: ast.Module, name: str):
    """``(line, imported module)`` of every import outside ``if TYPE_CHECKING:``."""
    skip = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.dump(node.test):
            skip |= {id(n) for b in node.body for n in ast.walk(b)}
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            for a in node.names:
                yield node.lineno, a.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".")[:len(name.split(".")) - node.level + 1]
                if not module_name_is_package(name):
                    base = name.split(".")[:len(name.split(".")) - node.level]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module
            for a in node.names:
                yield node.lineno, f"{mod}.{a.name}" if mod in PACKAGES else mod


PACKAGES = {module_name(p.parent) for p in PACKAGE.rglob("__init__.py")}


def module_name_is_package(name: str) -> bool:
    return name in PACKAGES


SOURCES = sorted(PACKAGE.rglob("*.py"))


def parsed():
    for path in SOURCES:
        yield module_name(path), ast.parse(path.read_text(), str(path))


def test_the_stages_cover_every_module():
    assert [n for n, _ in parsed() if n != "yatzy" and stage(n) is None] == []


def test_numba_only_in_the_kernels():
    wrong = [f"{name}:{line}" for name, tree in parsed() for line, mod in imports(tree, name)
             if mod.split(".")[0] in ("numba", "llvmlite")
             and not name.startswith(NUMBA_ALLOWED)]
    assert wrong == []


def test_no_module_imports_another_modules_private_names():
    wrong = []
    for name, tree in parsed():
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("yatzy"):
                wrong += [f"{name}:{node.lineno} {a.name}" for a in node.names
                          if a.name.startswith("_") and not a.name.startswith("__")]
    assert wrong == []


def test_no_function_outside_the_cli_takes_more_than_eight_parameters():
    wrong = []
    for name, tree in parsed():
        if name.startswith("yatzy.cli"):
            continue
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                a = node.args
                n = len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs)
                n -= bool(a.args) and a.args[0].arg in ("self", "cls")
                if n > 8:
                    wrong.append(f"{name}:{node.lineno} {getattr(node, 'name', 'lambda')} ({n})")
    assert sorted(wrong) == []


@pytest.mark.parametrize("bad", ["yatzy.game", "yatzy.cli.core"])
def test_the_stage_check_can_fail(bad):
    """A kernel importing a later stage would be reported."""
    tree = ast.parse(f"import {bad}\n")
    found = [m for _, m in imports(tree, "yatzy.kernels.turn")]
    assert stage(found[0]) > stage("yatzy.kernels.turn")


def test_the_package_list_is_the_folders_subpackages():
    """pyproject.toml maps the folder solver/ to the package ``yatzy`` and
    lists its subpackages by hand: a new subpackage left out of the list
    would be missing from the wheel."""
    import tomllib
    setup = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert setup["package-dir"] == {"yatzy": "solver"}
    assert sorted(setup["packages"]) == sorted(PACKAGES)


def test_nothing_imports_the_folders_name():
    """The folder's name is not a package: every import says ``yatzy``."""
    wrong = [(name, line) for name, tree in parsed() for line, mod in imports(tree, name)
             if mod == "solver" or mod.startswith("solver.")]
    assert wrong == []
