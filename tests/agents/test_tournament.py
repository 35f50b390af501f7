"""A small duplicate tournament: the efficiency bot beats random play, significantly."""

from __future__ import annotations

from bench import tournament as t


def test_efficiency_beats_random() -> None:
    bots = ("efficiency", "random", "efficiency", "random")
    rows = t.play_walls(("sichuan/blog5", bots, 0, 60, 3))  # 60 walls × 4 rotations = 240 hands
    # each name sits twice per rotation: average its two columns
    diffs = [(r[0] + r[2]) / 2 - (r[1] + r[3]) / 2 for r in rows]
    mean, ci = t.mean_ci(diffs)
    assert mean - ci > 0, (mean, ci)


def test_every_seating_gives_identical_bots_identical_results() -> None:
    # Turning the bots round the table keeps who sits after whom (who may chow whose
    # discards); every order of them does not, so a bot and its copy come out equal.
    assert len(t.seatings(4, "all")) == 24 and len(t.seatings(4, "rotations")) == 4
    bots = ("efficiency", "defensive:defence=0", "random", "simple")
    rows = t.play_walls(("changsha/qq2014", bots, 0, 2, 5, "all"))
    assert all(r[0] == r[1] for r in rows), rows
    assert any(r[0] != r[2] for r in rows)
