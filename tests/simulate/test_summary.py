"""Rows and summary in the players' terms, and the record of what produced them."""

from __future__ import annotations

import json
import math
from types import SimpleNamespace

import pyarrow.parquet as pq
import pytest

from dsl.ruleset import load
from interpreter.simulate import make_spec, read_results, record, simulate, spec_provenance
from interpreter.summary import PROVENANCE, Summary, hand_figures, provenance, ruleset_hash

SICHUAN, CHANGSHA = "sichuan/blog5", "changsha/qq2014"


def _win(seats, source, value=2):
    return {
        "type": "win", "seats": seats, "tiles": ["5m"] * len(seats), "context": [],
        "from": source,
        "hands": [{"seat": s, "win_tile": "5m", "total": value,
                   "hands": [{"id": "pinghu", "name": "平胡", "class": "fan", "value": 1},
                             {"id": "gen", "name": "根", "class": "bonus", "value": 0}]}
                  for s in seats],
    }  # fmt: skip


def _discard(seat, **extra):
    return {"type": "discard", "seat": seat, "tile": "9s", **extra}


def _record(events, deltas=(0, 0, 0, 0), dealer=0):
    events = [{"type": "start"}, *events, {"type": "end", "wall": 3}]
    game = SimpleNamespace(events=events, seed=5, ruleset=SimpleNamespace(id="x/y"))
    result = SimpleNamespace(dealer=dealer, reason="one_left", deltas=list(deltas))
    return record(game, result, 0, 4)


def test_two_self_draws_are_not_a_multiple_win():
    rec = _record([_discard(0), _win([1], None), _discard(2), _win([3], None)], (-4, 2, 0, 2))
    assert rec["self_draws"] == 2 and rec["multi_win"] is False
    assert rec["win_hands"] == [["pinghu"], ["pinghu"]]  # the 0-value bonus left out


def test_two_deal_ins_at_different_times_are_not_a_multiple_win():
    rec = _record([_discard(0), _win([1], 0), _discard(0), _win([3], 0)], (-4, 2, 0, 2))
    assert rec["win_from"] == [0, 0] and rec["multi_win"] is False


def test_two_wins_on_one_discard_are_a_multiple_win():
    rec = _record([_discard(0), _win([1, 3], 0)], (-4, 2, 0, 2))
    assert rec["winners"] == [1, 3] and rec["multi_win"] is True


def test_first_win_turn_counts_the_first_winners_own_discards():
    events = [
        _discard(0), _discard(1), _discard(2),
        _discard(2, claimable=False),  # a kong tile put aside: not a turn
        _discard(3), _discard(0), _discard(1), _discard(2), _win([1], 2), _discard(3),
        _win([3], None),
    ]  # fmt: skip
    rec = _record(events, (1, 4, -2, -3))
    assert rec["first_win_turn"] == 3  # seat 1 discarded twice, won in its third turn
    assert rec["points_moved"] == 5
    assert _record([_win([0], None)], (3, -1, -1, -1))["first_win_turn"] == 1  # 天胡
    assert _record([_discard(0)])["first_win_turn"] == 0  # nobody won


def test_callers_are_the_seats_with_an_open_meld():
    def claim(seat, kind, source):
        return {"type": "claim", "seat": seat, "kind": kind, "tile": "5m", "from": source}

    events = [
        _discard(0), claim(2, "pung", 0), _discard(2), claim(3, "chow", 2), _discard(3),
        claim(3, "kong", 1),  # a second call: still one seat
        claim(1, "kong", 1),  # a kong again with its own kong tile: not a call
        _discard(1), _win([0], 1),
    ]  # fmt: skip
    rec = _record(events)
    assert rec["callers"] == [2, 3] and rec["claims"] == 4
    assert hand_figures(rec, 4).called == (False, False, True, True)
    assert hand_figures({**rec, "callers": []}, 4).called == (False,) * 4


def _row(dealer, winners, win_from, deltas, **extra):
    row = {
        "dealer": dealer, "winners": winners, "win_from": win_from, "n_wins": len(winners),
        "self_draws": win_from.count(-1), "multi_win": False,
        "win_hands": [["pinghu"]] * len(winners),
        "first_win_turn": 4 if winners else 0, "claims": 2, "discards": 40, "end": "wall",
        "points_moved": sum(d for d in deltas if d > 0),
        **{f"delta_{s}": d for s, d in enumerate(deltas)},
    }  # fmt: skip
    return {**row, **extra}


def test_summary_figures_worked_by_hand():
    about = provenance(load(SICHUAN), ["efficiency"] * 4, 1, None)
    summary = Summary(about, {"pinghu": "平胡"})
    summary.add([
        _row(0, [1], [0], [-2, 2, 0, 0]),  # seat 0 deals (and deals in)
        _row(1, [1, 2], [-1, 0], [-6, 4, 2, 0]),  # 血战: the dealer self-draws, then seat 2 wins
        _row(2, [], [], [0, 0, 0, 0]),  # 流局
        _row(3, [3], [-1], [-3, -3, -3, 9]),  # the dealer self-draws
    ])  # fmt: skip
    d = summary.to_json()
    assert d["no_winner_rate"] == 0.25
    assert d["wins"] == 4 and d["self_draw_share"] == 0.5
    assert [s["win_rate"] for s in d["seats"]] == [0, 0.5, 0.25, 0.25]
    assert [s["deal_in_rate"] for s in d["seats"]] == [0.5, 0, 0, 0]
    assert [s["mean_points"] for s in d["seats"]] == [-2.75, 0.75, -0.25, 2.25]
    # the dealer's points -2, 4, 0, 9: squared deviations from 2.75 sum to 70.75
    assert d["dealer"] == pytest.approx(
        {"win_rate": 0.5, "deal_in_rate": 0.25, "mean_points": 2.75,
         "mean_points_ci95": 1.96 * math.sqrt(70.75 / 3) / 2}, abs=1e-4,
    )  # fmt: skip
    # per hand: -2 - 2/3, 4 - (-4)/3, 0, 9 - (-9)/3
    edges = [-8 / 3, 16 / 3, 0, 12]
    assert d["dealer_edge"] == pytest.approx(sum(edges) / 4, abs=1e-4)
    assert d["first_win_turn"] == 4 and d["claims_per_hand"] == 2
    assert d["points_moved_mean"] == 4.25 and d["points_moved_p95"] == 9  # of 2, 6, 0, 9
    assert d["top_hand_types"] == [{"id": "pinghu", "name": "平胡", "count": 4, "per_win": 1.0}]
    assert "平胡 (pinghu)" in summary.to_text()


def test_the_ruleset_hash_follows_the_rules_not_the_file():
    blog5 = load(SICHUAN)
    assert ruleset_hash(blog5) == ruleset_hash(load(blog5.path))  # by id or by path
    assert ruleset_hash(load(CHANGSHA, settings=["birds=0"])) != ruleset_hash(load(CHANGSHA))
    assert ruleset_hash(load(CHANGSHA, settings=["birds=2"])) == ruleset_hash(load(CHANGSHA))
    assert len({ruleset_hash(load(r)) for r in (SICHUAN, CHANGSHA, "changsha/basic")}) == 3


@pytest.mark.parametrize("ext", ["parquet", "csv", "jsonl"])
def test_every_row_set_records_what_produced_it(tmp_path, ext):
    path = tmp_path / f"r.{ext}"
    df = simulate(CHANGSHA, 3, 9, "simple", workers=1, out=path, progress=False,
                  settings=["birds=0"], preset=None)  # fmt: skip
    spec, _ = make_spec(CHANGSHA, 9, "simple", ["birds=0"])
    about = spec_provenance(spec)
    assert list(about) == list(PROVENANCE)
    assert json.loads(about["options"])["birds"] == 0
    assert json.loads(about["agents"]) == ["simple"] * 4 and about["master_seed"] == "9"
    back = read_results(path)
    for frame in (df, back):
        for key, value in about.items():
            expected = int(value) if key == "master_seed" else value
            assert list(frame[key]) == [expected] * 3, key
    if ext == "parquet":
        stored = pq.read_schema(path).metadata
        assert {k: stored[k.encode()].decode() for k in about} == about
