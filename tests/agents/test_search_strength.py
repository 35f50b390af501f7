"""bench/search_strength.py: a bot against a field in duplicate format, kept wall by wall."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bench import search_strength as bench

BENCH = Path(bench.__file__)


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(BENCH), *args], capture_output=True, text=True)


def test_a_bot_against_itself_gains_nothing_on_any_wall() -> None:
    # The field's mean over the seats of a wall is 0 (payments move money between seats),
    # so a copy of the field bot in each seat in turn comes out at exactly 0.
    about = {"ruleset": "sichuan/blog5", "agent": "efficiency", "field": "efficiency", "seed": 3}
    rows = [bench.play_wall((about, wall)) for wall in range(3)]
    assert [r["points"] for r in rows] == [0.0, 0.0, 0.0]
    other = {**about, "agent": "random"}
    assert any(bench.play_wall((other, wall))["points"] != 0 for wall in range(3))


def test_known_hands_are_a_run_of_their_own_and_leave_the_search_bot_as_it_was(
    tmp_path: Path,
) -> None:
    from interpreter.agents import search

    about = {"ruleset": "changsha/qq2014", "agent": "efficiency", "field": "efficiency",
             "seed": 4, "worlds": "known"}  # fmt: skip
    row = bench.play_wall((about, 0))
    assert row["worlds"] == "known" and row["points"] == 0.0
    assert search.sample_world is not search.known_world  # restored after the wall
    out = tmp_path / "walls.jsonl"
    out.write_text(json.dumps(row) + "\n")
    args = ["changsha/qq2014", "--agent", "efficiency", "--field", "efficiency", "--seed", "4"]
    known = run(*args, "--known-hands", "--out", str(out), "--summary")
    assert known.returncode == 0, known.stderr
    assert "efficiency (the other hands known) against efficiency" in known.stdout
    plain = run(*args, "--out", str(out), "--summary")
    assert plain.returncode == 1 and "a wall of another run" in plain.stderr
    beside = run(*args, "--known-hands", "--out", str(out), "--summary", "--against", str(out))
    assert beside.returncode == 0 and "on the 1 walls both hold" in beside.stdout


def test_a_run_goes_on_from_its_file_and_refuses_another_runs(tmp_path: Path) -> None:
    out = tmp_path / "walls.jsonl"
    args = ["changsha/qq2014", "--agent", "random", "--field", "efficiency", "--seed", "2"]
    first = run(*args, "--walls", "2", "--out", str(out))
    assert first.returncode == 0, first.stderr
    assert "2 walls to play, 0 kept" in first.stderr
    second = run(*args, "--walls", "3", "--out", str(out))
    assert "1 walls to play, 2 kept" in second.stderr
    walls = [json.loads(line)["wall"] for line in out.read_text().splitlines()]
    assert sorted(walls) == [0, 1, 2]
    assert (
        "random against efficiency on changsha/qq2014, seed 2: 3 walls, 12 hands" in second.stdout
    )
    worse = run(*args[:-1], "3", "--walls", "3", "--out", str(out))
    assert worse.returncode == 1 and f"{out}:1: a wall of another run" in worse.stderr


@pytest.mark.parametrize(
    ("text", "says"),
    [("{", "not a JSON line"), ("[1, 2", "not a JSON line"), ("5", "not a wall"),
     ('{"wall": 0, "points": "x", "cpu": 1}', "not a wall")],
)  # fmt: skip
def test_a_damaged_file_is_named_with_its_line(tmp_path: Path, text: str, says: str) -> None:
    out = tmp_path / "walls.jsonl"
    out.write_text(text + "\n")
    result = run("changsha/qq2014", "--out", str(out), "--summary")
    assert result.returncode == 1 and f"{out}:1: {says}" in result.stderr


def test_a_run_beside_another_on_the_walls_both_hold(tmp_path: Path) -> None:
    def walls(agent: str, points: list[float], first: int = 0) -> list[dict]:
        about = {"ruleset": "sichuan/blog5", "agent": agent, "field": "strategy", "seed": 5}
        return [{**about, "wall": first + i, "points": p, "cpu": 1.0} for i, p in enumerate(points)]

    ours = walls("search", [1.0, 0.0, -0.5, 2.0])
    assert "this − that: +0.00 ± 0.00" in bench.paired(ours, ours, "f")
    assert "worse / equal / better: 0 / 4 / 0" in bench.paired(ours, ours, "f")
    theirs = walls("value", [0.5, -0.5, 1.0], first=1)  # walls 1-3: gains -0.5, 0, +1.0
    said = bench.paired(ours, theirs, "f")
    assert "on the 3 walls both hold" in said and "(value)" in said
    assert "this − that: +0.17" in said and "worse / equal / better: 1 / 1 / 1" in said
    assert "no wall in common" in bench.paired(ours, walls("value", [1.0], first=9), "f")
    # From the command line: a file of another ruleset, field or seed is refused.
    out, other = tmp_path / "ours.jsonl", tmp_path / "other.jsonl"
    out.write_text("".join(json.dumps(r) + "\n" for r in ours))
    other.write_text(json.dumps({**theirs[0], "seed": 6}) + "\n")
    args = ["sichuan/blog5", "--agent", "search", "--seed", "5", "--out", str(out), "--summary"]
    refused = run(*args, "--against", str(other))
    assert refused.returncode == 1 and f"{other}:1: a wall of another run" in refused.stderr
    other.write_text("".join(json.dumps(r) + "\n" for r in theirs))
    beside = run(*args, "--against", str(other))
    assert beside.returncode == 0 and "this − that: +0.17" in beside.stdout
