"""`mjrules simulate` end to end: summary, JSON, files, errors, Ctrl-C."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time

import numpy as np
import pyarrow.parquet as pq
from pytest import approx

from interpreter.simulate import read_results
from tests.simulate.conftest import MJRULES, mjrules


def test_json_summary_agrees_with_the_rows(tmp_path):
    out = tmp_path / "r.jsonl"
    result = mjrules(
        "simulate", "sichuan/blog5", "--games", "16", "--seed", "3",
        "--agents", "efficiency,random,efficiency,simple", "--workers", "1",
        "--out", str(out), "--json",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["hands"] == 16 and data["out"] == str(out)
    assert len(out.read_text().splitlines()) == 16
    rows = read_results(out)
    assert data["no_winner_rate"] == approx((rows["n_wins"] == 0).mean())
    assert data["wins"] == rows["n_wins"].sum() > 0
    assert data["self_draw_share"] == approx(rows["self_draws"].sum() / rows["n_wins"].sum())
    assert data["multi_win_rate"] == approx(rows["multi_win"].mean())
    for s, seat in enumerate(data["seats"]):
        assert seat["agent"] == ["efficiency", "random", "efficiency", "simple"][s]
        assert seat["win_rate"] == approx(rows["winners"].map(lambda w, s=s: s in w).mean())
        assert seat["deal_in_rate"] == approx(rows["win_from"].map(lambda f, s=s: s in f).mean())
        assert seat["mean_points"] == approx(rows[f"delta_{s}"].mean(), abs=1e-4)
    deltas = rows[[f"delta_{s}" for s in range(4)]].to_numpy()
    dealer = deltas[range(16), rows["dealer"]]
    edge = dealer - (deltas.sum(axis=1) - dealer) / 3
    assert data["dealer_edge"] == approx(edge.mean(), abs=1e-4)
    assert data["dealer_edge_ci95"] == approx(1.96 * edge.std(ddof=1) / 4, abs=1e-4)
    assert data["dealer"]["win_rate"] == approx(
        np.mean([d in w for d, w in zip(rows["dealer"], rows["winners"], strict=True)])
    )
    moved = deltas.clip(min=0).sum(axis=1)
    assert data["points_moved_p95"] == np.percentile(moved, 95, method="inverted_cdf")
    assert data["claims_per_hand"] == approx(rows["claims"].mean(), abs=1e-4)
    won = rows[rows["n_wins"] > 0]
    assert data["first_win_turn"] == approx(won["first_win_turn"].mean(), abs=1e-4)
    assert (rows.loc[rows["n_wins"] == 0, "first_win_turn"] == 0).all()
    assert (won["first_win_turn"] >= 1).all()
    for name in data["top_hand_types"]:
        assert name["name"] and name["id"]
    assert {t["id"]: t["name"] for t in data["top_hand_types"]}.get("pinghu") == "平胡 / 屁胡"
    # what produced them, in the summary and in every row
    assert data["ruleset"] == "sichuan/blog5" and data["master_seed"] == 3
    assert data["agents"] == ["efficiency", "random", "efficiency", "simple"]
    assert data["options"]["play_mode"] == "until_one_left" and data["preset"] is None
    assert set(rows["ruleset_hash"]) == {data["ruleset_hash"]}
    assert set(rows["agents"]) == {json.dumps(data["agents"])}
    assert set(rows["master_seed"]) == {3} and set(rows["preset"]) == {""}
    assert set(rows["mjrules_version"]) == {data["mjrules_version"]}
    assert [json.loads(o) for o in set(rows["options"])] == [data["options"]]


def test_text_summary_says_what_produced_it():
    result = mjrules("simulate", "changsha/qq2014", "--set", "birds=1", "--games", "8",
                     "--agents", "random,simple,simple,simple", "--workers", "2")  # fmt: skip
    assert result.returncode == 0, result.stderr
    head, bots = result.stdout.splitlines()[:2]
    assert head.startswith("8 hands of changsha/qq2014 (options birds=1; ruleset hash ")
    assert head.endswith(", master seed 1, mjrules 0.1.0")
    assert bots.startswith("bots: seat 0 random, seat 1 simple, seat 2 simple, seat 3 simple;")
    assert "describe these bots" in bots
    for label in ("流局 (no winner)", "自摸 (self-drawn)", "一炮多响", "巡目", "claims per hand",
                  "95th percentile", "dealer edge (庄)", "和了率", "放铳率",
                  "dealer (庄)"):  # fmt: skip
        assert label in result.stdout


def test_default_bots_are_named():
    from dsl.ruleset import load
    from interpreter.agents import expand_agent

    result = mjrules("simulate", "sichuan/blog5", "--games", "4", "--workers", "1")
    assert result.returncode == 0, result.stderr
    tuned = expand_agent("strategy:tuned", load("sichuan/blog5"))  # the parameters shipped
    assert f"bots: {tuned} at every seat;" in result.stdout
    assert "\n0            strategy:…  " in result.stdout  # the seat table cuts parameters
    assert "hand types (share of wins)" in result.stdout
    assert "(pinghu)" in result.stdout and "平胡" in result.stdout


def _fails(*args):
    result = mjrules("simulate", *args)
    assert result.returncode == 1, result
    assert "Traceback" not in result.stderr
    assert result.stdout == ""
    return result.stderr


def test_errors_exit_1_without_traceback(tmp_path):
    # a name given on the command line has no line and column of a file
    said = "nowhere/nothing: error: no ruleset 'nowhere/nothing'\n"
    assert said in _fails("nowhere/nothing", "--games", "2")
    said = "--agents 'random,genius:x=1': unknown agent 'genius'; agents are defensive, "
    assert said in _fails("sichuan/blog5", "--agents", "random,genius:x=1")
    said = "--agents 'simple:,': an empty parameter after 'simple:'; write each agent as NAME"
    assert said in _fails("sichuan/blog5", "--agents", "simple:,")
    assert ".parquet, .csv or .jsonl" in _fails("sichuan/blog5", "--out", str(tmp_path / "r.xls"))
    assert "--games" in _fails("sichuan/blog5", "--games", "-5")
    assert "--games must be at most" in _fails("sichuan/blog5", "--games", str(10**23))
    assert "(64 bits)" in _fails("sichuan/blog5", "--games", "2", "--seed", str(2**63))
    assert "--top" in _fails("sichuan/blog5", "--games", "2", "--top", "-1")
    assert "Dask scheduler" in _fails(
        "sichuan/blog5", "--games", "2", "--scheduler", "tcp://127.0.0.1:9"
    )
    assert not (tmp_path / "r.xls").exists()


def _ctrl_c_as_in_a_terminal() -> None:
    """A suite started in the background (``cmd &``, ``nohup``) ignores SIGINT, and a child
    inherits that; a terminal's Ctrl-C reaches a command that has its default handler."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_keeps_the_finished_hands_in_a_valid_file(tmp_path):
    out = tmp_path / "partial.parquet"
    process = subprocess.Popen(
        [*MJRULES, "simulate", "sichuan/blog5", "--games", "100000", "--agents", "random",
         "--workers", "2", "--chunk", "4", "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        preexec_fn=_ctrl_c_as_in_a_terminal,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        partial = tmp_path / "partial.parquet.partial"  # the finished chunks until the end
        while time.monotonic() < deadline:  # until some chunks are written
            time.sleep(0.5)
            if partial.is_dir() and len(list(partial.glob("rows-*"))) >= 5:
                break
        os.killpg(process.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole group
        _, stderr = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, stderr
    assert "interrupted after" in stderr and "Traceback" not in stderr
    table = pq.read_table(out)
    assert 0 < table.num_rows < 100_000
    assert table.column("index").to_pylist() == list(range(table.num_rows))
