"""bench/search_worlds.py: the search bot's worlds beside the hands really held."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bench import search_worlds as bench
from handcore import shapes
from handcore.tiles import STANDARD


def test_the_survey_keeps_each_other_hand_once_per_world_and_progress_builds_them() -> None:
    found = bench.survey("sichuan/blog5", 6, 1, "efficiency", (0.0, 4.0), 3).shanten
    bands = {band for band, _ in found}
    assert bands and all(
        len(found[(band, "truth")]) == len(found[(band, p)])
        for band in bands
        for p in ("0.0", "4.0")
    )
    every = {
        c: [n for (_, col), ns in found.items() if col == c for n in ns]
        for c in ("truth", "0.0", "4.0")
    }
    assert all(-1 <= n <= 6 for ns in every.values() for n in ns)
    # Dealt once a hand is far from ready; nearest of several deals, nearer.
    assert sum(every["4.0"]) < sum(every["0.0"])


def test_the_waits_read_are_shares_of_weight_kept_for_each_ready_opponent() -> None:
    found = bench.survey("changsha/qq2014", 12, 2, "strategy", (0.0, 4.0), 2)
    ready = len(found.on_waits[bench.UNSEEN])
    assert ready > 10
    assert len(found.on_waits[bench.READING]) == ready
    for p in ("0.0", "4.0"):  # a world's share is kept only when it dealt the hand ready
        assert len(found.dealt_ready[p]) == ready
        assert len(found.on_waits[p]) == sum(found.dealt_ready[p])
    assert all(0 <= x <= 1 for xs in found.on_waits.values() for x in xs)
    # Every ready hand waits on some tile; only tiles all in sight carry no weight.
    assert sum(found.on_waits[bench.UNSEEN]) > 0
    # Progress deals more of the ready hands ready than one deal does.
    assert sum(found.dealt_ready["4.0"]) > sum(found.dealt_ready["0.0"])


def test_a_reading_scores_the_share_of_its_weight_on_the_true_waits() -> None:
    from dsl.ruleset import load
    from interpreter.agents.reading import View
    from interpreter.engine.game import Game

    game = Game(load("changsha/qq2014"), 3, 0)
    t = game.state
    obs = game.observation(0)
    view = View.of(obs)
    found = bench.Survey()
    hand = STANDARD.parse("123m 456m 789m 123p 5p")
    waits = bench._waits(t, hand, None)
    assert waits == {STANDARD.parse("5p")[0]}
    worlds = {}
    bench._read_waits(found, obs, view, 1, waits, worlds)
    live = [view.unseen(x) for x in range(len(view.counts))]
    five = STANDARD.parse("5p")[0]
    assert found.on_waits[bench.UNSEEN] == [pytest.approx(live[five] / sum(live))]
    assert 0 < found.on_waits[bench.READING][0] < 1


def test_tiles_from_ready_is_the_shanten_of_the_hand() -> None:
    from dsl.ruleset import load
    from interpreter.agents.search import tiles_from_ready
    from interpreter.engine.game import Game

    t = Game(load("sichuan/blog5"), 1, 0).state
    ready = STANDARD.parse("123m 456m 789m 123p 5p")
    assert tiles_from_ready(t, ready, 0) == 0
    far = STANDARD.parse("1m 4m 7m 1p 4p 7p 1s 4s 7s 9s 9m 2p 5s")
    assert tiles_from_ready(t, far, 0) == shapes.shanten(shapes.keys_of_tiles(far), 0, None) > 2


def test_the_script_prints_a_table_and_refuses_nonsense() -> None:
    script = str(Path(bench.__file__))
    done = subprocess.run(
        [sys.executable, script, "changsha/qq2014", "--hands", "3", "--progress", "0,4"],
        capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "| turns | hands | truth | progress 0.0 | progress 4.0 |" in done.stdout
    assert "| danger read | 0." in done.stdout and "| worlds, progress 4.0 |" in done.stdout
    bad = subprocess.run([sys.executable, script, "changsha/qq2014", "--every", "0"],
                         capture_output=True, text=True)  # fmt: skip
    assert bad.returncode == 2 and "--every" in bad.stderr
    for args, said in (
        (["nosuch/x"], "no ruleset 'nosuch/x'"),
        (["sichuan/blog5", "--bot", "nosuch"], "no agent 'nosuch'"),
        (["sichuan/blog5", "--progress", "2,x"], "--progress '2,x'"),
    ):
        done = subprocess.run([sys.executable, script, *args], capture_output=True, text=True)
        assert done.returncode != 0 and said in done.stderr and "Traceback" not in done.stderr
