"""`mjrules play --human`: a person's game, scripted through a pipe and in a real terminal."""

import os
import subprocess
import sys
from pathlib import Path

import pexpect

from interpreter.engine.events import read_log

MJRULES = [sys.executable, "-c", "from interpreter.cli import main; main()"]
REPO = Path(__file__).resolve().parents[2]
GAME = ["play", "sichuan/blog5", "--human", "南", "--seed", "3", "--agents", "efficiency"]


def run(args, answers):
    return subprocess.run(
        [*MJRULES, *args], input=answers, capture_output=True, text=True, timeout=300, cwd=REPO
    )


def test_piped_game_hides_others_tiles_offers_claims_and_settles(tmp_path):
    log = tmp_path / "mine.jsonl"
    result = run([*GAME, "--log", str(log)], "x\n?\n" + "1\n" * 200)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "? 'x': give a number" in out  # a wrong answer is asked again
    assert "chances within 6 own draws" in out  # ? printed the advice
    deal = out.split("dice ", 1)[1].split("---", 1)[0]
    assert "南1庄:" in deal and "东0:" not in deal and "西2:" not in deal  # only one's own hand
    assert "西2 draws\n" in out  # others' draws are told without their tile
    assert "东0 discarded 🀐  1s: claim it?\n1) pung (碰) 🀐1s  2) pass" in out  # offered in time
    assert "南1庄 pungs 🀐 from 东0" in out  # and taken (answer 1)
    assert "settlement of the hand:" in out
    assert "北3 pays 上家 西2 2  (平胡 / 屁胡 1" in out  # each payment with its reasons
    assert out.rstrip().endswith("scores: 东0 -1  南1 -4  西2 +6  北3 -1")
    acts = [e for e in read_log(str(log)) if e["type"] == "act" and e["seat"] == 1]
    assert acts[0]["action"] == {"kind": "discard", "tile": "4m"}  # answer 1: the first listed
    replay = subprocess.run(
        [*MJRULES, "replay", str(log), "--quiet"], capture_output=True, text=True, cwd=REPO
    )
    assert replay.returncode == 0 and "every event the same" in replay.stdout


def test_a_tile_name_discards_it_and_a_claim_may_be_passed():
    named = run(GAME, "9s\n" + "1\n" * 200).stdout
    assert "南1庄 discards 🀘" in named.split("choose a number", 2)[1]
    taken = run(GAME, "1\n" * 200).stdout
    before = taken.split("claim it?", 1)[0].count("choose a number")  # answers before it
    passed = run(GAME, "1\n" * before + "2\n" + "1\n" * 200)
    assert passed.returncode == 0, passed.stderr
    assert "南1庄 pungs 🀐 from 东0" in taken and "南1庄 pungs" not in passed.stdout


def test_input_ending_or_quitting_leaves_with_exit_1():
    ended = run(GAME, "1\n")
    assert ended.returncode == 1
    assert "game abandoned: the input ended before the game did" in ended.stderr
    quit_ = run(GAME, "q\n")
    assert quit_.returncode == 1 and "left the game" in quit_.stderr
    bad = run([*GAME[:2], "--human", "中"], "")
    assert bad.returncode == 1 and "seat '中'" in bad.stderr and "Traceback" not in bad.stderr
    both = run([*GAME, "--json"], "")
    assert both.returncode == 1 and "--json does not go with it" in both.stderr


def test_in_a_real_terminal(tmp_path):
    log = tmp_path / "tty.jsonl"
    env = {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "160"}
    child = pexpect.spawn(
        sys.executable,
        ["-c", "from interpreter.cli import main; main()", *GAME, "--log", str(log)],
        env=env, cwd=str(REPO), encoding="utf-8", timeout=120,
    )  # fmt: skip
    child.expect("your hand: .*4669m 1357p 113479s")
    child.expect("choose a number")
    child.sendline("?")
    child.expect("discard 4m: 3 from ready")  # the advice's recommendation and reason
    child.sendline("4m")
    child.expect("南1庄 discards 🀊")
    claims = 0
    while child.expect(["claim it\\?", "choose a number", "scores: .*\r\n"]) != 2:
        if child.after.startswith("claim"):
            claims += 1
            child.expect("choose a number")
        child.sendline("1")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert claims >= 1
    replay = subprocess.run(
        [*MJRULES, "replay", str(log), "--quiet"], capture_output=True, text=True, cwd=REPO
    )
    assert replay.returncode == 0, replay.stderr
