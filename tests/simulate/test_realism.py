"""bench/realism.py: its figures agree with counts made independently from the hands."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest

from bench import realism
from dsl.ruleset import load
from interpreter.compare import Estimate
from interpreter.engine.game import Game, run
from interpreter.simulate import dealer_of, hand_seed, make_spec, new_agent, simulate

SICHUAN = "sichuan/blog5"


def test_hand_type_families_follow_replaces() -> None:
    types = realism.families(load(SICHUAN))
    # blog5: 清对, 清七对 and 清幺九 replace 清一色 in settlement, yet are one-suit wins
    assert types["qingyise"] == {"qingyise", "qingdui", "qingqidui", "qingyaojiu"}
    assert types["qixiaodui"] == {"qixiaodui", "longqidui", "qingqidui"}
    assert types["pinghu"] == {"pinghu"}  # the plain win alone, though every type replaces it


def test_figures_agree_with_counts_from_the_hands() -> None:
    games, seed = 24, 7
    ruleset = load(SICHUAN)
    rows = simulate(SICHUAN, games, seed, "efficiency", workers=1, progress=False)
    rows = rows.to_dict("records")
    fig = realism.figures(rows, 4, realism.families(ruleset))

    # calls counted from each hand's events, played again as simulate plays hand i
    spec, _ = make_spec(SICHUAN, seed, "efficiency")
    calls = 0
    for i in range(games):
        s = hand_seed(seed, i)
        agents = [new_agent(a, s * 16 + k, ruleset) for k, a in enumerate(spec.agents)]
        game = Game(ruleset, s, dealer_of(i, 4), hand=i)
        run(game, agents)
        calls += len({e["seat"] for e in game.events
                      if e["type"] == "claim" and e["kind"] in ("pung", "chow", "kong")
                      and e["from"] != e["seat"]})  # fmt: skip
    wins = sum(len(r["winners"]) for r in rows)
    expected = {
        "no_winner": sum(not r["winners"] for r in rows) / games,
        "wins": wins / games,
        "win_rate": sum(len(set(r["winners"])) for r in rows) / (4 * games),
        "deal_in_rate": sum(len({f for f in r["win_from"] if f >= 0}) for r in rows) / (4 * games),
        "call_rate": calls / (4 * games),
        "self_draw_share": sum(r["win_from"].count(-1) for r in rows) / wins,
        "first_win_turn": np.mean([r["first_win_turn"] for r in rows if r["winners"]]),
        "type:duiduihu": sum(
            bool({"duiduihu", "qingdui", "jiangdui"} & set(w)) for r in rows for w in r["win_hands"]
        )
        / wins,
    }
    assert wins > games and calls > 0  # several wins a hand in 血战, and calls to count
    for key, value in expected.items():
        assert fig[key].estimate.b == pytest.approx(value), key
    # the interval of a share of hands: the normal one over hands
    won = np.array([len(set(r["winners"])) / 4 for r in rows])
    half = 1.96 * won.std(ddof=1) / math.sqrt(games)
    e = fig["win_rate"].estimate
    assert (e.low, e.high) == pytest.approx((won.mean() - half, won.mean() + half), rel=1e-3)


def test_bots_are_placed_against_the_reference_by_their_intervals() -> None:
    def run_of(bot, low, high):
        figure = realism.Figure(
            "win_rate", "", "share", Estimate(0, (low + high) / 2, low, high, 0)
        )
        return realism.Run(bot, {"win_rate": figure}, 10, 1.0, 1.0, "x")

    runs = [
        run_of("random", 0.0, 0.01),  # left out
        run_of("efficiency", 0.22, 0.24),
        run_of("value", 0.20, 0.22),
        run_of("strategy:defence=0", 0.30, 0.32),
        run_of("defensive", 0.10, 0.12),
    ]
    assert realism.where(runs, "win_rate", 0.21, 0.21) == "2 above, 1 within, 1 below"


def test_the_command_prints_a_table_per_ruleset(capsys) -> None:
    realism.main(["--hands", "4", "--bots", "random,simple", "hunan/hongzhong"])
    out = capsys.readouterr().out
    assert "### hunan/hongzhong: 4 hands a bot, seed 1" in out
    rows = [line for line in out.splitlines() if line.startswith("| 放铳率")]
    # hunan/hongzhong is self-draw only: nobody deals in (simple counted, random not)
    assert len(rows) == 1 and rows[0].split("|")[4:7] == [" 12.5% ", " ↓ ", " 1 below "]
    with pytest.raises(SystemExit, match="--bots 'nobody': unknown agent 'nobody'"):
        realism.main(["--hands", "4", "--bots", "nobody", "hunan/hongzhong"])


def test_tuned_bots_play_each_rulesets_own_parameters(capsys) -> None:
    """Before, ``--bots strategy:tuned`` failed ("none is known here"): the bots were read
    without a ruleset.  Each ruleset's table plays the parameters shipped for it, as
    ``mjrules simulate --agents strategy:tuned`` does."""
    from interpreter.agents import expand_agent

    rulesets = ["hunan/hongzhong", SICHUAN]
    tuned = [expand_agent("strategy:tuned", load(r)) for r in rulesets]
    assert tuned[0] != tuned[1] and all(t.startswith("strategy:") for t in tuned)
    realism.main(["--hands", "2", "--bots", "strategy:tuned,random", *rulesets])
    out = capsys.readouterr().out
    heads = [line for line in out.splitlines() if line.startswith("| figure |")]
    assert [h.split(" | ")[1:3] for h in heads] == [[t, "random"] for t in tuned]


def test_a_tuned_bot_without_shipped_parameters_is_said(capsys, tmp_path) -> None:
    """A ruleset of one's own has no shipped file: its ``strategy:tuned`` plays the
    defaults, and realism.py says so as ``mjrules simulate`` does."""
    from dsl.ruleset import SHIPPED

    mine = tmp_path / "mine.yaml"
    mine.write_text((SHIPPED / "hunan" / "hongzhong.yaml").read_text("utf-8"), "utf-8")
    realism.main(["--hands", "2", "--bots", "strategy:tuned", str(mine), "hunan/hongzhong"])
    said = capsys.readouterr().err
    assert (f"mjrules: note: no tuned parameters of the strategy bot are shipped for {mine}: "
            "it plays its defaults") in said and said.count("note:") == 1  # fmt: skip


def test_out_names_a_bot_with_parameters_by_a_short_hash(capsys, tmp_path) -> None:
    """Before, a run's file was named by the bot's parameters written out, and a bot with
    many (a tuned one, or given in full) made a name over the 255 bytes a file name may
    have: ``--out`` failed with "File name too long".  The name is short, the same for the
    same inputs and another for other parameters; the rows name the bot in full."""
    import json

    import pandas as pd

    from interpreter.agents import PARAMS

    full = "strategy:" + ",".join(
        f"{k}={p.low + 0.123456789:.9f}" for k, p in PARAMS["strategy"].items()
    )
    bots = [full, full.replace("hazard=0.123456789", "hazard=0.5")]
    out, hongzhong = tmp_path / "out", "hunan/hongzhong"
    args = ["--hands", "2", "--bots", ",".join(bots), "--out", str(out), hongzhong]
    realism.main(args)
    paths = [out / f"{realism.run_name(hongzhong, bot, 1, 2)}.parquet" for bot in bots]
    assert sorted(out.glob("*.parquet")) == sorted(paths) and paths[0] != paths[1]
    for bot, path in zip(bots, paths, strict=True):
        assert set(pd.read_parquet(path)["agents"]) == {json.dumps([bot] * 4)}
        assert json.loads(Path(f"{path}.json").read_text("utf-8"))["bot"] == bot
    capsys.readouterr()
    realism.main(args)
    assert capsys.readouterr().err.count("resuming from") == 2  # the same names found again
    assert len(f"{SICHUAN}-{full}-1-4800.parquet.partial") > 255
    name = realism.run_name(SICHUAN, full, 1, 4800)
    assert name.startswith("sichuan_blog5-strategy_") and len(name) < 60
    assert realism.run_name(SICHUAN, full, 1, 4800) == name  # stable
    assert realism.run_name(SICHUAN, full.replace("=0.1", "=0.2", 1), 1, 4800) != name
    assert realism.run_name(SICHUAN, "value", 1, 4800) == "sichuan_blog5-value-1-4800"


def test_two_bots_that_are_one_once_read_are_refused(capsys, tmp_path) -> None:
    """Before, ``--bots strategy:tuned,strategy`` on a ruleset with no shipped file played
    the strategy bot's defaults twice, two columns of one bot.  It is refused naming the
    ruleset, as ``compare --skill`` refuses it, before a hand of any ruleset is played."""
    from dsl.ruleset import SHIPPED

    mine = tmp_path / "mine.yaml"
    mine.write_text((SHIPPED / "hunan" / "hongzhong.yaml").read_text("utf-8"), "utf-8")
    said = (f"--bots 'strategy:tuned,strategy': the two bots are the same (strategy on "
            f"{mine})")  # fmt: skip
    with pytest.raises(SystemExit, match=re.escape(said)):
        realism.main(["--hands", "2", "--bots", "strategy:tuned,strategy", "hunan/hongzhong",
                      str(mine)])  # fmt: skip
    assert "| figure |" not in capsys.readouterr().out
    with pytest.raises(SystemExit, match=re.escape("two bots are the same (random on")):
        realism.main(["--hands", "2", "--bots", "random,simple,random", "hunan/hongzhong"])
