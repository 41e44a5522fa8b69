"""Fuzz every surface: the CLI in process, the ``Solver`` API,
``Game`` moves and documents, the coach's lines and the HTTP API.

Each property runs twice: a quick profile in the normal run (``QUICK``
cases per surface, seconds) and a long one under ``pytest -m fuzz``
(``LONG`` cases per surface; deselected by default).  What is checked:
bad input is one line (exit status 2, an ``InputError``/``TypeError``, a
JSON 4xx), never a traceback, a hang or a 5xx; no fuzzed call starts a
build of more than ``FUZZ_BUILD_BYTES`` (larger ones are refused, as a CLI
without a terminal refuses big builds).
"""

import json
import math

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from yatzy import Solver
from yatzy.cli import main
from yatzy.errors import InputError, TableError
from yatzy.game import Game
from yatzy.tables import plan, store

QUICK, LONG = 150, 10_000
FUZZ_BUILD_BYTES = 64 << 20          # fuzzed calls never build more than this
_SETTINGS = dict(deadline=None, derandomize=False,
                 suppress_health_check=[HealthCheck.function_scoped_fixture,
                                        HealthCheck.too_slow, HealthCheck.data_too_large])


def profiles(prop, **strategies):
    """A quick test and a long one (``-m fuzz``) of the property ``prop``
    over ``strategies``."""
    quick = settings(max_examples=QUICK, **_SETTINGS)(given(**strategies)(prop))
    long = settings(max_examples=LONG, **_SETTINGS)(given(**strategies)(prop))
    return quick, pytest.mark.fuzz(long)


@pytest.fixture(autouse=True)
def small_builds_only(monkeypatch):
    """Every fuzzed build over ``FUZZ_BUILD_BYTES`` or 20 s counts as big;
    with no terminal to ask, the CLI refuses it, and so does the library here."""
    monkeypatch.setattr(plan, "BIG_BYTES", FUZZ_BUILD_BYTES)
    monkeypatch.setattr(plan, "BIG_SECONDS", 20.0)
    monkeypatch.setattr(store, "STAMP_BYTES", 0)      # a table hashed once, not per call
    before = plan.set_confirm(lambda p: False)
    yield
    plan.set_confirm(before)


# ------------------------------------------------------------------ values
HUGE = st.integers(4300, 6000).map(lambda n: "9" * n)
numbers = st.one_of(st.integers(-3, 400).map(str), st.sampled_from(
    ["0", "-0", "+1", "--1", "1e3", "9223372036854775808", "10000000000000", "0x10", " 2 ",
     "nan", "inf", "-inf", "1e-20", "5e-324", "1e-6", "0.05", "-1", "", "\x00", "٣"]), HUGE)
small_games = st.one_of(st.integers(1, 30).map(str), st.sampled_from(
    ["0", "-1", "x", "10000000000000", "1e3", "", "9" * 30]), HUGE)
spec_words = ["nordic", "forced", "upper_first", "yahtzee", "maxi", "triple", "nope",
              "nordic:rolls=4", "nordic:rolls=0", "nordic:rolls=" + "9" * 40,
              "nordic:bonus_threshold=1000000", "nordic:bonus_threshold=100000000000000000000",
              "forced:bonus_threshold=63", "maxi:saved_rolls=false,rolls=3", "maxi:bank_cap=3",
              "yahtzee:joker=free", "nordic:order=upward", "nordic:", ":", "nordic:x=1",
              "nordic:rolls", "nordic:rolls=3,rolls=3"]
specs = st.one_of(st.sampled_from(spec_words), st.text(max_size=40),
                  st.sampled_from(spec_words).flatmap(
                      lambda s: st.text(max_size=8).map(lambda t: s + t)))
dice = st.one_of(st.sampled_from(["11256", "1,1,2,5,6", "1 1 2 5 6", "66666", "123456", "1234",
                                  "0", "7", "1125x", "", ",,,", "1" * 4000, "1,1,2,5,77"]),
                 st.lists(st.integers(-1, 8), max_size=8).map(lambda d: ",".join(map(str, d))),
                 HUGE, st.text(max_size=12))
cards = st.one_of(st.sampled_from(["", "ones=3", "ones=3,ones=3", "chance=23,yatzy=0",
                                   "sixes=24", "ones=4", "bank=3", "yatzy=50", "x=1", "ones",
                                   "ones=" + "1" * 600, "ones@1=3", "ones=-3"]),
                  HUGE.map(lambda h: "ones=" + h), st.text(max_size=30))
text = st.one_of(st.text(max_size=30), st.sampled_from(["", "\x00", "é", "-", "--"]))


def cli_args():
    """Arguments of one ``yatzy`` command, mostly plausible, often not."""
    common = st.fixed_dictionaries({}, optional={"--rules": specs, "--card": cards,
                                                 "--theta": numbers})
    commands = {
        "ev": st.fixed_dictionaries({}, optional={"--target": numbers, "--json": st.none()}),
        "advise": st.fixed_dictionaries({"--dice": dice, "--rerolls": numbers}, optional={
            "--top": numbers, "--target": numbers, "--opponent": cards,
            "--opponent-done": cards, "--json": st.none()}),
        "rules": st.just({}),
        "distribution": st.fixed_dictionaries({}, optional={
            "--at-least": numbers, "--policy": text, "--games": small_games,
            "--seed": numbers, "--json": st.none()}),
        "simulate": st.fixed_dictionaries({"--games": small_games},
                                          optional={"--seed": numbers, "--policy": text}),
        "strategy": st.just({}),
        "solve": st.just({}),
    }

    def build(name, extra, base):
        args = [name]
        for k, v in {**base, **extra}.items():
            if name == "rules" and k != "--rules":
                continue
            if name == "rules":
                args.append(v)
            elif v is None:
                args.append(k)
            else:
                args += [k, v]
        return args

    return st.sampled_from(sorted(commands)).flatmap(
        lambda name: st.tuples(st.just(name), commands[name], common)).map(
        lambda t: build(*t))


# ------------------------------------------------------------------ the CLI
@pytest.fixture(scope="module")
def cli(nordic, tables_dir):
    runner = CliRunner()

    def invoke(args, input=None):
        return runner.invoke(main, [*args, "--tables", str(tables_dir)], input=input)
    return invoke


def one_line_or_ok(r, args):
    assert r.exit_code in (0, 2), (args, r.exit_code, r.output[-2000:], r.exception)
    assert "Traceback" not in r.output, (args, r.output[-2000:])
    if r.exit_code == 2:
        errors = [line for line in r.output.splitlines() if line.startswith("error: ")]
        assert len(errors) == 1, (args, r.output[-2000:])
        assert len(errors[0]) < 500, (args, errors[0][:600])


def _cli(cli, args):
    one_line_or_ok(cli(args), args)


test_cli_quick, test_cli_long = profiles(_cli, args=cli_args())


# ------------------------------------------------------------------ the API
anything = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), text, HUGE,
                     st.lists(st.integers(-2, 8), max_size=6), st.just(2**63),
                     st.just(10**13), st.just(float("nan")))
api_calls = st.one_of(
    st.tuples(st.just("ev"), st.tuples(st.one_of(cards, anything))),
    st.tuples(st.just("advise"), st.tuples(st.one_of(cards, anything), st.one_of(dice, anything),
                                           st.one_of(st.integers(-2, 3), anything))),
    st.tuples(st.just("chance"), st.tuples(cards, st.one_of(st.integers(-5, 500), anything))),
    st.tuples(st.just("advise_win"), st.tuples(cards, dice, st.integers(0, 2),
                                               st.lists(cards, max_size=2),
                                               st.lists(cards, max_size=2))),
    st.tuples(st.just("simulate"), st.tuples(st.one_of(st.integers(-1, 20), anything),
                                             st.one_of(st.integers(-1, 5), anything))),
    st.tuples(st.just("distribution"), st.tuples(cards, st.one_of(text, anything))),
    st.tuples(st.just("card"), st.tuples(st.one_of(cards, anything))),
    st.tuples(st.just("dice"), st.tuples(st.one_of(dice, anything))),
)


def _api(nordic, tables_dir, rules, theta, call):
    name, args = call
    try:
        solver = Solver(rules, theta=theta, tables=tables_dir)
        result = getattr(solver, name)(*args)
    except (InputError, TypeError, TableError) as e:
        assert "\n" not in str(e) and len(str(e)) < 500, str(e)[:600]
        return
    if isinstance(result, float):
        assert not math.isnan(result) and -1e6 < result < 1e6


test_api_quick, test_api_long = profiles(
    _api, rules=st.one_of(st.just("nordic"), specs, anything),
    theta=st.one_of(st.just(0.0), st.floats(), anything), call=api_calls)


# ------------------------------------------------------------------ Game
boxes = ["ones", "twos", "threes", "fours", "fives", "sixes", "one_pair", "two_pairs",
         "three_alike", "four_alike", "small_straight", "large_straight", "full_house",
         "chance", "yatzy", "sjanse", "nope"]
moves = st.one_of(
    st.just("roll"), dice.map(lambda d: "roll " + d), dice.map(lambda d: "keep " + d),
    st.sampled_from(["reroll all", "keep", "score", "roll roll", "undo"]),
    st.sampled_from(boxes).map(lambda b: "score " + b),
    st.tuples(st.sampled_from(boxes), numbers).map(lambda t: f"score {t[0]} ({t[1]})"),
    text, HUGE)


@pytest.fixture(scope="module")
def solver(nordic, tables_dir):
    return Solver("nordic", tables=tables_dir)


def _game(solver, seed, script, mangle, value):
    game = Game(solver, ["Ann", "Bob"], seed=seed)
    for move in script:
        try:
            game.play(move)
        except InputError as e:
            assert "\n" not in str(e) and len(str(e)) < 500, str(e)[:600]
    doc = game.to_dict()
    assert Game.from_dict(json.loads(json.dumps(doc)), solver).to_dict() == doc
    if mangle is not None:
        try:
            again = Game.from_dict({**doc, mangle: value}, solver)
        except InputError as e:
            assert "\n" not in str(e) and len(str(e)) < 500, str(e)[:600]
        else:                                   # what was taken is a game that loads again
            assert Game.from_dict(again.to_dict(), solver).to_dict() == again.to_dict()


test_game_quick, test_game_long = profiles(
    _game, seed=st.integers(0, 2**63 - 1), script=st.lists(moves, max_size=25),
    mangle=st.sampled_from(["yatzy_game", "rules", "seed", "players", "moves", "played",
                            "drawn", None]),
    value=st.one_of(anything, st.lists(moves, max_size=3),
                    st.lists(st.integers(-1, 30), max_size=4)))


# ------------------------------------------------------------------ the coach
coach_lines = st.one_of(moves, st.sampled_from(
    ["hint", "undo", "redo", "help", "card", "review", "save", "save {dir}", "save {dir}/g.json",
     "66655", "11256", "1 2 3", "", "ones", "chance", "score chance", "sjanse", "roll"]),
    st.sampled_from(boxes))


def _coach(cli, tmp_path_factory, lines, table_mode):
    folder = tmp_path_factory.mktemp("coach")
    script = "\n".join(line.replace("{dir}", str(folder)) for line in lines) + "\n"
    args = ["play", "--player", "Ann", "--player", "Bot=greedy", "--seed", "1",
            "--autosave", str(folder / "auto.json")] + (["--dice-from-table"] if table_mode else [])
    r = cli(args, input=script)
    assert r.exit_code == 0, (lines, r.exit_code, r.output[-2000:], r.exception)
    assert "Traceback" not in r.output
    saved = folder / "auto.json"
    if saved.exists():
        Game.load(saved)                         # what the coach saved loads again


test_coach_quick, test_coach_long = profiles(
    _coach, lines=st.lists(coach_lines, max_size=15), table_mode=st.booleans())


# ------------------------------------------------------------------ HTTP
starlette = pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from yatzy.web.app import create_app  # noqa: E402


@pytest.fixture(scope="module")
def http(nordic, tables_dir):
    with TestClient(create_app("nordic", tables_dir), raise_server_exceptions=False) as c:
        yield c


queries = st.fixed_dictionaries({}, optional={
    "rules": specs, "card": cards, "dice": dice, "rerolls": numbers, "top": numbers,
    "theta": numbers, "target": numbers, "x": text})


def _http_get(http, path, query):
    query = {k: v[:1500] for k, v in query.items()}
    r = http.get(path, params=query)
    assert r.status_code < 500, (path, query, r.status_code, r.text[:300])
    if r.status_code >= 400:
        error = r.json()["error"]
        assert isinstance(error, str) and "\n" not in error


test_http_quick, test_http_long = profiles(
    _http_get, path=st.sampled_from(["/api/ev", "/api/advise", "/api/rules", "/api/status"]),
    query=queries)


def _http_game(http, solver, path, script, move, drawn):
    game = Game(solver, ["Ann"], seed=5)
    for m in script:
        try:
            game.play(m)
        except InputError:
            pass
    doc = game.to_dict()
    if drawn is not None:
        doc["drawn"] = drawn
    doc["moves"] = doc["moves"] + [move[:3000]]
    r = http.post(path, json={"game": doc, "move": move[:3000], "players": ["Ann"],
                              "rules": "nordic", "seed": 1})
    assert r.status_code < 500, (path, r.status_code, r.text[:300])


test_http_game_quick, test_http_game_long = profiles(
    _http_game, path=st.sampled_from(["/api/game/state", "/api/game/move", "/api/game/undo",
                                      "/api/game/new"]),
    script=st.lists(moves, max_size=6), move=moves,
    drawn=st.one_of(st.none(), st.lists(st.integers(-1, 8), max_size=4)))


@pytest.mark.parametrize("query", ["dice=11256&rerolls=--1", "dice=11256&rerolls=2&top=--3",
                                   "dice=11256&rerolls=2&rules=triple"])
def test_bad_numbers_in_a_query_are_4xx_not_500(http, query):
    assert http.get(f"/api/advise?{query}").status_code < 500


def test_the_fuzz_profiles_are_registered(pytestconfig):
    assert any(m.startswith("fuzz") for m in pytestconfig.getini("markers"))
    assert LONG >= 10_000
