"""bench/search_worlds.py: the search bot's worlds beside the hands really held."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bench import search_worlds as bench
from handcore import shapes
from handcore.tiles import STANDARD


def test_the_survey_keeps_each_other_hand_once_per_world_and_progress_builds_them() -> None:
    found = bench.survey("sichuan/blog5", 6, 1, "efficiency", (0.0, 4.0), 3)
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
