"""The statistics of ``mjrules compare`` on synthetic paired hands, where the truth is known:
no effect is flagged more often than the nominal rate, intervals cover a known difference
about 95% of the time, and the per-hand values total to the summary's summary."""

from __future__ import annotations

import math

import numpy as np
import pytest

from interpreter.compare import (
    _p95,
    adjust,
    bootstrap_effect,
    hand_table,
    holm,
    mean_effect,
    metrics,
    paired_effects,
    ratio_effect,
)
from interpreter.summary import Summary
from tests.analysis.synthetic import PLAYERS, rows, walls


def _within(rate: float, nominal: float, reps: int) -> tuple[float, float]:
    """Three binomial standard errors either side of ``nominal``."""
    e = 3 * math.sqrt(nominal * (1 - nominal) / reps)
    return nominal - e, nominal + e


def test_holm_worked_by_hand():
    # sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 = 0.02, 0.03, 0.06, 0.04 -> running max
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.5, 0.9]) == [1.0, 1.0] and holm([]) == []


def test_no_effect_is_flagged_at_most_at_the_nominal_rate():
    """A and B drawn alike on shared walls (a ruleset against itself, with noise): over 200
    repetitions, Holm's marks appear in at most 5% of them (family-wise), and each metric's
    own test rejects at about its 5% level, not far less (the tests are not merely timid)."""
    rng, reps = np.random.default_rng(2024), 200
    any_flag, raw = 0, []
    for r in range(reps):
        w = walls(rng, 150)
        a, b = hand_table(rows(rng, w), PLAYERS), hand_table(rows(rng, w), PLAYERS)
        effects = paired_effects(a, b, metrics(PLAYERS, (a, b), {}), seed=r, resamples=200)
        adjust(effects)
        any_flag += any(e.significant for e in effects)
        raw.append(
            {e.metric.id: e.estimate.p <= 0.05 for e in effects if e.estimate.low < e.estimate.high}
        )
    ids = {k for r in raw for k in r}
    rates = {k: np.mean([r[k] for r in raw if k in r]) for k in ids}
    assert any_flag / reps <= _within(0, 0.05, reps)[1]
    assert max(rates.values()) <= 0.05 + 4 * math.sqrt(0.05 * 0.95 / reps), rates  # of 20
    assert 0.03 <= np.mean([rates[k] for k in ids if k not in ("points_moved_max",)]) <= 0.07


def _covers(estimate, truth: float) -> bool:
    return estimate.low <= truth <= estimate.high


def test_mean_intervals_cover_a_known_difference_at_95_percent():
    """Per-hand points on shared walls, B shifted by 0.3 on average: 1,000 studies."""
    rng, reps, truth = np.random.default_rng(7), 1000, 0.3
    hits = 0
    for _ in range(reps):
        wall = rng.normal(0, 2, 200)
        a = wall + rng.normal(0, 1, 200)
        b = wall + truth + rng.normal(0, 1.5, 200)
        hits += _covers(mean_effect(a, b), truth)
    low, high = _within(0, 0.95, reps)
    assert low <= hits / reps <= high


def test_share_intervals_cover_a_known_difference_at_95_percent():
    """Wins per hand 0, 1 or 2, each self-drawn with chance 0.30 under A and 0.38 under B:
    the 自摸 share differs by 0.08.  1,000 studies."""
    rng, reps = np.random.default_rng(8), 1000
    hits = 0
    for _ in range(reps):
        wins = rng.choice([0, 1, 2], p=[0.2, 0.6, 0.2], size=300)
        u = rng.random((300, 2))
        own_a, own_b = rng.random((300, 2)), rng.random((300, 2))
        shared = rng.random((300, 2)) < 0.6  # the wall decides most self-draws for both
        ua, ub = np.where(shared, u, own_a), np.where(shared, u, own_b)
        slots = np.arange(2) < wins[:, None]
        xa, xb = ((ua < 0.30) & slots).sum(1), ((ub < 0.38) & slots).sum(1)
        e = ratio_effect(xa, wins, xb, wins)
        hits += _covers(e, 0.08)
    low, high = _within(0, 0.95, reps)
    assert low <= hits / reps <= high


def test_percentile_intervals_cover_a_known_difference():
    """Points moved exponential with mean 1 under A and 1.5 under B, paired through a shared
    uniform: the 95th percentiles differ by 0.5·ln 20.  200 studies of 400 hands (the
    bootstrap's coverage is only asymptotically 95%)."""
    rng, reps, truth = np.random.default_rng(9), 200, 0.5 * math.log(20)
    hits = 0
    for _ in range(reps):
        u = rng.random(400)
        ua = np.where(rng.random(400) < 0.5, u, rng.random(400))
        ub = np.where(rng.random(400) < 0.5, u, rng.random(400))
        e = bootstrap_effect(-np.log1p(-ua), -1.5 * np.log1p(-ub), _p95, rng, 300)
        hits += _covers(e, truth)
    assert 0.89 <= hits / reps <= 0.99


def test_the_per_hand_values_total_to_the_summarys_figures():
    """One definition: the means of the comparison's per-hand values are the summary's."""
    rng = np.random.default_rng(3)
    hands = rows(rng, walls(rng, 300))
    summary = Summary({"agents": '["x", "x", "x", "x"]'})
    summary.add([{**r, "end": "wall"} for r in hands])
    table = hand_table(hands, PLAYERS)
    assert table["no_winner"].mean() == summary.no_winner / summary.hands
    assert table["self_draws"].sum() / table["wins"].sum() == summary.self_draws / summary.wins
    assert table["edge"].mean() == pytest.approx(summary.edge.mean)
    assert table["turn"].sum() / table["won_any"].sum() == pytest.approx(
        summary.first_win_turn.mean
    )
    for s in range(PLAYERS):
        assert table[f"won_{s}"].sum() == summary.seats[s].won
        assert table[f"dealt_in_{s}"].sum() == summary.seats[s].dealt_in
    assert table["moved"].mean() == pytest.approx(
        sum(v * n for v, n in summary.moved.items()) / 300
    )
    assert _p95(table["moved"].to_numpy()[None])[0] == summary.percentile_moved(0.95)
    assert table["type:b"].sum() / table["wins"].sum() == summary.hand_types["b"] / summary.wins


def _tactics_table(rng, walls: int, shift: float, cols: list[str]):
    """Per-wall points of each value: the wall's luck shared by all, each value's own noise,
    the last value ``shift`` points better."""
    import pandas as pd

    luck = rng.normal(0, 3, walls)
    table = {c: luck + rng.normal(0, 1.5, walls) for c in cols}
    table[cols[-1]] = table[cols[-1]] + shift
    return pd.DataFrame(table)


def test_tactics_without_an_effect_are_marked_at_most_at_the_nominal_rate():
    """Three values of a policy that all pay the same, 400 studies of 60 walls: Holm's marks
    over the two differences appear in at most about 5% of the studies."""
    from interpreter.tactics import Policy, policy_rows

    rng, reps = np.random.default_rng(12), 400
    policy = Policy("kong_policy", ("no_worse", "always", "never"))
    cols = [policy.agent("efficiency", v) for v in policy.values]
    flagged = 0
    for _ in range(reps):
        rows = policy_rows(_tactics_table(rng, 60, 0.0, cols), [policy], "efficiency")
        effects = [r.effect for r in rows if r.effect is not None]
        adjust(effects)
        flagged += any(e.significant for e in effects)
    assert flagged / reps <= _within(0, 0.05, reps)[1]
    assert flagged > 0  # not a test that cannot mark


def test_tactics_intervals_cover_a_known_difference_at_95_percent():
    """The last value pays 0.4 points a hand more: its paired interval covers 0.4, and each
    value's own interval covers its true mean, about 95% of the time (1,000 studies)."""
    from interpreter.tactics import Policy, policy_rows

    rng, reps = np.random.default_rng(13), 1000
    policy = Policy("defence", ("0", "1"))
    cols = [policy.agent("defensive", v) for v in policy.values]
    paired = own = 0
    for _ in range(reps):
        first, better = policy_rows(_tactics_table(rng, 80, 0.4, cols), [policy], "defensive")
        paired += _covers(better.effect.estimate, 0.4)
        own += _covers(better.points, 0.4)
        assert first.effect is None and better.effect.estimate.a == first.points.b
    low, high = _within(0, 0.95, reps)
    assert low <= paired / reps <= high and low <= own / reps <= high
