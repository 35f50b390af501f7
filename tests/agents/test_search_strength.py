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
