"""The Game object: moves as text, every move checked against the rules
(an illegal one changes nothing), undo and redo to any depth, save and load
to the same state and advice, the bank of saved rolls, jokers and the
yahtzee bonus, and the game as a review log."""

import json

import pytest
from small_games import BANKED

from yatzy import InputError, Solver
from yatzy.game import Game, Player
from yatzy.session import Session
from yatzy.research.review import read_log
from yatzy.rules.boxes import NORDIC, groups, straight, upper
from yatzy.rules.ruleset import Rules, parse_rules
from yatzy.rules.words import box_index, box_name

JOKER = Rules("joker", (upper("ones", 1), upper("twos", 2), upper("threes", 3),
                        straight("run", ((1, 2), (2, 3)), 7), groups("yahtzee", (2,), points=20)),
              dice=2, faces=3, rolls=2, bonus_threshold=4, bonus_points=5, yahtzee_bonus=30,
              joker="forced")


@pytest.fixture(scope="module")
def solver(nordic, tables_dir):
    return Solver("nordic", tables=tables_dir)


@pytest.fixture(scope="module")
def small_tables(tmp_path_factory):
    return tmp_path_factory.mktemp("game")


def test_moves_round_trip_through_text(solver):
    game = Game(solver, ["Ann", "Bob=optimal"], seed=1)
    assert game.needs_roll and game.dice is None and game.rerolls == 2
    assert str(game.play("roll 11256").text) == "roll 1 1 2 5 6"
    assert game.dice == (1, 1, 2, 5, 6) and game.rerolls == 2
    assert game.play("keep 56").text == "keep 5 6" and game.kept == (5, 6) and game.needs_roll
    assert game.play("roll 566").text == "roll 5 6 6"        # the rerolled dice
    assert game.dice == (5, 5, 6, 6, 6) and game.rerolls == 1
    game.play("keep 5 5 6 6")
    assert game.play("roll 1 5 5 6 6").text == "roll 1"      # or all the dice, kept ones included
    assert game.rerolls == 0
    assert game.play("score ett par").text == "score one_pair (12)"
    assert game.player == Player("Bob", "optimal") and game.scores() == (12, 0)
    assert game.turns[0].rolls == ((1, 1, 2, 5, 6), (5, 5, 6, 6, 6), (1, 5, 5, 6, 6))


def test_drawn_dice_depend_on_the_seed_and_the_draw_only(solver):
    a, b = Game(solver, ["A"], seed=7), Game(solver, ["A"], seed=7)
    assert a.play("roll") == b.play("roll") and a.moves[0].drawn
    first = a.dice
    a.undo()
    assert a.redo() == b.moves[0] and a.dice == first          # a redo plays the same dice
    a.undo()
    again = a.play("roll")                  # a drawn roll once seen is never drawn again
    assert again.drawn and a.dice != first
    assert Game.from_dict(a.to_dict(), solver).to_dict() == a.to_dict()
    a.undo()
    c = Game.from_dict(a.to_dict(), solver)       # the draws made travel with the document
    third = c.play("roll")
    assert c.to_dict()["draw_numbers"] == [2] and c.to_dict()["draws_made"] == 3
    assert len({third.text, again.text, b.moves[0].text}) == 3


def test_a_document_without_draw_numbers_draws_in_order(solver):
    game = Game(solver, ["A"], seed=7)
    game.play("roll")
    game.play("keep 6")
    game.play("roll")
    doc = game.to_dict()
    del doc["draw_numbers"], doc["draws_made"]
    assert Game.from_dict(doc, solver).to_dict() == game.to_dict()
    doc["draw_numbers"] = [0, 0]
    with pytest.raises(InputError, match="draw 0 was made before"):
        Game.from_dict(doc, solver)


def _play_computers(game, n):
    positions = [game.position]
    for _ in range(n):
        Session(game).play_auto()
        positions.append(game.position)
    return positions


def test_undo_and_redo_to_any_depth(solver):
    game = Game(solver, ["A=optimal", "B=optimal"], seed=3)
    positions = _play_computers(game, 25)
    moves = game.moves
    for i in range(25, 0, -1):
        undone = game.undo()
        assert undone == moves[i - 1] and game.position == positions[i - 1]
    with pytest.raises(InputError, match="nothing to undo"):
        game.undo()
    assert game.redo_moves == moves
    for i in range(1, 26):
        assert game.redo() == moves[i - 1] and game.position == positions[i]
    with pytest.raises(InputError, match="nothing to redo"):
        game.redo()
    game.undo()
    game.undo()
    Session(game).play_auto()                       # a new move clears what was undone
    assert game.redo_moves == ()


def test_save_and_load_give_the_same_state_and_advice(solver, tmp_path):
    game = Game(solver, ["Ann", "Bob=greedy"], seed=11)
    _play_computers(game, 9)
    game.undo()
    game.undo()
    path = tmp_path / "g.json"
    game.save(path)
    doc = json.loads(path.read_text())
    assert doc["yatzy_game"] == 1 and doc["played"] == 7 and len(doc["moves"]) == 9
    back = Game.load(path, tables=solver.tables)
    assert back.position == game.position and back.seed == game.seed
    assert back.moves == game.moves and back.redo_moves == game.redo_moves
    assert back.players == game.players
    while back.needs_roll:
        back.play("roll")
        game.play("roll")
    assert back.dice == game.dice and back.advice() == game.advice()
    assert back.advice().actions[0].expected_final_score == game.advice().best.expected_final_score


@pytest.mark.parametrize("text, problem", [
    ("not json", "not a JSON document"),
    ('{"yatzy_game": 2}', "version 2"),
    ('{"yatzy_game": 1, "rules": "nordic", "players": [{"name": "A"}], "moves": ["roll 7"],'
     ' "played": 1}', "move 1 'roll 7'"),
    ('{"yatzy_game": 1, "rules": "nordic", "players": "A", "moves": [], "played": 0}',
     "players must be"),
    ('{"yatzy_game": 1, "rules": "nordic", "players": [{"name": "A"}], "moves": [],'
     ' "played": 3}', "played must be"),
    ('{"yatzy_game": 1, "rules": "nordic:nope=1", "players": [{"name": "A"}], "moves": [],'
     ' "played": 0}', "nope"),
    ('[1, 2]', "not a yatzy game"),
])
def test_a_malformed_game_file_is_one_input_error(tmp_path, text, problem):
    path = tmp_path / "g.json"
    path.write_text(text)
    with pytest.raises(InputError, match=problem) as e:
        Game.load(path)
    assert "\n" not in str(e.value) and str(path) in str(e.value)


@pytest.mark.parametrize("moves, bad, problem", [
    ([], "score chance", "roll the dice first"),
    ([], "keep 5 6", "roll the dice first"),
    ([], "roll 1125", "expected 5 dice"),
    ([], "roll 11257", "7 is not a face"),
    ([], "roll 112556", "at most 5"),
    (["roll 11256"], "roll", "keep some dice first"),
    (["roll 11256"], "keep 4", "not among"),
    (["roll 11256"], "keep 1 1 2 5 6", "at most 4"),
    (["roll 11256"], "score chance (30)", "scores 15 in chance, not 30"),
    (["roll 11256"], "score nonsense", "unknown box"),
    (["roll 11256"], "dance", "expected 'keep 5 6'"),
    (["roll 11256", "keep 5 6"], "roll 5666", "expected 3 dice"),
    (["roll 11256", "keep 5 6"], "roll 11111", "expected 3 dice"),
    (["roll 11256", "keep 5", "roll 1111", "keep 5", "roll 1111"], "keep 1", "no rerolls left"),
    (["roll 11256", "score chance", "roll 11256", "score ones", "roll 11256"], "score sjanse",
     "already filled"),
])
def test_an_illegal_move_is_refused_and_changes_nothing(solver, moves, bad, problem):
    game = Game(solver, ["Ann", "Ann2"], seed=1)
    for m in moves:
        game.play(m)
    before, played, redo = game.position, game.moves, game.redo_moves
    with pytest.raises(InputError, match=problem) as e:
        game.play(bad)
    assert "\n" not in str(e.value)
    assert game.position == before and game.moves == played and game.redo_moves == redo


def test_forced_order_and_a_finished_game_are_checked(tables_dir, small_tables):
    game = Game(parse_rules("forced"), ["A"], tables=tables_dir)
    game.play("roll 66666")
    with pytest.raises(InputError, match="yatzy may not take"):
        game.play("score yatzy")
    small = Game(Rules("tiny", NORDIC[:1], dice=2, rolls=1), ["A"], tables=small_tables)
    small.play("roll 11")
    small.play("score ones")
    assert small.is_over and small.scores() == (2,)
    with pytest.raises(InputError, match="the game is over"):
        small.play("roll")


@pytest.mark.parametrize("players, problem", [
    ([], "a game has 1..6"), (["A"] * 7, "a game has 1..6"), (["A", "a"], "share a name"),
    (["A=wizard"], "KIND one of human, optimal"), (["=optimal"], "name is empty"),
])
def test_players_are_checked(players, problem):
    with pytest.raises(InputError, match=problem):
        Game("nordic", players)


def test_legal_actions_are_the_actions_advice_values(solver, small_tables):
    """Including jokers: a further yahtzee goes only where advice lists it."""
    for s in (solver, Solver(JOKER, tables=small_tables)):
        game = Game(s, ["A=optimal"], seed=5)
        for _ in range(40 if s is solver else 20):
            if game.is_over:
                break
            if not game.needs_roll:
                assert set(game.legal_actions()) == set(game.advice().actions)
                assert {a.points for a in game.legal_actions() if a.kind == "score"} >= {
                    a.points for a in game.advice().actions if a.kind == "score"}
            Session(game).play_auto()


def test_a_further_yahtzee_earns_the_bonus_and_plays_as_a_joker(small_tables):
    game = Game(Solver(JOKER, tables=small_tables), ["A"])
    for move in ("roll 33", "score yahtzee", "roll 22"):
        game.play(move)
    assert [str(a) for a in game.legal_actions() if a.kind == "score"] == ["score twos (4)"]
    assert set(game.legal_actions()) == set(game.advice().actions)
    with pytest.raises(InputError, match="may not take"):
        game.play("score threes")
    game.play("score twos")
    assert game.card.yahtzee_bonus == 30 and game.scores() == (20 + 4 + 5 + 30,)   # bonus 5 at 4


def test_stopping_early_banks_the_rerolls_left(small_tables):
    game = Game(Solver(BANKED, tables=small_tables), ["A", "B"], seed=2)
    assert game.rerolls == 2
    game.play("roll 123")
    game.play("score ones")                               # two rerolls unused: banked
    assert game.cards[0].bank == 2
    game.play("roll 444")
    game.play("score yatzy")
    assert game.rerolls == 4                              # own 2 and banked 2
    for move in ("roll 123", "reroll all", "roll 123"):
        game.play(move)
    assert game.rerolls == 3
    game.play("score pair")
    assert game.cards[0].bank == 3 and game.turn_player == 1


def test_the_game_is_a_review_log(solver, tmp_path):
    game = Game(solver, ["Ann", "Bob=optimal"], seed=4)
    for box in ("ones", "twos", "threes"):
        game.play("roll")
        game.play(f"score {box}")
        while game.turn_player == 1:
            Session(game).play_auto()
    lines = game.log_lines()
    assert json.loads(lines[0])["players"] == ["Ann", "Bob"] and len(lines) == 7
    path = tmp_path / "g.jsonl"
    path.write_text("\n".join(lines) + "\n")
    rules, games = read_log(path, "nordic")
    assert [len(g) for g in games] == [3, 3]
    assert solver.review(path).scores == game.scores()
    assert game.review(1).total_loss == 0                  # the optimal computer loses nothing
    assert game.review(0).total_loss == solver.review([games[0]]).total_loss > 0


def test_greedy_and_simple_computers_play(solver):
    game = Game(solver, ["G=greedy", "S=simple"], seed=9)
    _play_computers(game, 12)
    assert len(game.turns) >= 2


@pytest.mark.parametrize("spec", ["nordic", "yahtzee", "maxi"])
def test_every_printed_box_name_reads_back_as_its_box(spec):
    rules = parse_rules(spec)
    for lang in ("en", "nb", "sv"):
        for b in rules.boxes:
            assert box_index(rules, box_name(b.name, lang)) == rules.box_index(b.name)


def test_box_names_in_every_language():
    yahtzee = parse_rules("yahtzee")                       # the printed names, not aliases
    assert yahtzee.boxes[box_index(yahtzee, "tre like")].name == "three_of_a_kind"
    assert yahtzee.boxes[box_index(yahtzee, "kåk")].name == "full_house"


def test_the_module_examples_run(nordic, tables_dir, monkeypatch):
    import doctest

    import yatzy.game
    monkeypatch.setenv("YATZY_TABLES", str(tables_dir))
    result = doctest.testmod(yatzy.game, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 5


def test_settings_are_kept_in_the_document_and_old_documents_still_load(tmp_path):
    game = Game("nordic", ["Ann", "Bob"], seed=2)
    game.play("roll 11256")
    game.settings.update(lang="sv", undo="fair")
    game.save(tmp_path / "g.json")
    back = Game.load(tmp_path / "g.json")
    assert back.settings == {"lang": "sv", "undo": "fair"} and back.moves == game.moves
    old = game.to_dict()
    del old["settings"]                                  # a document of before the settings
    assert Game.from_dict(old).settings == {} and Game.from_dict(old).dice == (1, 1, 2, 5, 6)
    old["settings"] = [1]
    with pytest.raises(InputError, match="settings must be a JSON object"):
        Game.from_dict(old)
