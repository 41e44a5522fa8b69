"""The command line's docs cannot drift from the code.

* Every option (and argument) of every `yatzy` command, read from the click
  command tree of `yatzy.cli.main`, is in that command's synopsis in
  docs/cli.md, and every synopsis anywhere in README.md and docs/*.md names
  only options the command has. A synopsis is a line `yatzy COMMAND ...` in
  a fenced code block (indented lines below it continue it).
* Every example `$ yatzy ...` in a fenced code block of README.md and
  docs/*.md runs with exit status 0, and where output is shown under it
  (up to the next `$` line or the end of the block), the output matches:
  `...` stands for any text and runs of whitespace are equal. A shown line
  that starts with a prompt of `yatzy train` (`answer> `, in nb and sv
  `svar> `) holds what the player typed: the example runs as a process
  given those lines on its standard input, so the examples of every
  language run in that language.

The examples of one page run in order in one folder of their own (so one
may read a file an earlier one wrote) with one tables folder for all pages.
The examples of PARSE_ONLY are parsed (options and values checked) but not
run; those of SLOW need a big table first and run only with
YATZY_SLOW_DOCS=1 (else they are parsed too; with it, about 5 minutes, 2 GB
of memory and 3.5 GiB of tables on a 2-core machine).
"""

import doctest
import inspect
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from yatzy.cli import main

# (text in the command, why the example is only parsed)
PARSE_ONLY = (
    ("yatzy play", "interactive: reads moves from the terminal"),
    ("yatzy serve", "a server: runs until stopped"),
    ("--scheduler", "needs a running Dask cluster"),
)
# (text in the command, the table it builds first)
SLOW = (
    ("--target", "target tables: minutes and 1.7 GiB for nordic"),
    ("--opponent", "futures and target tables: minutes and 3.4 GiB"),
    ("maxi", "a Maxi table: minutes to most of an hour"),
)


def _root():
    here = Path(__file__).resolve()
    for folder in here.parents:
        if (folder / "pyproject.toml").exists():
            return folder
    raise RuntimeError("no pyproject.toml above " + str(here))


ROOT = _root()
PAGES = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
FENCE = re.compile(r"^(\s*)(```|~~~)")
OPTION = re.compile(r"(?<![\w-])(--?[A-Za-z][\w-]*)")


def _name(page):
    return str(page.relative_to(ROOT))


def code_blocks(page):
    """(first line number, lines) of every fenced code block of a page,
    the lines dedented by the fence's indentation."""
    blocks, lines, start, indent = [], None, 0, 0
    for number, line in enumerate(page.read_text().splitlines(), 1):
        fence = FENCE.match(line)
        if lines is None:
            if fence:
                lines, start, indent = [], number + 1, len(fence.group(1))
        elif fence:
            blocks.append((start, lines))
            lines = None
        else:
            lines.append(line[indent:] if not line[:indent].strip() else line.lstrip())
    assert lines is None, f"{_name(page)}:{start - 1}: a code block is never closed"
    return blocks


def command_tree(group=main, path=()):
    """{path of words: click command} for `yatzy` and every subcommand."""
    tree = {path: group}
    if isinstance(group, click.Group):          # its commands as click lists them (lazily loaded)
        ctx = click.Context(group)
        for name in group.list_commands(ctx):
            tree.update(command_tree(group.get_command(ctx, name), path + (name,)))
    return tree


TREE = command_tree()


def resolve(words):
    """(path, command, the words after the command's name)."""
    path, command = (), main
    while words and isinstance(command, click.Group) and path + (words[0],) in TREE:
        path, command, words = path + (words[0],), TREE[path + (words[0],)], words[1:]
    return path, command, words


def synopses(page):
    """(line number, command path, synopsis text) of every synopsis line of a
    page, its indented continuation lines joined to it."""
    found = []
    for start, lines in code_blocks(page):
        current = None
        for offset, line in enumerate(lines):
            words = line.split()
            if words[:1] == ["yatzy"]:
                path, _, _ = resolve(words[1:])
                current = [start + offset, path, line, len(line) - len(line.lstrip())]
                found.append(current)
            elif (current is not None and line.strip() and not line.lstrip().startswith("$")
                  and len(line) - len(line.lstrip()) > current[3]):
                current[2] += " " + line.strip()
            else:
                current = None
    return [(number, path, text) for number, path, text, _ in found]


def documented(command):
    """The option names and argument names a synopsis of `command` must show:
    one name per option (any of its spellings), one per argument."""
    options, arguments = [], []
    for param in command.params:
        if isinstance(param, click.Option) and not param.hidden:
            options.append(set(param.opts))
        elif isinstance(param, click.Argument):
            arguments.append(param.human_readable_name)
    return options, arguments


def known_options(command):
    return {opt for param in command.params if isinstance(param, click.Option)
            for opt in param.opts + param.secondary_opts} | {"-h", "--help"}


def check_synopsis(path, text):
    """What is wrong with a synopsis of the command at `path` (a list)."""
    command = TREE[path]
    shown = set(OPTION.findall(text))
    options, arguments = documented(command)
    problems = [f"missing {sorted(names)[0]}" for names in options if not names & shown]
    problems += [f"missing argument {name}" for name in arguments
                 if not re.search(rf"\b{re.escape(name)}\b", text)]
    problems += [f"{opt} is not an option of it" for opt in sorted(shown - known_options(command))]
    return problems


def test_every_command_has_a_synopsis_in_cli_md():
    paths = {path for _, path, _ in synopses(ROOT / "docs" / "cli.md")}
    missing = [" ".join(("yatzy",) + path) for path in TREE if path not in paths]
    assert not missing, f"docs/cli.md has no synopsis of {missing}"


@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_synopses_match_help(page):
    problems = [f"{_name(page)}:{number}: yatzy {' '.join(path)}: {problem}"
                for number, path, text in synopses(page)
                for problem in check_synopsis(path, text)]
    assert not problems, "\n".join(problems)


def test_the_synopsis_check_finds_a_missing_and_an_unknown_option():
    assert check_synopsis(("advise",), "yatzy advise --dice DICE") != []
    assert "--colour is not an option of it" in check_synopsis(("rules",), "yatzy rules SPEC --colour")
    assert check_synopsis(("rules",), "yatzy rules [SPEC]") == []


def examples(page):
    """(line number, command, shown output) of every `$ yatzy` example."""
    found = []
    for start, lines in code_blocks(page):
        current = None
        for offset, line in enumerate(lines):
            if line.startswith("$ "):
                current = [start + offset, line[2:].strip(), []]
                found.append(current)
            elif current is not None:
                if current[1].endswith("\\") and not current[2]:
                    current[1] = current[1][:-1].rstrip() + " " + line.strip()
                else:
                    current[2].append(line)
    return [(number, command, "\n".join(output).strip("\n"))
            for number, command, output in found if command.split()[:1] == ["yatzy"]]


def test_examples_are_in_fenced_blocks():
    """An example outside a fenced block would escape the checks below."""
    stray = []
    for page in PAGES:
        inside = False
        for number, line in enumerate(page.read_text().splitlines(), 1):
            if FENCE.match(line):
                inside = not inside
            elif not inside and re.match(r"\s*(\$ )?yatzy \S", line) and line.startswith(("    ", "$", "\t")):
                stray.append(f"{_name(page)}:{number}: {line.strip()}")
    assert not stray, "\n".join(stray)


def reason_not_to_run(command):
    for text, why in PARSE_ONLY:
        if text in command:
            return why
    if os.environ.get("YATZY_SLOW_DOCS") != "1":
        for text, why in SLOW:
            if text in command:
                return why + " (set YATZY_SLOW_DOCS=1 to run it)"
    return None


def parse(words):
    """Parse a command line as click would, without running it."""
    path, command, rest = resolve(words)
    with command.make_context(" ".join(("yatzy",) + path), list(rest)):
        pass


# click before 8.2 mixes stderr (the solve's progress) into stdout unless asked
SEPARATE_STDERR = ({"mix_stderr": False}
                   if "mix_stderr" in inspect.signature(CliRunner).parameters else {})
CHECKER = doctest.OutputChecker()
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@pytest.fixture(scope="module")
def tables(nordic, tables_dir):
    """The session's tables folder (nordic solved; the explanations too when
    an earlier test built them): the examples solve nothing the suite
    already has."""
    return str(tables_dir)


PAGES_WITH_EXAMPLES = [page for page in PAGES if examples(page)]


@pytest.mark.parametrize("page", PAGES_WITH_EXAMPLES, ids=_name)
def test_cli_examples_run_as_shown(page, tables, tmp_path, monkeypatch):
    runner = CliRunner(env={"YATZY_TABLES": tables, "COLUMNS": "100"}, **SEPARATE_STDERR)
    failures = []
    monkeypatch.chdir(tmp_path)
    for number, command, want in examples(page):
        where = f"{_name(page)}:{number}: $ {command}"
        words = shlex.split(command, comments=True)[1:]
        if {"|", ">", "<", "&&", ";"} & set(words):
            failures.append(f"{where}\n  an example is one command, no shell")
            continue
        if reason_not_to_run(command):
            try:
                parse(words)
            except click.ClickException as error:
                failures.append(f"{where}\n  does not parse: {error.format_message()}")
            continue
        if typed(want) is not None:          # typed into a pipe, as a player would
            result = subprocess.run([sys.executable, "-m", "yatzy", *words], input=typed(want),
                                    capture_output=True, text=True, cwd=tmp_path,
                                    env={**os.environ, "YATZY_TABLES": tables, "COLUMNS": "100",
                                         "PYTHONPATH": os.pathsep.join(
                                             [str(ROOT), os.environ.get("PYTHONPATH", "")])})
            code, stdout, stderr = result.returncode, result.stdout, result.stderr.strip()
        else:
            result = runner.invoke(main, words)
            code, stdout = result.exit_code, result.stdout
            stderr = result.stderr.strip() or repr(result.exception)
        if code != 0:
            failures.append(f"{where}\n  exit {code}: {stderr}")
        elif want and not CHECKER.check_output(want + "\n", stdout, FLAGS):
            failures.append(f"{where}\n  shown:\n{want}\n  printed:\n{stdout}")
    assert not failures, "\n\n".join(failures)


PROMPTS = ("answer> ", "svar> ")


def typed(output):
    """What the player typed in an example's shown output: the text after
    each prompt, one line each (``None``: nothing typed)."""
    lines = [line.split("> ", 1)[1] for line in output.splitlines()
             if line.startswith(PROMPTS)]
    return "".join(line + "\n" for line in lines) if lines else None


def test_typed_answers_are_read_from_the_prompts():
    assert typed("dice 1 2\nanswer> score twos\nthat cost\nsvar> skip\n") == "score twos\nskip\n"
    assert typed("expected 245.673") is None


def test_every_language_has_a_run_example_of_train():
    shown = [command for page in PAGES for _, command, want in examples(page)
             if command.startswith("yatzy train") and typed(want)]
    langs = {re.search(r"--lang (\w+)", c).group(1) if "--lang" in c else "en" for c in shown}
    assert langs == {"en", "nb", "sv"}


def test_the_example_reader_splits_commands_and_output(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("text\n\n```\n$ yatzy rules\npresets\n...\n$ yatzy ev \\\n  --card ones=3\n```\n"
                    "  ```\n  $ yatzy --version\n  yatzy ...\n  ```\n")
    assert examples(page) == [(4, "yatzy rules", "presets\n..."),
                              (7, "yatzy ev --card ones=3", ""),
                              (11, "yatzy --version", "yatzy ...")]


def anchors(page):
    """The GitHub anchors of a page's headings."""
    found = set()
    for line in page.read_text().splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip().lower().replace("`", "")
            found.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return found


@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_links_lead_somewhere(page):
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", page.read_text()):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        if not linked.exists():
            broken.append(target)
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
            broken.append(target)
    assert not broken, f"{_name(page)}: links to nothing: {broken}"
