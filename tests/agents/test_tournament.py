"""A small duplicate tournament: the efficiency bot beats random play, significantly."""

from __future__ import annotations

import importlib.util
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "tournament.py"


def load_bench():
    spec = importlib.util.spec_from_file_location("tournament", BENCH)
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


def test_efficiency_beats_random() -> None:
    t = load_bench()
    bots = ("efficiency", "random", "efficiency", "random")
    rows = t.play_walls(("sichuan/blog5", bots, 0, 60, 3))  # 60 walls × 4 rotations = 240 hands
    # each name sits twice per rotation: average its two columns
    diffs = [(r[0] + r[2]) / 2 - (r[1] + r[3]) / 2 for r in rows]
    mean, ci = t.mean_ci(diffs)
    assert mean - ci > 0, (mean, ci)
