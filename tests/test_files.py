"""Every input path of the command line bounded and answered in one line:
file names too long for the system, devices (``/dev/zero``
read, ``/dev/null`` or a pipe replaced), the ``.tmp`` of a killed writer,
count options, Unicode digits and control characters in what is typed."""

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from yatzy.bounds import MAX_WORKERS, is_digits, whole_text
from yatzy.cli import main
from yatzy.cli.play import check_path
from yatzy.errors import InputError
from yatzy.files import (
    atomic_text,
    check_name,
    check_writable,
    read_text,
    remove_orphans,
    write_text,
)
from yatzy.game import Game, GameError, Player
from yatzy.position.board import MAX_NAME

LONG = "a" * 300


def one_line_exit(result) -> str:
    """The CLI's answer to bad input: exit 2 and one line ``error: ...``."""
    out = result.output.strip()
    assert result.exit_code == 2, (result.exit_code, out[-500:])
    assert "Traceback" not in out and out.splitlines()[-1].startswith("error:"), out[-500:]
    assert isinstance(result.exception, SystemExit)
    return out.splitlines()[-1]


@pytest.fixture
def run(tables_dir, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("YATZY_DATA", str(tmp_path / "data"))
    runner = CliRunner()

    def invoke(*args):
        return runner.invoke(main, [*args, "--tables", str(tables_dir)])
    return invoke


# ------------------------------------------------------------------ names
@pytest.mark.parametrize("path", [LONG, f"dir/{LONG}", "x" * 5000, "a\0b"])
def test_a_name_the_system_cannot_take_is_one_line_before_any_stat(path):
    for check in (check_name, check_writable, read_text):
        with pytest.raises(InputError) as e:
            check(path)
        assert "\n" not in str(e.value) and len(str(e.value)) < 200


@pytest.mark.parametrize("args", [
    ["export", "--out", LONG], ["train", "--db", LONG, "--stats"],
    ["train", "--stats", "--plot", LONG + ".png"], ["play", "--player", "Ann", "--autosave", LONG],
])
def test_cli_outputs_with_a_name_too_long_are_one_line(run, nordic, args):
    assert "255 bytes" in one_line_exit(run(*args)) or "cannot" in one_line_exit(run(*args))


def test_the_coach_save_path_check_is_one_line_in_the_users_language():
    for lang in ("en", "nb", "sv"):
        with pytest.raises(InputError) as e:
            check_path(LONG, lang)
        assert "\n" not in str(e.value) and len(str(e.value)) < 200


# ---------------------------------------------------------------- devices
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_a_device_is_not_read(device):
    with pytest.raises(InputError, match="not a regular file"):
        read_text(device)


@pytest.mark.parametrize("args", [["review", "/dev/zero"], ["play", "--resume", "/dev/zero"],
                                  ["train", "--from", "/dev/zero"]])
def test_cli_inputs_from_a_device_are_one_line(run, nordic, args):
    assert "/dev/zero" in one_line_exit(run(*args))


def test_a_file_too_large_is_refused_before_it_is_read(tmp_path):
    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.truncate(65 << 20)                      # sparse: no disk used
    with pytest.raises(InputError, match="larger than 64 MiB"):
        read_text(big)
    with pytest.raises(GameError):
        Game.load(big)


def test_a_pipe_or_a_device_is_never_replaced_by_a_write(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="not a regular file"):
        write_text(fifo, "x")
    assert fifo.is_fifo()
    with pytest.raises(InputError, match="not a regular file"):
        check_writable("/dev/null")
    assert Path("/dev/null").is_char_device()


# ------------------------------------------------------------ .tmp files
def test_a_killed_writers_tmp_is_removed_by_the_next_write(tmp_path):
    out = tmp_path / "export.csv"
    dead = 2**22 + 12345                          # beyond pid_max's default: no such process
    orphan = tmp_path / f"export.csv.{dead}.k1ll3d.tmp"
    orphan.write_text("half")
    live = tmp_path / f"export.csv.{os.getpid()}.writing.tmp"
    live.write_text("this process is still writing it")
    with atomic_text(out) as f:
        f.write("done")
    assert out.read_text() == "done" and not orphan.exists() and live.exists()
    assert remove_orphans(out) == []


# ------------------------------------------------------------------ counts
@pytest.mark.parametrize("args", [
    ["train", "--scale-games", "99999999999999999999", "--stats"],
    ["train", "--scale-games", "100000000000", "--stats"],
    ["match", "--workers", str(MAX_WORKERS + 1), "--games", "2"],
    ["match", "--workers", "1024", "--games", "2"],
    ["match", "--games", "٣"],
])
def test_count_options_out_of_range_are_one_line(run, args):
    one_line_exit(run(*args))


# --------------------------------------------------------- typed text
@pytest.mark.parametrize("move", ["score chance@²", "score chance@٣", "score chance@¹²",
                                  "score chance@1²", "score chance@𝟙"])
def test_unicode_digits_in_a_move_are_one_game_error(nordic, tables_dir, move):
    game = Game("nordic", ["Ann"], seed=3, tables=tables_dir)
    game.play("roll")
    with pytest.raises(GameError) as e:
        game.play(move)
    assert "\n" not in str(e.value)


def test_only_ascii_digits_are_numbers():
    assert is_digits("42") and not is_digits("²") and not is_digits("٣")
    with pytest.raises(InputError):
        whole_text("٣", "games")
    assert whole_text(" 12 ", "games") == 12


@pytest.mark.parametrize("raw, name", [
    ("\x1b]0;pwned\x07Ann", "]0;pwnedAnn"), ("\x1b[2JBob", "[2JBob"), ("Al\u202eice", "Alice"),
    ("\x07\x07Eve\x1b", "Eve"),
])
def test_control_characters_are_stripped_from_names(raw, name):
    assert Player.parse(raw).name == name
    assert Player.parse(raw + "=optimal").kind == "optimal"


def test_a_name_of_only_controls_or_too_long_is_one_game_error():
    with pytest.raises(GameError):
        Player.parse("\x1b\x07")
    with pytest.raises(GameError) as e:
        Player.parse("x" * (MAX_NAME + 1))
    assert e.value.kind == "long_name" and len(str(e.value)) < 200
