"""`mjrules play` and `mjrules replay` end to end."""

import json
import subprocess
import sys

MJRULES = [sys.executable, "-c", "from interpreter.cli import main; main()"]


def run(*args):
    return subprocess.run([*MJRULES, *args], capture_output=True, text=True, timeout=120)


def test_play_writes_a_log_that_replays(tmp_path):
    log = tmp_path / "game.jsonl"
    played = run("play", "sichuan/blog5", "--seed", "5", "--hands", "2", "--log", str(log))
    assert played.returncode == 0, played.stderr
    assert "== hand 1" in played.stdout and "== hand 2" in played.stdout
    assert "scores:" in played.stdout
    assert played.stdout.splitlines()[-1] == "bots: efficiency"  # the default
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
        (["play", "sichuan/blog5", "--agents", "genius"], "unknown agent 'genius'"),
        (["play", "sichuan/blog5", "--agents", "random,simple"], "2 agents for 4 seats"),
        (["replay", "missing.jsonl"], "cannot read missing.jsonl"),
    ]:
        result = run(*args)
        assert result.returncode == 1, args
        assert message in result.stderr
        assert "Traceback" not in result.stderr
