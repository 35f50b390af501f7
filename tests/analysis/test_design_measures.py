"""What became of kongs, decisiveness and the skill reward in ``mjrules compare``: each on
scripted hands with values worked out by hand, in real play against an independent reading
of the event log, and end to end on the command line."""

from __future__ import annotations

import json
from collections import Counter
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from interpreter.compare import (
    decided_by_one_hand,
    estimate,
    hand_table,
    metric_ids,
    metrics,
)
from interpreter.default_agents import ANALYSIS_AGENTS
from interpreter.engine import events as ev
from interpreter.simulate import record
from tests.simulate.conftest import mjrules

BLOG5 = "sichuan/blog5"


# --- what became of kongs ----------------------------------------------------------------


def _win(seat, source, context, *others):
    """A win event of ``seat`` (and ``others`` on the same tile) from ``source``."""
    hands = [{"seat": s, "win_tile": "5m", "hands": [{"id": "plain", "value": 1,
              "class": "small"}], "total": 1} for s in (seat, *others)]  # fmt: skip
    return ev.win([seat, *others], [4], context, hands, source)


def _hand(index, *middle):
    """A scripted hand: dealt, the ``middle`` events, a discard and an end."""
    events = [
        ev.deal([1, 2], ["123m"] * 4, 50),
        ev.discard(index % 4, 0),
        *middle,
        ev.end("win", [0, 0, 0, 0], [], 0, [""] * 4, 20),
    ]
    game = SimpleNamespace(events=events, seed=index, ruleset=SimpleNamespace(id="scripted"))
    result = SimpleNamespace(dealer=0, deltas=(0, 0, 0, 0), reason="win")
    return record(game, result, index, 4)


KONG_HANDS = [
    _hand(0, ev.kong(1, "concealed", None), ev.replacement(1, "tail", [5], []),
          ev.kong(1, "added", 9), ev.replacement(1, "tail", [4], []),
          _win(1, None, ["kong_draw"])),
    _hand(1, ev.kong(2, "added", 4), _win(0, 2, ["robbing_kong"], 3)),
    _hand(2, ev.kong(0, "direct", 7, 3), ev.replacement(0, "tail", [8], []),
          ev.discard(0, 4), _win(3, 0, ["kong_discard", "last_tile"])),
    _hand(3, ev.kong(3, "concealed", 2), ev.replacement(3, "tail", [8], []),
          ev.discard(3, 4), _win(1, 3, [])),
]  # fmt: skip
"""Five kongs in four hands: one won on its draw (杠上开花), one robbed by two seats at once
(抢杠胡, one kong), one whose discard deals in with the last tile (杠上炮), one whose
replacement the ruleset does not count as a kong's (a 补张), so that the deal-in on its
discard is a plain win."""


def test_the_row_counts_each_kong_outcome_from_the_win_context():
    counts = [(r["kongs"], r["kong_draw_wins"], r["kong_discard_wins"], r["robbed_kongs"])
              for r in KONG_HANDS]  # fmt: skip
    assert counts == [(2, 1, 0, 0), (1, 0, 0, 1), (1, 0, 1, 0), (1, 0, 0, 0)]
    assert KONG_HANDS[1]["n_wins"] == 2  # two winners, one robbed kong


def test_kong_outcome_metrics_are_shares_of_kongs_and_rates_per_hand():
    table = hand_table(KONG_HANDS, 4)
    by_id = {m.id: m for m in metrics(4, (table,), {})}
    rng = np.random.default_rng(0)
    expected = {  # 5 kongs in 4 hands, one of each outcome
        "kong_draw_win_share": 1 / 5, "kong_discard_win_share": 1 / 5,
        "robbed_kong_share": 1 / 5, "kong_draw_wins_per_hand": 1 / 4,
        "kong_discard_wins_per_hand": 1 / 4, "robbed_kongs_per_hand": 1 / 4,
    }  # fmt: skip
    for id_, value in expected.items():
        e = estimate(by_id[id_], table, table, rng)
        assert (e.a, e.b, e.diff) == (pytest.approx(value), pytest.approx(value), 0), id_


def test_kong_outcome_metrics_are_shown_only_where_a_hand_has_one():
    none = hand_table(KONG_HANDS[3:], 4)  # a kong, no outcome
    shown = {m.id for m in metrics(4, (none, none), {})}
    assert not shown & {"kong_draw_win_share", "robbed_kongs_per_hand"}
    robbed = hand_table(KONG_HANDS[1:2], 4)
    shown = {m.id for m in metrics(4, (none, robbed), {})}
    assert {"robbed_kong_share", "robbed_kongs_per_hand"} <= shown
    assert "kong_draw_win_share" not in shown


def _follow_kongs(events):
    """Each kong followed to what ends it (the next win, draw or claim), read from the log
    independently of the win's context: won by its owner on the replacement draw; won by
    another seat on its tile before the replacement; dealt in by the owner's next discard."""
    out: Counter[str] = Counter()
    kong = None  # (owner, stage): stage "tile" before the replacement, "draw", "discard"
    for e in events:
        kind = e["type"]
        if kind == "kong":
            kong = (e["seat"], "tile")
        elif kong is None:
            continue
        elif kind == "replacement":
            kong = (kong[0], "draw")
        elif kind == "discard" and kong[1] == "draw" and e["seat"] == kong[0]:
            kong = (kong[0], "discard")
        elif kind == "win":
            owner, stage = kong
            if stage == "tile" and owner not in e["seats"]:
                out["robbed"] += 1
            elif stage == "draw" and e["seats"] == [owner]:
                out["draw"] += 1
            elif stage == "discard" and e["from"] == owner:
                out["discard"] += 1
            kong = None
        elif kind in ("draw", "claim"):
            kong = None
    return out


def test_kong_outcomes_in_play_agree_with_the_kongs_followed_through_the_log():
    """Sichuan 血战 hands of the efficiency bots (the hand goes on after a win, so kongs and
    their outcomes are many): the row's counts equal a walk of the log that never reads a
    win's context."""
    from interpreter.engine.game import Game, run
    from interpreter.simulate import Spec, _prepared, dealer_of, hand_seed, new_agent

    spec = Spec(BLOG5, (), None, 1, ("efficiency",) * 4)
    ruleset, rules = _prepared(BLOG5, (), None)
    seen: Counter[str] = Counter()
    for i in range(48):
        seed = hand_seed(1, i)
        game = Game(ruleset, seed, dealer_of(i, 4), rules=rules, hand=i)
        agents = [new_agent(n, seed * 16 + s, ruleset) for s, n in enumerate(spec.agents)]
        row = record(game, run(game, agents), i, 4)
        walked = _follow_kongs(game.events)
        assert (row["kong_draw_wins"], row["kong_discard_wins"], row["robbed_kongs"]) == (
            walked["draw"], walked["discard"], walked["robbed"]), i  # fmt: skip
        seen += walked
    assert seen["draw"] and seen["discard"], seen  # the sample holds outcomes to check


# --- decisiveness ---------------------------------------------------------------------------

MATCHES = np.array([
    # match 0: seat 0 leads (5, -6, 1, 0) thanks to its 8-point hand; without it seat 1 leads
    [8, -8, 0, 0], [-2, 2, 0, 0], [-1, 0, 1, 0],
    # match 1: seat 0 leads (5, -3, 0, -2) and still leads (2, -2, 1, -1) without its 3-point hand
    [3, -1, -1, -1], [2, -2, 0, 0], [0, 0, 1, -1],
    # match 2: two hands move 4 points; the first is taken out: (4, 0, -4, 0) → (0, 0, -4, 0),
    # the lead is shared (taking out the second would have left seat 0 alone ahead)
    [4, -4, 0, 0], [0, 4, -4, 0], [0, 0, 0, 0],
    # a hand after the last whole match: not used
    [9, -9, 0, 0],
])  # fmt: skip


def test_one_hand_decides_the_first_and_third_of_three_scripted_matches():
    assert decided_by_one_hand(MATCHES, 3).tolist() == [1.0, 0.0, 1.0]
    assert decided_by_one_hand(MATCHES[:2], 3).tolist() == []


def _points(rows):
    return pd.DataFrame(rows, columns=[f"points_{s}" for s in range(4)]).astype(float)


def test_decisiveness_is_compared_match_by_match():
    a = _points(MATCHES[:9])
    b = _points(np.vstack([MATCHES[3:6], MATCHES[3:6], MATCHES[6:9]]))  # decided: 0, 0, 1
    m = {m.id: m for m in metrics(4, (a, b), {}, match_hands=3)}["decisiveness"]
    assert m.label == "decided by one hand (3-hand matches)" and m.unit == "share"
    e = estimate(m, a, b, np.random.default_rng(0))
    assert (e.a, e.b) == (pytest.approx(2 / 3), pytest.approx(1 / 3))
    assert e.low <= e.diff <= e.high
    assert estimate(m, a.head(5), b.head(5), np.random.default_rng(0)) is None  # one match


def test_sweep_knows_the_new_metrics():
    ids = metric_ids(4)
    for id_ in (
        "decisiveness",
        "kong_draw_win_share",
        "kong_discard_wins_per_hand",
        "robbed_kong_share",
        "seat_balance",
        "dealer_edge",
        "dealer_win_edge",
    ):
        assert id_ in ids  # fmt: skip
    assert "skill_reward" not in ids  # compare --skill only


# --- end to end: compare with decisiveness and the skill reward ------------------------------


def test_compare_reports_kong_outcomes_decisiveness_and_the_skill_reward():
    """Doubling the base score doubles every payment and changes no play of these bots: the
    skill reward doubles exactly (efficiency over random, clearly positive on each side),
    while decisiveness stays the same; the figures match a reading of simulate's rows."""
    from interpreter.simulate import simulate

    args = ["compare", BLOG5, "--set-b", "base_score=2", "--games", "48", "--match-hands", "8",
            "--skill", "efficiency,random", "--workers", "1"]  # fmt: skip
    result = mjrules(*args, "--json", timeout=600)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["match_hands"] == 8
    skill = data["skill"]
    assert (skill["strong"], skill["weak"], skill["walls"]) == ("efficiency", "random", 48)
    assert skill["a"]["ci95"][0] > 0 and skill["b"]["ci95"][0] > 0
    assert skill["b"]["points_per_hand"] == pytest.approx(2 * skill["a"]["points_per_hand"])
    effects = {e["metric"]: e for e in data["effects"]}
    reward = effects["skill_reward"]
    assert reward["a"] == pytest.approx(skill["a"]["points_per_hand"], abs=1e-5)
    assert reward["significant"] and reward["ci95"][0] > 0
    assert effects["decisiveness"]["diff"] == 0 and effects["decisiveness"]["method"] == "match"
    # the same hands read from simulate's rows, matches of 8 worked out here
    rows = simulate(BLOG5, games=48, seed=1, agents=ANALYSIS_AGENTS, workers=1, progress=False)
    decided = []
    for start in range(0, 48, 8):
        match = rows.iloc[start : start + 8]
        deltas = match[[f"delta_{s}" for s in range(4)]].to_numpy()
        swing = int(np.argmax(match["points_moved"].to_numpy()))
        before, after = deltas.sum(axis=0), deltas.sum(axis=0) - deltas[swing]
        decided.append(set(np.flatnonzero(before == before.max()))
                       != set(np.flatnonzero(after == after.max())))  # fmt: skip
    assert effects["decisiveness"]["a"] == pytest.approx(np.mean(decided), abs=1e-6)
    kongs = rows["kongs"].sum()
    for id_, column in (
        ("kong_draw_win_share", "kong_draw_wins"),
        ("kong_discard_win_share", "kong_discard_wins"),
    ):
        assert effects[id_]["a"] == pytest.approx(rows[column].sum() / kongs, abs=1e-6)  # fmt: skip

    text = mjrules(*args, timeout=600)  # read back from the results cache
    assert text.returncode == 0, text.stderr
    lines = text.stdout.splitlines()
    assert any(line.startswith("decided by one hand: hands 0–7, 8–15, … are matches (6 a side")
               for line in lines)  # fmt: skip
    assert any(line.startswith("skill reward: efficiency at one seat against 3 random bots")
               for line in lines)  # fmt: skip
    table = {line.split("  ")[0].rstrip(): line for line in lines}
    for label in (
        "decided by one hand (8-hand matches)",
        "skill reward, points per hand",
        "kong-draw wins, share of kongs",
        "deal-ins after a kong per hand",
    ):
        assert label in table, label  # fmt: skip
    assert table["skill reward, points per hand"].endswith(" *")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--skill", "value"], "give two bots, STRONG,WEAK"),
        (["--skill", "random,random"], "the two bots are the same"),
        (["--skill", "value,nobody"], "error: --skill 'value,nobody': unknown agent 'nobody';"),
        (["--skill", "random,,value"], "error: --skill 'random,,value': an empty agent name"),
        (["--match-hands", "1"], "--match-hands must be at least 2"),
    ],
)
def test_bad_skill_or_match_input_is_a_message(args, message):
    from click.testing import CliRunner

    from interpreter.cli import cli

    result = CliRunner().invoke(cli, ["compare", BLOG5, "--games", "4", *args])
    assert result.exit_code == 1 and message in result.output, result.output
    assert "Traceback" not in result.output


def test_skill_alone_pits_the_strongest_bot_against_the_weakest():
    from click.testing import CliRunner

    from interpreter.cli import cli

    args = ["compare", BLOG5, "--games", "2", "--workers", "1", "--no-cache", "--skill", "--json"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    skill = json.loads(result.output[result.output.index("{") :])["skill"]
    assert (skill["strong"], skill["weak"], skill["walls"]) == ("value", "random", 2)


def test_skill_with_tuned_bots_plays_each_sides_own_parameters(tmp_path):
    """Before, ``--skill strategy:tuned,random`` failed ("none is known here"): the bots
    were read without a ruleset.  Each side plays the parameters shipped for its own
    ruleset, as ``--agents strategy:tuned`` does."""
    from click.testing import CliRunner

    from dsl.ruleset import SHIPPED, load
    from interpreter.agents import expand_agent
    from interpreter.cli import cli

    qq = "changsha/qq2014"
    tuned = [expand_agent("strategy:tuned", load(r)) for r in (BLOG5, qq)]
    assert tuned[0] != tuned[1] and all(t.startswith("strategy:") for t in tuned)
    args = ["compare", BLOG5, qq, "--games", "2", "--workers", "1", "--no-cache",
            "--skill", "strategy:tuned,random"]  # fmt: skip
    result = CliRunner().invoke(cli, [*args, "--json"])
    assert result.exit_code == 0, result.output
    skill = json.loads(result.output[result.output.index("{") :])["skill"]
    assert [(skill[s]["strong"], skill[s]["weak"]) for s in "ab"] == [
        (tuned[0], "random"), (tuned[1], "random")]  # fmt: skip
    text = CliRunner().invoke(cli, args)
    assert text.exit_code == 0, text.output
    lines = text.output.splitlines()
    assert f"skill reward: A {tuned[0]} at one seat against 3 random bots" in text.output
    assert any(line.startswith(f"B {tuned[1]} at one seat against 3 random bots")
               for line in lines)  # fmt: skip
    mine = tmp_path / "mine.yaml"  # a ruleset of one's own: no file, the bot's defaults
    mine.write_text((SHIPPED / "changsha" / "qq2014.yaml").read_text(encoding="utf-8"), "utf-8")
    same = CliRunner().invoke(cli, ["compare", str(mine), "--games", "2", "--skill",
                                    "strategy:tuned,strategy"])  # fmt: skip
    assert same.exit_code == 1, same.output
    assert (f"--skill 'strategy:tuned,strategy': the two bots are the same (strategy on {mine})"
            in same.output)  # fmt: skip
