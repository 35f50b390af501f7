"""Results you can reuse: a run keeps its rows under its inputs, and a later run with the same
inputs reads them instead of playing; any other input plays."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from interpreter import simulate
from interpreter.compare import Run, Setting, compare, sweep
from tests.simulate.conftest import mjrules

QQ = "changsha/qq2014"
A, B = Setting(QQ, ("birds=0",)), Setting(QQ)


def _no_play(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("played hands the cache holds")

    monkeypatch.setattr(simulate, "run_to", refuse)


def _compare(games=10, seed=3, cache=None):
    where = Run(workers=1, progress=False, cache=cache)
    return compare(A, B, games, seed, "random", where).to_json()


def test_a_comparison_is_read_back_not_played(tmp_path, monkeypatch):
    played, fewer = _compare(cache=tmp_path), _compare(games=6)
    assert len(list(tmp_path.glob("*.parquet"))) == 2  # one table per side
    meta = json.loads(next(tmp_path.glob("*.json")).read_text())
    inputs = meta["inputs"]
    assert inputs["ruleset"] == QQ and len(inputs["ruleset_hash"]) == 16
    assert json.loads(inputs["agents"]) == ["random"] * 4 and inputs["master_seed"] == "3"
    assert {"options", "preset", "mjrules_version", "code"} <= set(inputs)
    assert meta["rows"] == 10
    _no_play(monkeypatch)
    assert _compare(cache=tmp_path) == played
    assert _compare(games=6, cache=tmp_path) == fewer  # the first hands of the run


@pytest.mark.parametrize(
    "other",
    [{"seed": 4}, {"games": 12}],
    ids=["another seed", "more hands than kept"],
)
def test_other_inputs_are_played(tmp_path, monkeypatch, other):
    _compare(cache=tmp_path)
    _no_play(monkeypatch)
    with pytest.raises(AssertionError, match="played hands the cache holds"):
        _compare(cache=tmp_path, **other)


def test_a_sweep_reuses_the_reference_and_each_setting(tmp_path, monkeypatch):
    def run():
        return sweep(B, ["birds=0"], 8, 2, "random",
                     run=Run(workers=1, progress=False, cache=tmp_path)).to_json()  # fmt: skip

    played = run()
    _no_play(monkeypatch)
    assert run() == played


@pytest.mark.parametrize(
    "damage",
    [
        lambda meta, table: meta.write_text("{"),
        lambda meta, table: meta.write_text("[]"),
        lambda meta, table: meta.write_text(meta.read_text().replace('"rows": 10', '"rows": "10"')),
        lambda meta, table: pd.DataFrame({"a": range(10)}).to_parquet(table),
    ],
    ids=["cut", "a list", "rows as text", "another table"],
)
def test_a_damaged_file_is_played_again(tmp_path, damage):
    played = _compare(cache=tmp_path)
    for meta in tmp_path.glob("*.json"):
        damage(meta, meta.with_suffix(".parquet"))
    assert _compare(cache=tmp_path) == played
    assert all(json.loads(p.read_text())["rows"] == 10 for p in tmp_path.glob("*.json"))


def test_the_command_keeps_results_unless_told_not_to(tmp_path):
    args = ["compare", QQ, "--set-a", "birds=0", "--games", "4", "--agents", "random",
            "--workers", "1"]  # fmt: skip
    none = mjrules(*args, "--no-cache", "--cache", str(tmp_path / "unused"))
    assert none.returncode == 0, none.stderr
    assert not (tmp_path / "unused").exists()
    kept = mjrules(*args, "--cache", str(tmp_path / "kept"))
    assert kept.stdout == none.stdout and len(list((tmp_path / "kept").glob("*.parquet"))) == 2
    again = mjrules(*args, "--cache", str(tmp_path / "kept"))
    assert again.stdout == none.stdout
    assert f"4 hands of {QQ} read from the results in {tmp_path / 'kept'}" in again.stderr
