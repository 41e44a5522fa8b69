"""What a user does first after ``pip install yatzy-*.whl``, checked.

Run by ``.ci/release`` with the Python of a new virtual environment that has
only the wheel installed, in a folder outside the checkout.  Each step says
what it checked; the first failure stops with exit status 1.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

BIN = Path(sys.executable).parent
YATZY = str(BIN / "yatzy")
ADVICE_SECONDS = 5.0


def fail(text: str) -> None:
    print(f"FAILED: {text}", file=sys.stderr)
    sys.exit(1)


def run(*args: str, code: int = 0, timeout: float = 600) -> subprocess.CompletedProcess:
    done = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
    if done.returncode != code:
        fail(f"{' '.join(args)}: exit status {done.returncode}, not {code}\n"
             f"{done.stdout}{done.stderr}")
    return done


def first_advice() -> None:
    start = time.perf_counter()
    done = run(YATZY, "advise", "--dice", "1,1,2,5,6", "--rerolls", "2")
    seconds = time.perf_counter() - start
    if "keep 5 6" not in done.stdout.splitlines()[2]:
        fail(f"the first advice is not keep 5 6:\n{done.stdout}")
    if done.stderr.strip():
        fail(f"the first advice said something on stderr (a compile, a solve?):\n{done.stderr}")
    if seconds > ADVICE_SECONDS:
        fail(f"the first advice took {seconds:.1f} s (at most {ADVICE_SECONDS:g})")
    print(f"ok  first advice in {seconds:.2f} s, nothing on stderr")
    probe = ("import sys\nfrom yatzy.cli import main\n"
             "sys.argv = ['yatzy', 'advise', '--dice', '66666', '--rerolls', '0']\n"
             "try:\n    main()\nexcept SystemExit:\n    pass\n"
             "print('numba' in sys.modules, file=sys.stderr)\n")
    done = run(sys.executable, "-c", probe)
    if done.stderr.strip() != "False":
        fail(f"advice imported Numba: {done.stderr}")
    print("ok  advice runs without importing Numba")


def package() -> None:
    done = run(YATZY, "--version")
    if done.stdout.strip() != "yatzy 1.0.0":
        fail(f"yatzy --version says {done.stdout!r}")
    done = run(sys.executable, "-c", "import yatzy; print(yatzy.__version__)")
    if done.stdout.strip() != "1.0.0":
        fail(f"yatzy.__version__ is {done.stdout!r}")
    run(sys.executable, "-c", "import solver", code=1)
    readme = run(sys.executable, "-c", "from importlib.metadata import metadata; "
                 "print(metadata('yatzy').get_payload())").stdout
    if "# yatzy" not in readme or "yatzy advise" not in readme:
        fail("the wheel's METADATA has no README as its long description")
    print("ok  yatzy 1.0.0 (--version, __version__), import solver fails, README in METADATA")


def stores() -> None:
    where = run(YATZY, "where").stdout
    shipped = [line for line in where.splitlines() if line.startswith("shipped")]
    if not shipped or "site-packages" not in shipped[0]:
        fail(f"yatzy where names no table that came with the package:\n{where}")
    tables = run(YATZY, "tables").stdout
    if not tables.rstrip().splitlines()[-1].startswith("0 files"):
        fail(f"the first advice stored something in the tables folder:\n{tables}")
    print("ok  yatzy where names the shipped table; yatzy tables: nothing stored")


def hints() -> None:
    done = run(YATZY, "serve", code=2)
    if "pip install 'yatzy[web]'" not in done.stderr:
        fail(f"yatzy serve without the web extra:\n{done.stderr}")
    print(f"ok  without the web extra: {done.stderr.strip()}")
    run(str(BIN / "pip"), "install", "--quiet", "yatzy[web,plot]")
    print("ok  pip install 'yatzy[web,plot]' beside the installed wheel")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return answer.status, answer.read()


def serve() -> None:
    port = free_port()
    server = subprocess.Popen([YATZY, "serve", "--port", str(port)], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    try:
        base, deadline, page = f"http://127.0.0.1:{port}", time.monotonic() + 60, None
        while page is None:
            try:
                page = get(base + "/")
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    fail(f"yatzy serve did not answer:\n{server.communicate()[0]}")
                time.sleep(0.5)
        status, body = page
        if status != 200 or b"<html" not in body.lower():
            fail(f"GET / answered {status}")
        status, body = get(base + "/static/style.css")
        if status != 200 or not body:
            fail(f"GET /static/style.css answered {status}")
        status, body = get(base + "/api/advise?dice=11256&rerolls=2")
        if status != 200 or b"keep" not in body:
            fail(f"GET /api/advise answered {status}: {body[:200]!r}")
        print(f"ok  yatzy serve on 127.0.0.1:{port} answers /, a static file and the API")
    finally:
        server.terminate()
        server.wait(timeout=30)


def plot() -> None:
    done = run(YATZY, "distribution", "--plot", "nordic.png")
    if not Path("nordic.png").read_bytes().startswith(b"\x89PNG"):
        fail("nordic.png is not a PNG")
    if "plot written to nordic.png" not in done.stdout:
        fail(f"the plot is not announced as written:\n{done.stdout}")
    print("ok  yatzy distribution --plot nordic.png")


if __name__ == "__main__":
    first_advice()            # first: nothing may have compiled or solved before it
    package()
    stores()
    hints()
    serve()
    plot()
    print("smoke test passed")
