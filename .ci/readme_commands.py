"""The commands of README.md's "Start" section, as printed: CI runs these
very lines, so the README's path cannot drift from what CI proves.

    python3 .ci/readme_commands.py install   # the install line
    python3 .ci/readme_commands.py test      # the test command
    python3 .ci/readme_commands.py extras    # the extras the install line names
    python3 .ci/readme_commands.py check .ci/run   # both stand in that file as lines

A command is an indented code line of the section (four spaces); the
install line is the one with ``pip install``, the test command the one with
``pytest``.  Exactly one of each, or this fails.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def start_commands(text: str) -> list[str]:
    """The indented code lines of the "## Start" section, in order."""
    section = text.split("\n## Start\n", 1)[1].split("\n## ", 1)[0]
    return [line[4:].strip() for line in section.splitlines()
            if line.startswith("    ") and line.strip()]


def command(kind: str, text: str) -> str:
    word = {"install": "pip install", "test": "pytest"}[kind]
    found = [c for c in start_commands(text) if word in c]
    if len(found) != 1:
        raise SystemExit(f"README.md's Start section has {len(found)} {kind} commands, "
                         f"expected one")
    return found[0]


def extras(text: str) -> list[str]:
    m = re.search(r"\.\[([\w,]+)\]", command("install", text))
    return m.group(1).split(",") if m else []


if __name__ == "__main__":
    text = README.read_text()
    kind = sys.argv[1] if len(sys.argv) in (2, 3) else ""
    if kind == "check" and len(sys.argv) == 3:
        lines = {line.strip() for line in Path(sys.argv[2]).read_text().splitlines()}
        missing = [c for c in (command("install", text), command("test", text)) if c not in lines]
        if missing:
            raise SystemExit(f"{sys.argv[2]} does not run README.md's {missing[0]!r} as a line")
    elif kind == "extras":
        print(",".join(extras(text)))
    elif kind in ("install", "test"):
        print(command(kind, text))
    else:
        raise SystemExit("usage: readme_commands.py install|test|extras|check FILE")
