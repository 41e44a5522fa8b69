"""Every first use from an EMPTY tables folder: the wait a new user sees.

Each case runs as a fresh process (the CLI, the coach in a pseudo-terminal,
the page's routes on a served app) with ``YATZY_TABLES`` a new empty folder
and Numba's cache as it is (run each command once beforehand for a warm
cache); prints the machine, then per case what it announced (every ``about
...`` of a build; ``compiling`` announcements apart), the real wall time
(the whole command: start-up, the build, the answer), the seconds from
the first build announcement to the end (what it promised), their ratio, whether it is over ``LIMIT`` seconds, and the load
average before and after.  ``--busy``: one CPU-bound process of the same
priority (``python -c 'while 1: pass'``) runs beside every case.

    python benchmarks/first_use.py [--busy] [CASE ...]   # default: every case
    python benchmarks/first_use.py --list                 # the cases
    python benchmarks/first_use.py --live CASE            # the bar's time left, live
    python benchmarks/first_use.py --pair N               # train vs the page's Practice, N times

``--live``: runs one command case in a pseudo-terminal (so the build's bar
draws) and prints, at each change of the bar's ``about ... left``, the
seconds since the start, the time left it says and the time that was really
left (how the live rate corrects an announcement that was off).

``--pair N``: the same build, the whole explanations table of ``nordic``,
through the command line (``yatzy train --count 1 --seed 1 --yes``) and
through the page (``yatzy serve``, the first Practice open), interleaved
``N`` times, each from a new folder holding only the value table (copied
from ``$YATZY_TABLES`` where it is there, else solved once first); per run
the announcement, the seconds after it, the CPU seconds of every thread of
the process after it (Linux), the stored table's ``solve_seconds`` (its
pull-back alone) and the load.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable
YATZY = [PY, "-m", "yatzy"]

CLI = {
    "target-8-open": ["advise", "--card", "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,"
                      "one_pair=10", "--dice", "66612", "--rerolls", "2", "--target", "250"],
    "explain-8-open": ["advise", "--card", "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,"
                       "one_pair=10", "--dice", "66612", "--rerolls", "2", "--explain"],
    "opponent-6-open": ["advise", "--card", "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,"
                        "one_pair=10,two_pairs=14,three_of_a_kind=15", "--dice", "66612",
                        "--rerolls", "2", "--opponent",
                        "ones=2,twos=6,threes=9,fours=12,fives=15,sixes=18,one_pair=10,"
                        "two_pairs=14"],
    "explain-13-open": ["advise", "--card", "ones=3,sixes=24", "--dice", "66612", "--rerolls",
                        "2", "--explain"],
    "win-docs-example": ["advise", "--card", "ones=3,sixes=24", "--dice", "66612", "--rerolls",
                         "2", "--top", "3", "--opponent", "twos=8,chance=25", "--opponent",
                         "fours=16"],
    "distribution": ["distribution"],
    "simulate-10M": ["simulate", "--games", "10000000"],
    "ev-target-300": ["ev", "--target", "300", "--yes"],
    "train": ["train", "--count", "1", "--seed", "1", "--yes"],
    # the first use of every other command a user meets (README, docs/cli.md)
    "solve": ["solve"],
    "ev": ["ev"],
    "ev-late": ["ev", "--card", "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,one_pair=10"],
    "advise-empty": ["advise", "--dice", "11256", "--rerolls", "2"],
    "target-empty": ["advise", "--dice", "11256", "--rerolls", "2", "--target", "250"],
    "explain-empty": ["advise", "--dice", "11256", "--rerolls", "2", "--explain"],
    "opponent-empty": ["advise", "--dice", "11256", "--rerolls", "2", "--opponent", ""],
    "theta": ["ev", "--theta", "0.01"],
    "distribution-late": ["distribution", "--card", "ones=3,twos=6,threes=9,fours=12,"
                          "fives=15,sixes=18,one_pair=10"],
    "simulate-1k": ["simulate", "--games", "1000"],
    "compare": ["compare", "--policy", "optimal", "--policy", "greedy"],
    "bounds": ["bounds"],
    "strategy": ["strategy", "--card", "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,"
                 "one_pair=10,two_pairs=14,three_of_a_kind=15,four_of_a_kind=16,"
                 "small_straight=15,large_straight=20,full_house=18,chance=20"],
    "match": ["match", "--players", "optimal,win", "--games", "2", "--seed", "1"],
    # value tables whose build is announced: measured on a sample of their solve (rolls=8),
    # with saved rolls on the same rules' unit without a bank (maxi, smaller)
    "solve-rolls8": ["solve", "--rules", "nordic:rolls=8"],
    "solve-banked": ["solve", "--rules", "maxi:rolls=2,bank_cap=2", "--yes"],
    "tables": ["tables"],
    "where": ["where"],
    "rules": ["rules", "nordic"],
}

# the page's routes (GET on a served app, ``yatzy serve``), each from its own empty folder
PAGE = {
    "page-index": "/",
    "page-ev": "/api/ev",
    "page-advise": "/api/advise?dice=11256&rerolls=2",
    "page-distribution": "/api/distribution",
    "page-words": "/words.json",
}
LIMIT = 10.0        # the aim: no first use waits longer unless a named whole-game build


def load() -> float:
    return os.getloadavg()[0]


def announced(text: str) -> list[str]:
    """Every ``about N s`` of a build's announcement (``compiling`` apart)."""
    return re.findall(r"(?:building|computing)[^\n]*?about ([0-9.]+ (?:s|min|h))", text)


def compiled(text: str) -> list[str]:
    return re.findall(r"compiling[^\n]*?about ([0-9.]+ (?:s|min|h))", text)


def seconds_of(said: str) -> float:
    """``12 s``, ``4.4 min``, ``1.2 h`` in seconds."""
    n, unit = said.split()
    return float(n) * {"s": 1, "min": 60, "h": 3600}[unit]


def machine() -> str:
    model = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2 ** 30
    return (f"{os.cpu_count()} cores ({model}), {memory:.0f} GiB, nice {os.nice(0)}, "
            f"python {sys.version.split()[0]}")


def run_cli(args: list[str], tables: Path) -> tuple[float, str]:
    """The command's wall time and its output; ``AFTER[0]``: the seconds
    from its first build announcement to its end (what the announcement
    promises: the build and the answer, not the start-up before it)."""
    import threading
    env = {**os.environ, "YATZY_TABLES": str(tables), "PYTHONPATH": str(ROOT)}
    used = cpu_children()
    start = time.perf_counter()
    child = subprocess.Popen(YATZY + args, env=env, cwd=tables, stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out: list[str] = []
    reader = threading.Thread(target=lambda: out.append(child.stdout.read()))
    reader.start()
    if args[0] == "train":
        child.stdin.write("1\n" * 3)
    child.stdin.close()
    err, announced_at = [], None
    for line in child.stderr:
        err.append(line)
        if announced_at is None and re.search(r"(building|computing)[^\n]*about", line):
            announced_at = time.perf_counter()
            CPU_AFTER[0] = cpu_of(child.pid)
    child.wait()
    reader.join()
    end = time.perf_counter()
    AFTER[0] = end - announced_at if announced_at is not None else None
    if announced_at is not None and CPU_AFTER[0] is not None:
        CPU_AFTER[0] = cpu_children() - used - CPU_AFTER[0]
    return end - start, "".join(out) + "".join(err)


AFTER: list[float | None] = [None]
CPU_AFTER: list[float | None] = [None]    # the CPU seconds of the process after it (Linux)
POLL = 0.7          # seconds the page waits after a 503 before it asks again (practice.js)


def cpu_of(pid: int) -> float | None:
    """The CPU seconds (user and system, every thread) a running process
    has used, from ``/proc`` (None elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_children() -> float:
    import resource
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def run_play(tables: Path) -> tuple[float, str]:
    """Until the coach's first prompt (``NAME>``) is on the screen."""
    import pexpect
    env = {**os.environ, "YATZY_TABLES": str(tables), "PYTHONPATH": str(ROOT),
           "YATZY_DATA": str(tables / "data"), "TERM": "xterm"}
    start = time.perf_counter()
    child = pexpect.spawn(PY, ["-m", "yatzy", "play", "--screen", "plain"], cwd=str(tables),
                          env=env, encoding="utf-8", timeout=900, dimensions=(50, 120))
    child.expect(r"\w+> ")
    seconds = time.perf_counter() - start
    text = child.before
    child.terminate(force=True)
    return seconds, text


def run_practice(tables: Path, route: str = "/api/puzzles?count=1&seed=1") -> tuple[float, str]:
    """``yatzy serve``, then GET ``route`` until it answers 200 (by default
    /api/puzzles: the page's first Practice open), asking again ``POLL``
    seconds after each 503 as the page does; ``AFTER[0]``: the seconds from
    the first 503 that announces a build (``progress.build``) to the 200,
    ``CPU_AFTER[0]`` the server's CPU seconds in them."""
    import httpx
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "YATZY_TABLES": str(tables), "PYTHONPATH": str(ROOT),
           "YATZY_DATA": str(tables / "data")}
    server = subprocess.Popen(YATZY + ["serve", "--port", str(port), "--db",
                                       str(tables / "shared.sqlite")],
                              env=env, cwd=tables, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    try:
        url = f"http://127.0.0.1:{port}"
        while True:                                   # the server up (not counted)
            try:
                httpx.get(url + "/", timeout=5)
                break
            except httpx.HTTPError:
                time.sleep(0.2)
        start = time.perf_counter()
        seen, last, said = [], None, False
        while True:
            r = httpx.get(url + route, timeout=900)
            if r.status_code == 200:
                break
            body = r.json() if r.headers.get("content-type", "").startswith(
                "application/json") else {}
            if "progress" not in body:          # not a build to wait for: an error
                seen.append(f"HTTP {r.status_code}: {r.text[:200]}")
                break
            build = body["progress"].get("build") or {}
            if not seen:
                seen.append(f"HTTP {r.status_code} at once: {json.dumps(body['progress'])[:300]}")
            if build.get("seconds") and not said:     # the page's announcement of a build
                said = True
                announced_at, cpu_at = time.perf_counter(), cpu_of(server.pid)
                seen.append(f"building {build.get('what', 'a table')} (page, after "
                            f"{time.perf_counter() - start:.1f} s) about {build['seconds']:.0f} s")
            last = f"HTTP {r.status_code} last: {json.dumps(body['progress'])[:200]}"
            time.sleep(POLL)
        end = time.perf_counter()
        if said:
            AFTER[0] = end - announced_at
            cpu_end = cpu_of(server.pid)
            CPU_AFTER[0] = None if cpu_at is None or cpu_end is None else cpu_end - cpu_at
        return end - start, "\n".join(seen + ([last] if last else []))
    finally:
        server.terminate()
        server.wait()


def run_live(args: list[str], tables: Path) -> None:
    import pexpect
    env = {**os.environ, "YATZY_TABLES": str(tables), "PYTHONPATH": str(ROOT), "TERM": "xterm"}
    start = time.perf_counter()
    child = pexpect.spawn(PY, ["-m", "yatzy", *args], cwd=str(tables), env=env,
                          encoding="utf-8", timeout=3600, dimensions=(50, 160))
    said, seen = [], ""
    while True:
        i = child.expect([r"about ([0-9:]+(?: s)?) left", r"warning: [^\r\n]*", pexpect.EOF])
        now = time.perf_counter() - start
        if i == 2:
            break
        if i == 1:
            print(f"{now:7.1f} s  {child.after[:240]}", flush=True)
            continue
        left = child.match.group(1)
        if left != seen:
            seen = left
            said.append((now, left))
    end = time.perf_counter() - start
    print(f"{'at':>8}  {'says left':>10}  {'really left':>11}  ratio")
    for now, left in said:
        parts = [int(x) for x in left.replace(" s", "").split(":")]
        secs = sum(p * 60 ** (len(parts) - 1 - k) for k, p in enumerate(parts))
        real = end - now
        print(f"{now:7.1f}s  {left:>10}  {real:10.1f}s  {real / max(secs, 1):.2f}", flush=True)
    print(f"finished after {end:.1f} s; load {load():.1f}")


def value_table() -> tuple[Path, Path | None]:
    """The nordic value table: ``$YATZY_TABLES``'s where it is there, else
    one solved into a new folder; and that new folder (to remove) or None."""
    sys.path.insert(0, str(ROOT))
    from yatzy.rules.ruleset import parse_rules
    from yatzy.tables.store import table_path
    rules = parse_rules("nordic")
    shared = os.environ.get("YATZY_TABLES")
    if shared and table_path(rules, shared).exists():
        return table_path(rules, shared), None
    folder = Path(tempfile.mkdtemp(prefix="yatzy-values-"))
    subprocess.run(YATZY + ["solve"], env={**os.environ, "YATZY_TABLES": str(folder),
                                           "PYTHONPATH": str(ROOT)}, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return table_path(rules, folder), folder


def solve_seconds(folder: Path) -> float | None:
    """The ``solve_seconds`` of the explanations table stored in ``folder``."""
    from yatzy.kernels.explain import part_table_size
    from yatzy.rules.ruleset import parse_rules
    from yatzy.tables.store import load_array
    rules = parse_rules("nordic")
    found = next(folder.glob("*-explain.tbl"), None)
    if found is None:
        return None
    return load_array(rules, found, "explain", (part_table_size(rules),),
                      verify=False)[1].get("solve_seconds")


def show(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds:.1f}s"


def run_pair(times: int) -> None:
    """``--pair``: the command line's and the page's build of the same table."""
    values, made = value_table()
    print(f"machine: {machine()}; load {load():.1f}; the whole explanations table of nordic",
          flush=True)
    print(f"{'':<6}{'announced':>10}{'after it':>10}{'CPU after':>10}{'solve':>8}{'ratio':>7}"
          "  load", flush=True)
    print("(after it: from the announcement to the end; CPU after: every thread of the "
          "process in that time; solve: the pull-back alone, the stored table's)", flush=True)
    try:
        for _ in range(times):
            for name, case in (("cli", "train"), ("page", "practice")):
                tables = Path(tempfile.mkdtemp(prefix="yatzy-pair-"))
                shutil.copy(values, tables / values.name)
                AFTER[0] = CPU_AFTER[0] = None
                before = load()
                try:
                    _, text = run_case(case, tables)
                    solved = solve_seconds(tables)
                finally:
                    shutil.rmtree(tables, ignore_errors=True)
                said = sum(seconds_of(a) for a in announced(text))
                after, cpu = AFTER[0], CPU_AFTER[0]
                print(f"{name:<6}{(f'{said:.0f} s' if said else '-'):>10}{show(after):>10}"
                      f"{show(cpu):>10}{show(solved):>8}"
                      f"{(f'{after / said:.2f}' if said and after else '-'):>7}  "
                      f"{before:.1f} -> {load():.1f}", flush=True)
    finally:
        if made is not None:
            shutil.rmtree(made, ignore_errors=True)


def run_case(case: str, tables: Path) -> tuple[float, str]:
    if case == "play":
        return run_play(tables)
    if case == "practice":
        return run_practice(tables)
    if case in PAGE:
        return run_practice(tables, PAGE[case])
    return run_cli(CLI[case], tables)


def main(args: list[str]) -> None:
    every = [*CLI, "play", "practice", *PAGE]
    if "--list" in args:
        print("\n".join(every))
        return
    if "--pair" in args:
        run_pair(int(args[args.index("--pair") + 1]))
        return
    if "--live" in args:
        case = args[args.index("--live") + 1]
        tables = Path(tempfile.mkdtemp(prefix="yatzy-first-"))
        try:
            print(f"machine: {machine()}; load {load():.1f}; {case}", flush=True)
            run_live(CLI[case], tables)
        finally:
            shutil.rmtree(tables, ignore_errors=True)
        return
    busy = "--busy" in args
    cases = [a for a in args if not a.startswith("--")] or every
    print(f"machine: {machine()}; load {load():.1f}"
          + ("; one busy process of the same priority beside each case" if busy else ""),
          flush=True)
    print(f"{'case':<20}{'announced':>11}{'real':>9}{'after it':>9}{'ratio':>7}  "
          f"over {LIMIT:g} s  load", flush=True)
    print("(real: the whole command; after it: from the first build announcement to the end; "
          "ratio: after it over announced, else real over announced)", flush=True)
    for case in cases:
        tables = Path(tempfile.mkdtemp(prefix="yatzy-first-"))
        AFTER[0] = CPU_AFTER[0] = None
        spinner = (subprocess.Popen([PY, "-c", "while 1: pass"]) if busy else None)
        before = load()
        try:
            seconds, text = run_case(case, tables)
        finally:
            shutil.rmtree(tables, ignore_errors=True)
            if spinner is not None:
                spinner.kill()
                spinner.wait()
        said = sum(seconds_of(a) for a in announced(text))
        after = AFTER[0] if AFTER[0] is not None else seconds
        ratio = f"{after / said:.2f}" if said else "-"
        over = "OVER" if seconds > LIMIT else ""
        print(f"{case:<20}{(f'{said:.0f} s' if said else '-'):>11}{seconds:>8.1f}s"
              f"{(f'{AFTER[0]:.1f}s' if AFTER[0] is not None else '-'):>9}{ratio:>7}  "
              f"{over:<11}{before:.1f} -> {load():.1f}"
              + (f"  (compiling: {', '.join(compiled(text))})" if compiled(text) else ""),
              flush=True)
        for line in text.splitlines():
            if any(w in line for w in ("warning", "about", "HTTP", "rror")):
                print("    " + line[:300], flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
