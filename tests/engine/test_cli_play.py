"""`mjrules play` and `mjrules replay` end to end."""

import json
import subprocess
import sys

from dsl.ruleset import load
from handcore.tiles import STANDARD
from interpreter.agents import expand_agent

MJRULES = [sys.executable, "-c", "from interpreter.cli import main; main()"]


def run(*args):
    return subprocess.run([*MJRULES, *args], capture_output=True, text=True, timeout=120)


def test_play_writes_a_log_that_replays(tmp_path):
    log = tmp_path / "game.jsonl"
    played = run("play", "sichuan/blog5", "--seed", "5", "--hands", "2", "--log", str(log))
    assert played.returncode == 0, played.stderr
    assert "== hand 1" in played.stdout and "== hand 2" in played.stdout
    assert "scores:" in played.stdout
    default = expand_agent("strategy:tuned", load("sichuan/blog5"))
    assert played.stdout.splitlines()[-1] == f"bots: {default}"  # the parameters shipped
    replayed = run("replay", str(log))
    assert replayed.returncode == 0, replayed.stderr
    assert replayed.stdout.startswith(played.stdout.split("scores:")[0].rstrip("\n"))
    assert "replayed 2 hand(s)" in replayed.stdout


def test_same_seed_same_log_bytes(tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for path in (a, b):
        assert run("play", "changsha/qq2014", "--seed", "11", "--log", str(path)).returncode == 0
    assert a.read_bytes() == b.read_bytes()


def test_a_tampered_log_does_not_replay(tmp_path):
    log = tmp_path / "game.jsonl"
    run("play", "changsha/qq2014", "--seed", "11", "--agents", "random", "--log", str(log))
    lines = log.read_text().splitlines()
    events = [json.loads(line) for line in lines]
    index = next(i for i, e in enumerate(events) if e["type"] == "discard")
    events[index]["tile"] = "9s" if events[index]["tile"] != "9s" else "1m"
    log.write_text("\n".join(json.dumps(e, ensure_ascii=False) for e in events) + "\n")
    result = run("replay", str(log), "--quiet")
    assert result.returncode == 1
    assert "does not replay" in result.stderr
    assert "Traceback" not in result.stderr


def test_json_result_and_bad_input():
    data = json.loads(run("play", "sichuan/blog5", "--hands", "3", "--json").stdout)
    assert len(data["hands"]) == 3 and sum(data["scores"]) == 0
    for args, message in [
        (["play", "no/such"], "no ruleset 'no/such'"),
        (["play", "sichuan/blog5", "--agents", "genius"], "--agents 'genius': unknown agent"),
        (["play", "sichuan/blog5", "--agents", "random,simple"], "2 agents for 4 seats"),
        (["replay", "missing.jsonl"], "cannot read missing.jsonl"),
    ]:
        result = run(*args)
        assert result.returncode == 1, args
        assert message in result.stderr
        assert "Traceback" not in result.stderr


RELATION = {1: "下家", 2: "对家", 3: "上家"}
WIND = "东南西北"


def test_play_and_replay_read_as_at_the_table(tmp_path):
    log = tmp_path / "game.jsonl"
    played = run("play", "changsha/qq2014", "--seed", "7", "--set", "birds=4", "--log", str(log))
    assert played.returncode == 0, played.stderr
    events = [json.loads(line) for line in log.read_text().splitlines()]
    start = events[0]
    dealer = f"{WIND[start['dealer']]}{start['dealer']}"
    lines = played.stdout.splitlines()
    # Only the option set differs from the defaults, written as --set takes it.
    assert lines[0] == f"== hand 1: changsha/qq2014 (birds=4); 庄 {dealer}"
    assert f"  {dealer}庄: " in played.stdout
    for event in events:
        if event["type"] == "payment":
            payer, payee = event["from"], event["to"]
            marked = {
                s: f"{WIND[s]}{s}" + ("庄" if s == start["dealer"] else "") for s in (payer, payee)
            }
            expected = (
                f"  {marked[payer]} pays {RELATION[(payee - payer) % 4]} {marked[payee]} "
                f"{event['amount']}  ("
            )
            assert any(line.startswith(expected) for line in lines), expected
    win = next(e for e in events if e["type"] == "win")["hands"][0]
    shown = lines.index(next(line for line in lines if " wins " in line))
    assert lines[shown + 1].startswith("  hand ")  # the winning hand follows the win
    told = lines[shown + 1].removeprefix("  hand ").split(",")[0]
    assert sorted(STANDARD.parse(told)) == sorted(STANDARD.parse(win["hand"]))
    assert all(f" {h['name']} 0" not in played.stdout for h in win["hands"])
    replayed = run("replay", str(log))
    assert replayed.stdout.startswith(played.stdout.split("scores:")[0].rstrip("\n"))


def test_zero_value_lines_are_left_out_of_text_but_kept_in_json(tmp_path):
    scenario = tmp_path / "gen.yaml"
    scenario.write_text(
        "ruleset: sichuan/blog5\ndealer: 0\nwins:\n  - seat: 1\n"
        '    hand: "123p 456p 789s 234s 55s"\n    win_tile: 5s\n    from: 2\n'
    )
    text = run("settle", str(scenario)).stdout
    data = json.loads(run("settle", str(scenario), "--json").stdout)
    zero = [h["name"] for h in data["wins"][0]["hands"] if h["value"] == 0]
    assert zero and all(f"{name} 0;" not in text.split("payments")[0] for name in zero)
    assert data["wins"][0]["hand"] == "123456p 23455789s" and data["wins"][0]["melds"] == []
    assert "win       南1 on 5s from 西2: 平胡 / 屁胡 1; total 1" in text
    assert "hand 123p 456p 234s 789s 55s" in text
    assert "  西2 pays 上家 南1 1  (" in text


def test_a_declaration_is_told_by_its_name_and_logged_by_its_id(tmp_path):
    """中途四喜 (house/changsha_sixi) in the text as hand types are, by its Chinese name; the
    log keeps the id (random agents, seed 2: a seat draws a fourth tile)."""
    log = tmp_path / "game.jsonl"
    args = ("house/changsha_sixi", "--seed", "2", "--agents", "random", "--log", str(log))
    played = run("play", *args)
    assert played.returncode == 0, played.stderr
    lines = [line for line in played.stdout.splitlines() if " declares 中途四喜 with " in line]
    assert lines and "zhongtu_sixi" not in played.stdout
    events = [json.loads(line) for line in log.read_text().splitlines()]
    declared = [e["name"] for e in events if e["type"] == "declaration"]
    assert declared == ["zhongtu_sixi"] * len(lines)
    replayed = run("replay", str(log))
    assert replayed.returncode == 0, replayed.stderr
    assert [line for line in replayed.stdout.splitlines() if " declares 中途四喜 " in line] == lines
