"""What the docs and the code point at exists, so a reader never follows a
reference into nothing (links themselves: test_cli_docs.py).

* every repository path a page names in backticks (`solver/...`,
  `tests/...py`, `benchmarks/...`) is a file or folder of the repository;
* every "the README's X section" names a heading of that page;
* the code and the tests cite the rules as `docs/rules.md, "Heading"`, a
  page users have, and each cited heading exists; nothing cites the
  developers' own rules file, which is not shipped.
"""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
SOURCES = sorted(p for p in [*(ROOT / "solver").rglob("*.py"), *(ROOT / "tests").rglob("*.py")]
                 if p != Path(__file__).resolve())
PATH = re.compile(r"`((?:solver|tests|benchmarks|docs|\.ci)/[\w./-]*[\w/]|[\w/]+\.py)`")


def headings(page: Path) -> set[str]:
    """A page's headings, each also without what follows its name in
    parentheses ("Nordic Yatzy (`nordic`, the default)": "Nordic Yatzy")."""
    found = set()
    for line in page.read_text().splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip()
            found |= {title, title.split(" (")[0]}
    return found


def exists(name: str, page: Path) -> bool:
    """A path as a page names it: from the repository's root, or within
    ``solver/`` (``tables/store.py``) or ``tests/``, or beside the page."""
    return any((base / name).exists() for base in (ROOT, ROOT / "solver", ROOT / "tests",
                                                   page.parent))


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_path_a_page_names_exists(page):
    missing = sorted({m.group(1) for m in PATH.finditer(page.read_text())
                      if "*" not in m.group(1) and not exists(m.group(1), page)})
    assert not missing, f"{page.relative_to(ROOT)} names files that do not exist: {missing}"


def test_the_path_check_can_fail(tmp_path):
    assert exists("tables/store.py", ROOT / "README.md")
    assert not exists("solver/engine.py", ROOT / "README.md")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_named_sections_exist(page):
    missing = []
    for m in re.finditer(r"(?:the )?(README|[\w-]+\.md)'s ([A-Z][\w ,-]*?) section",
                         " ".join(page.read_text().split())):
        other = ROOT / "README.md" if m.group(1) == "README" else page.parent / m.group(1)
        if not other.exists() or m.group(2) not in headings(other):
            missing.append(m.group(0))
    assert not missing, f"{page.relative_to(ROOT)}: {missing}"


CITE = re.compile(r'docs/(\w+)\.md, "([^"]+)"')


def test_rules_are_cited_from_the_users_page():
    unshipped = "RULES" + ".md"
    found, bad = 0, []
    for source in SOURCES:
        text = " ".join(source.read_text().split())
        if re.search(rf"(?<!docs/){unshipped}|\.\./shared/", text):
            bad.append(f"{source.relative_to(ROOT)} cites {unshipped}")
        for m in CITE.finditer(text):
            found += 1
            page = ROOT / "docs" / f"{m.group(1)}.md"
            if not page.exists() or m.group(2) not in headings(page):
                bad.append(f"{source.relative_to(ROOT)}: {m.group(0)}")
    assert found >= 10 and not bad, bad
