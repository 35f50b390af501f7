"""`mjrules simulate` end to end: summary, JSON, files, errors, Ctrl-C."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time

import pyarrow.parquet as pq

from tests.simulate.conftest import MJRULES, mjrules


def test_json_summary(tmp_path):
    out = tmp_path / "r.jsonl"
    result = mjrules(
        "simulate", "sichuan/blog5", "--games", "12", "--seed", "3", "--agents", "random",
        "--workers", "1", "--out", str(out), "--json",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["hands"] == 12 and data["out"] == str(out)
    assert 0 <= data["win_rate"] <= 1 and abs(data["win_rate"] + data["draw_rate"] - 1) < 1e-9
    assert len(data["mean_points"]) == 4 and "ci95" in data["mean_points"][0]
    assert {"dealer_win_rate", "dealer_mean_points", "mean_length", "top_hand_types"} <= set(data)
    assert len(out.read_text().splitlines()) == 12


def test_text_summary_with_settings():
    result = mjrules("simulate", "changsha/qq2014", "--set", "birds=1", "--games", "8",
                     "--agents", "random,simple,simple,simple", "--workers", "2")  # fmt: skip
    assert result.returncode == 0, result.stderr
    for label in ("win rate", "draw rate", "self-draw share", "dealer win rate",
                  "dealer mean points", "mean hand length", "seat 3"):  # fmt: skip
        assert label in result.stdout


def _fails(*args):
    result = mjrules("simulate", *args)
    assert result.returncode == 1, result
    assert "Traceback" not in result.stderr
    assert result.stdout == ""
    return result.stderr


def test_errors_exit_1_without_traceback(tmp_path):
    assert "no ruleset 'nowhere/nothing'" in _fails("nowhere/nothing", "--games", "2")
    assert "unknown agent 'genius'" in _fails("sichuan/blog5", "--agents", "genius")
    assert ".parquet, .csv or .jsonl" in _fails("sichuan/blog5", "--out", str(tmp_path / "r.xls"))
    assert "--games" in _fails("sichuan/blog5", "--games", "-5")
    assert "Dask scheduler" in _fails(
        "sichuan/blog5", "--games", "2", "--scheduler", "tcp://127.0.0.1:9"
    )
    assert not (tmp_path / "r.xls").exists()


def test_ctrl_c_keeps_the_finished_hands_in_a_valid_file(tmp_path):
    out = tmp_path / "partial.parquet"
    process = subprocess.Popen(
        [*MJRULES, "simulate", "sichuan/blog5", "--games", "100000", "--agents", "random",
         "--workers", "2", "--chunk", "4", "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
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
