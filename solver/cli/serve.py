"""``yatzy serve``: the advisor as a web page (``yatzy.web``) on a local
server.  Starlette and uvicorn are imported only when the command runs, so
the other commands start as fast as before."""

from __future__ import annotations

import os
import socket
import sys
from pathlib import Path

import click

from yatzy.cli.options import Whole, fail, rules_option, tables_option
from yatzy.errors import InputError, missing_extra
from yatzy.files import check_name
from yatzy.web.guard import hosts_served
from yatzy.web.qr import terminal


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (another than 127.0.0.1 opens the page to the network).")
@click.option("--port", type=Whole(0, 65535), default=8000, show_default=True, metavar="N",
              help="Port to listen on (0: any free port).")
@click.option("--workers", type=Whole(1, 32), default=1, show_default=True, metavar="N",
              help="Server processes sharing the port (each maps the same table files).")
@click.option("--db", "db", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="SQLite file of the shared tables (default: the user's data folder).")
@click.option("--allow-rules", is_flag=True,
              help="Build tables for rules other than the presets when asked over the network "
                   "(within a disk and CPU budget; see docs/security.md).")
@click.option("--proxy", is_flag=True,
              help="Behind a reverse proxy on this machine: trust its X-Forwarded-For.")
@rules_option
@tables_option
def serve(host: str, port: int, workers: int, db: str | None, allow_rules: bool, proxy: bool,
          rules_spec: str, tables_dir: str | None) -> None:
    """Serve the advisor as a web page for a phone or a browser: yatzy serve, then open
    the address it prints (with --host 0.0.0.0: the address on the local network, and
    a QR code of it for the phone's camera)."""
    try:
        import uvicorn

        from yatzy.web.app import ApiError, create_app
        from yatzy.web.limits import SERVER_LIMITS
    except ImportError as e:
        fail(str(missing_extra("yatzy serve", "web", e.name or "starlette")))
    problem = check_options(workers, db, tables_dir)
    if problem:
        fail(problem)
    addresses = network_addresses() if host in ("0.0.0.0", "::", "") else []
    hosts = sorted(hosts_served(host, addresses))   # the Host names a request may give
    try:
        app = create_app(rules_spec, tables_dir, db, hosts=hosts,   # bad rules fail here
                         allow_rules=allow_rules)
    except (ApiError, InputError) as e:             # a table that is missing and too big
        fail(one_line(e))
    limits = {**SERVER_LIMITS, "proxy_headers": proxy}
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as e:
        fail(f"cannot listen on {host}:{port}: {e.strerror}")
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"yatzy: serving rules {rules_spec} on http://{shown}:{bound}/ (Ctrl-C stops)",
               err=False)
    if host in ("0.0.0.0", "::", ""):
        for address in addresses:
            click.echo(f"yatzy: on the local network: http://{address}:{bound}/")
        if addresses:                   # a table shared from the laptop's own page links here
            os.environ["YATZY_LAN_URL"] = f"http://{addresses[0]}:{bound}/"
        if addresses and on_terminal():
            click.echo(terminal(f"http://{addresses[0]}:{bound}/"))
    if workers == 1:
        server = Server(uvicorn.Config(app, **limits), app.state.closing)
        code = 0
        try:
            server.run(sockets=[sock])
        except KeyboardInterrupt:
            code = 130
        if not server.started:          # it never served (a test's stand-in): return as usual
            return
        # leave now: every change is committed (SQLite), and tearing down a process that
        # holds large tables takes seconds, over the 2 s a stop may take
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    from yatzy.web.limits import Workers

    os.environ["YATZY_SERVE_RULES"] = rules_spec      # read by each worker's app_from_env
    if tables_dir:
        os.environ["YATZY_TABLES"] = str(tables_dir)
    if db:
        os.environ["YATZY_SERVE_DB"] = str(db)
    os.environ["YATZY_SERVE_HOSTS"] = ",".join(hosts)
    os.environ["YATZY_SERVE_ALLOW_RULES"] = "1" if allow_rules else "0"
    config = uvicorn.Config("yatzy.web.app:app_from_env", factory=True, workers=workers,
                            **limits)
    Workers(config, sockets=[sock]).run()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)                     # the workers have stopped; no slow teardown of the tables


def check_options(workers: int, db: str | None, tables_dir: str | None) -> str | None:
    """Why the options cannot serve (one line), checked before the server
    starts: ``--workers`` past 4 a core, a ``--db`` name the system cannot
    take or that is a folder, ``--tables`` that is a file."""
    cores = os.cpu_count() or 1
    if workers > 4 * cores:
        return f"--workers {workers}: at most 4 a core, {4 * cores} on this machine"
    try:
        if db is not None:
            check_name(db)
            if Path(db).is_dir():
                return f"--db {Path(db).name}: a folder, not a database file"
        if tables_dir is not None:
            check_name(tables_dir)
            if Path(tables_dir).exists() and not Path(tables_dir).is_dir():
                return f"--tables {Path(tables_dir).name}: a file, not a folder of tables"
    except InputError as e:
        return str(e)
    return None


def one_line(e: Exception) -> str:
    """An error as one line, without the server's absolute paths."""
    from yatzy.web.connections import no_paths
    return no_paths(" ".join(str(e).split()))


def Server(config, closing):
    """uvicorn's server that, told to stop (Ctrl-C, SIGTERM), first ends
    every event stream (``closing``: ``yatzy.web.guard``), so it stops
    within about a second with phones connected."""
    import asyncio

    import uvicorn

    class Stopping(uvicorn.Server):
        def handle_exit(self, sig, frame) -> None:
            super().handle_exit(sig, frame)
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                return
            loop.call_soon_threadsafe(closing.set)

    return Stopping(config)


def on_terminal() -> bool:
    """Whether the output is a terminal (the QR code is drawn only there)."""
    return sys.stdout.isatty()


def network_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback: the one its route to
    the local network leaves from first, then those of its host name (on
    Debian the host name is often only 127.0.1.1).  Nothing is sent on the
    network (a UDP socket's connect only picks the route); empty if neither
    gives one."""
    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 9))
            found.append(probe.getsockname()[0])
        except OSError:
            pass
    try:
        found += sorted(info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None,
                                                                   socket.AF_INET))
    except OSError:
        pass
    return [a for i, a in enumerate(found)
            if not a.startswith(("127.", "0.")) and a not in found[:i]]


COMMANDS = (serve,)
