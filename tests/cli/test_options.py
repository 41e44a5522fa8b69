"""The CLI's progress bar: the time left from the speed since the first
call, shown once some work is done."""

import io
import sys

from yatzy.cli import options
from yatzy.cli.options import BarProgress, clock


def test_clock():
    assert [clock(s) for s in (0.2, 7.4, 59.6, 185, 3725)] == ["0 s", "7 s", "1:00", "3:05",
                                                                 "1:02:05"]


def test_the_time_left_is_the_speed_since_the_first_call(monkeypatch):
    now = [100.0]
    monkeypatch.setattr(options.time, "perf_counter", lambda: now[0])
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    bar = BarProgress("solving x")
    bar(20, 1000)                       # done before a resume: not counted in the speed
    now[0] = 110.0
    bar(30, 1000)                       # 1 % in 10 s: too little to say
    assert bar.times(30, 1000) == "10 s"
    now[0] = 200.0
    bar(120, 1000)                      # 100 units in 100 s, 880 to go
    assert bar.times(120, 1000) == "1:40, about 14:40 left"
    bar(1000, 1000)
    assert bar.bar is None              # finished: a later build draws a new bar


def test_a_whole_tables_progress_names_the_table(tmp_path, monkeypatch, capsys):
    """The progress of a target table's build says it is the target table
    (in the user's language); the value table it opens first keeps the
    plain label."""
    from small_games import SMALL

    from yatzy.tables import target
    monkeypatch.setattr(options, "LINE_SECONDS", 0.0)     # a line at every call
    monkeypatch.setattr(options, "LINE_SHARE", 0.0)
    line = options.LineProgress("regner ut small", "nb")
    labels = []

    def progress(done, total):
        labels.append(options.naming_table("x", "nb"))
        line(done, total)

    target.open_whole(SMALL, tmp_path, progress=progress)
    assert labels[-1] == "x (måltabellen)" and set(labels) <= {"x", "x (måltabellen)"}, labels
    err = capsys.readouterr().err
    assert "regner ut small (måltabellen): " in err, err
