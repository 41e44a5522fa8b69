"""Fuzz of what a user types or names: moves with digits of any
script, superscripts and control characters, player names, whole numbers
and file names.  Each is a value or one ``InputError`` line, never another
exception; a name never keeps a control character.

A quick profile in every run, a long one under ``-m fuzz``."""

import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from yatzy.bounds import whole_text
from yatzy.errors import InputError
from yatzy.files import check_name
from yatzy.game import Game, Player

QUICK, LONG = 200, 10_000
_SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                         HealthCheck.too_slow])

odd = st.sampled_from(["²", "³", "¹", "٣", "𝟙", "①", "Ⅻ", "\x1b", "\x07", "\x00", "\u202e",
                       "\x9b", "@", " ", "1", "9", "０"])
typed = st.lists(st.one_of(odd, st.sampled_from(["score chance", "keep", "roll", "@", "ones"]),
                           st.text(max_size=4)), max_size=8).map("".join)


def profiles(prop, **strategies):
    quick = settings(max_examples=QUICK, **_SETTINGS)(given(**strategies)(prop))
    long = settings(max_examples=LONG, **_SETTINGS)(given(**strategies)(prop))
    return quick, pytest.mark.fuzz(long)


def _move(nordic, tables_dir, text):
    game = Game("nordic", ["Ann"], seed=1, tables=tables_dir)
    game.play("roll")
    try:
        game.play(text)
    except InputError as e:
        assert "\n" not in str(e)


test_move_quick, test_move_long = profiles(_move, text=typed)


def _name(text):
    try:
        player = Player.parse(text)
    except InputError as e:
        assert "\n" not in str(e)
        return
    assert not any(unicodedata.category(c) == "Cc" for c in player.name)
    assert "\u202e" not in player.name and 0 < len(player.name) <= 40


test_name_quick, test_name_long = profiles(_name, text=st.one_of(typed, st.text(max_size=60)))


def _whole(text):
    try:
        value = whole_text(text, "n")
    except InputError:
        return
    assert text.strip().lstrip("+-").isascii() and isinstance(value, int)


test_whole_quick, test_whole_long = profiles(_whole, text=st.one_of(typed, st.text(max_size=12)))


def _file_name(text):
    try:
        check_name(text)
    except InputError as e:
        assert "\n" not in str(e)


test_file_name_quick, test_file_name_long = profiles(
    _file_name, text=st.one_of(st.text(max_size=600), st.integers(250, 5000).map("é".__mul__)))
