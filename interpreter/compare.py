"""What a rule does: two settings played on the same walls by the same bots, compared hand by hand.

``simulate`` deals hand *i* from a seed derived from the master seed and *i* alone, so two
rulesets of the same tiles (or one ruleset under two option sets) play the same walls and
each hand gives a pair of outcomes (common random numbers).  Every metric is the figure of
:mod:`interpreter.summary`, built from its per-hand definition (:func:`hand_figures`), and its
effect is the paired difference B − A with a 95% confidence interval from the pairs:

- a rate or a mean per hand: the mean of the per-hand differences, normal interval;
- a share of wins (自摸, a hand type) or the mean turn of the first win: a ratio of two sums,
  linearised hand by hand (delta method), then as a mean;
- the spread, the 95th percentile and the maximum of the points moved, and the seat
  balance: a paired bootstrap interval (the same hands resampled for A and B, percentile
  interval), the p-value from a paired randomisation test (A and B swapped at random in
  each hand);
- decisiveness, a share of matches (consecutive hands, :func:`decided_by_one_hand`): the
  same bootstrap and randomisation test with matches for hands;
- the skill reward (``compare --skill``): per wall, the points a strong bot gains over a
  weak one in duplicate format (:func:`skill_gains`), a mean per wall.

A mark flags an effect whose p-value stays under 5% after Holm's correction for the number
of effects reported, so that all the marks together are wrong with probability at most 5%.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

import numpy as np

from interpreter.duplicate import LOCAL, Run, Setting, duplicate_table, reused
from interpreter.summary import bots_text, hand_figures, option_text, pad, text_width

if TYPE_CHECKING:
    import pandas as pd

    from dsl.ruleset import Ruleset

ALPHA = 0.05
Z95 = 1.959963984540054
BOOTSTRAP = 1000
"""Resamples of the paired bootstrap."""
_BATCH = 2_000_000
"""Resampled values held at once by the bootstrap (memory stays flat for many hands)."""


# --- the effects: statistics on paired per-hand values ----------------------------------------


@dataclass(frozen=True)
class Estimate:
    """A paired difference ``b − a`` with its 95% interval and two-sided p-value."""

    a: float
    b: float
    low: float
    high: float
    p: float

    @property
    def diff(self) -> float:
        return self.b - self.a


def _normal(a: float, b: float, d: np.ndarray) -> Estimate:
    """``b − a`` estimated by the mean of the per-hand differences ``d``."""
    n = len(d)
    se = float(np.std(d, ddof=1) / math.sqrt(n)) if n > 1 else math.nan
    diff = b - a
    if not se > 0:  # every hand the same difference (often none): nothing is uncertain
        return Estimate(a, b, diff, diff, 1.0 if diff == 0 else 0.0)
    return Estimate(a, b, diff - Z95 * se, diff + Z95 * se, _two_sided(diff / se))


def _two_sided(z: float) -> float:
    """The two-sided normal p-value of ``z``."""
    return math.erfc(abs(z) / math.sqrt(2))


def mean_effect(xa: np.ndarray, xb: np.ndarray) -> Estimate:
    """The difference of the means of a per-hand value, from the paired hands."""
    xa, xb = np.asarray(xa, float), np.asarray(xb, float)
    return _normal(float(xa.mean()), float(xb.mean()), xb - xa)


def ratio_effect(xa: np.ndarray, ya: np.ndarray, xb: np.ndarray, yb: np.ndarray) -> Estimate | None:
    """The difference of ``Σx / Σy`` (e.g. self-draws over wins), the ratio linearised hand by
    hand: ``(x − R·y) / ȳ``.  None when a side has ``Σy = 0`` (the share is undefined)."""
    xa, ya, xb, yb = (np.asarray(v, float) for v in (xa, ya, xb, yb))
    if not ya.sum() or not yb.sum():
        return None
    (ra, za), (rb, zb) = _linearised(xa, ya), _linearised(xb, yb)
    return _normal(ra, rb, zb - za)


def _linearised(x: np.ndarray, y: np.ndarray) -> tuple[float, np.ndarray]:
    """``R = Σx / Σy`` and its per-hand linearisation ``(x − R·y) / ȳ``, whose mean's
    standard error is R's (the delta method)."""
    r = float(x.sum() / y.sum())
    return r, (x - r * y) / y.mean()


def mean_interval(x: np.ndarray) -> Estimate:
    """One sample's mean per hand with its 95% interval (``b``, ``low``, ``high``)."""
    x = np.asarray(x, float)
    return _normal(0.0, float(x.mean()), x)


def ratio_interval(x: np.ndarray, y: np.ndarray) -> Estimate | None:
    """``Σx / Σy`` of one sample with its 95% interval; None when ``Σy = 0``."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    if not y.sum():
        return None
    r, z = _linearised(x, y)
    return _normal(0.0, r, z)


def bootstrap_effect(
    xa: np.ndarray,
    xb: np.ndarray,
    stat: Callable[[np.ndarray], np.ndarray],
    rng: np.random.Generator,
    resamples: int = BOOTSTRAP,
) -> Estimate:
    """The difference of ``stat`` (a spread, a quantile, a maximum) between paired hands.

    ``stat`` maps hands stacked as (resamples, hands) — or (resamples, hands, columns) when
    each hand has a row of values — to one value per resample.  The interval is the paired
    bootstrap's (hands resampled with the same indices for A and B, percentile interval).
    The p-value is a paired randomisation test's: under "the rule changes nothing" the two
    outcomes of a hand are exchangeable, so A and B are swapped in each hand at random; it
    holds its level whatever ``stat`` is, where the bootstrap's does not (a maximum).  The
    interval is widened to hold the estimate where the percentiles miss it (a maximum)."""
    xa, xb = np.asarray(xa, float), np.asarray(xb, float)
    n = len(xa)
    a, b = float(stat(xa[None])[0]), float(stat(xb[None])[0])
    diff = b - a
    boot, swapped = [], []
    width = max(1, int(np.prod(xa.shape[1:])))
    batch = max(1, _BATCH // max(1, n * width))
    for start in range(0, resamples, batch):
        size = min(batch, resamples - start)
        idx = rng.integers(0, n, size=(size, n))
        boot.append(stat(xb[idx]) - stat(xa[idx]))
        swap = (rng.random((size, n)) < 0.5).reshape((size, n) + (1,) * (xa.ndim - 1))
        swapped.append(stat(np.where(swap, xa, xb)) - stat(np.where(swap, xb, xa)))
    d, t = np.concatenate(boot), np.concatenate(swapped)
    if diff == 0:
        p = 1.0
    else:
        p = float((1 + np.count_nonzero(np.abs(t) >= abs(diff) * (1 - 1e-9))) / (1 + len(t)))
    low, high = np.quantile(d, [0.025, 0.975])
    return Estimate(a, b, min(float(low), diff), max(float(high), diff), p)


def resamples_for(family: int) -> int:
    """Resamples enough for a randomisation p-value to pass Holm's first step among ``family``
    effects (its smallest value is 1 / (resamples + 1))."""
    return max(BOOTSTRAP, math.ceil(family / ALPHA))


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values: reject where ``adjusted <= alpha`` and the chance of
    any false mark among them all stays at most ``alpha``."""
    order = sorted(range(len(pvalues)), key=lambda i: pvalues[i])
    m, running = len(pvalues), 0.0
    adjusted = [1.0] * m
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


# --- the metrics ---------------------------------------------------------------------------


def _p95(x: np.ndarray) -> np.ndarray:
    """The 95th percentile by nearest rank, as the summary's."""
    return np.quantile(x, 0.95, axis=-1, method="inverted_cdf")


def _sd(x: np.ndarray) -> np.ndarray:
    return x.std(axis=-1, ddof=1)


def _max(x: np.ndarray) -> np.ndarray:
    return x.max(axis=-1)


def _range_of_means(x: np.ndarray) -> np.ndarray:
    """The largest less the smallest column mean (hands along axis -2)."""
    means = x.mean(axis=-2)
    return means.max(axis=-1) - means.min(axis=-1)


@dataclass(frozen=True)
class Metric:
    """A figure compared: ``kind`` 'mean' (of ``columns[0]`` per hand), 'ratio'
    (``Σcolumns[0] / Σcolumns[1]``), 'bootstrap' (``stat`` of the columns) or 'match' (the
    mean of the per-match values ``stat`` makes of the hands' columns); ``unit`` 'share'
    (shown in %, differences in percentage points), 'points' or 'count'."""

    id: str
    label: str
    en: str
    unit: str
    kind: str
    columns: tuple[str, ...]
    stat: Callable[[np.ndarray], np.ndarray] | None = None


def hand_table(rows: Sequence[Mapping[str, Any]], players: int) -> pd.DataFrame:
    """One row of numbers per hand: the per-hand values every metric is built from."""
    import pandas as pd

    out = []
    for r in rows:
        h = hand_figures(r, players)
        d, others = h.dealer, players - 1
        v: dict[str, float] = {
            "no_winner": h.no_winner, "wins": h.wins, "self_draws": h.self_draws,
            "multi_win": h.multi_win, "edge": h.edge,
            "dealer_win_edge": h.won[d] - (sum(h.won) - h.won[d]) / others,
            "won_any": h.first_win_turn is not None, "turn": h.first_win_turn or 0,
            "claims": h.claims, "kongs": r["kongs"], "bird_hits": r["bird_hits"],
            "opening": bool(r["opening_seats"]), "moved": h.moved,
        }  # fmt: skip
        for c in KONG_OUTCOMES:  # rows written before these columns existed count none
            v[c] = r.get(c, 0)
        for s in range(players):
            v[f"won_{s}"] = h.won[s]
            v[f"dealt_in_{s}"] = h.dealt_in[s]
            v[f"from_dealer_{s}"] = h.won[(d + s) % players]
            v[f"points_{s}"] = h.points[s]
        for t, n in h.hand_types.items():
            v[f"type:{t}"] = n
        out.append(v)
    return pd.DataFrame(out).fillna(0.0).astype(float)


KONG_OUTCOMES = ("kong_draw_wins", "kong_discard_wins", "robbed_kongs")
"""The row columns of what became of kongs (``interpreter.simulate.record``)."""

_WHERE_SEEN = (
    Metric("kong_draw_win_share", "kong-draw wins, share of kongs",
           "wins on a kong's replacement draw, share of kongs", "share", "ratio",
           ("kong_draw_wins", "kongs")),
    Metric("kong_draw_wins_per_hand", "kong-draw wins per hand",
           "wins on a kong's replacement draw per hand", "count", "mean", ("kong_draw_wins",)),
    Metric("kong_discard_win_share", "deal-ins after a kong, share of kongs",
           "wins on the discard right after a kong, share of kongs", "share", "ratio",
           ("kong_discard_wins", "kongs")),
    Metric("kong_discard_wins_per_hand", "deal-ins after a kong per hand",
           "wins on the discard right after a kong per hand", "count", "mean",
           ("kong_discard_wins",)),
    Metric("robbed_kong_share", "robbed kongs, share of kongs",
           "kongs robbed (won on the kong's tile), share of kongs", "share", "ratio",
           ("robbed_kongs", "kongs")),
    Metric("robbed_kongs_per_hand", "robbed kongs per hand", "kongs robbed per hand",
           "count", "mean", ("robbed_kongs",)),
    Metric("bird_hits_per_hand", "birds hit per hand (中鸟)", "birds hit per hand", "count",
           "mean", ("bird_hits",)),
    Metric("opening_rate", "hands with an opening hand", "hands with an opening hand",
           "share", "mean", ("opening",)),
)  # fmt: skip
"""Metrics shown only where some hand has them (rulesets without birds or opening hands,
bots that never win on a kong)."""


SKILL_COLUMN = "skill_gain"
"""The column of a per-hand table that holds, for wall *i*, the points per hand the strong
bot gains over the weak one on it (:func:`skill_gains`)."""
SKILL = Metric("skill_reward", "skill reward, points per hand",
               "skill reward (strong bot's gain over the weak one), points per hand", "points",
               "mean", (SKILL_COLUMN,))  # fmt: skip


def match_hands_default(players: int) -> int:
    """Hands in a match when none is given: four rounds (圈) of deals, every seat dealing four
    times (16 hands for four players)."""
    return 4 * players


def decided_by_one_hand(points: np.ndarray, hands: int) -> np.ndarray:
    """Per match of ``hands`` consecutive hands (rows of ``points``, a column per seat; the
    hands left over after the last whole match are not used): 1 when the leaders (the seats
    with the most points over the match) are not the same once the match's largest-swing
    hand is taken out, else 0.  The largest swing is the most points moved (the sum of the
    gains), the first such hand on a tie."""
    points = np.asarray(points, float)
    matches = len(points) // hands
    p = points[: matches * hands].reshape(matches, hands, points.shape[1])
    totals = p.sum(axis=1)
    swing = np.clip(p, 0, None).sum(axis=2).argmax(axis=1)
    without = totals - p[np.arange(matches), swing]
    leaders = totals == totals.max(axis=1, keepdims=True)
    after = without == without.max(axis=1, keepdims=True)
    return (leaders != after).any(axis=1).astype(float)


def _mean(x: np.ndarray) -> np.ndarray:
    return x.mean(axis=-1)


def metrics(
    players: int,
    tables: Sequence[pd.DataFrame],
    names: Mapping[str, str],
    match_hands: int | None = None,
) -> list[Metric]:
    """The metrics of a comparison, in the order shown; kong outcomes, birds, opening hands and
    hand types only where some hand of ``tables`` has them, the skill reward where every
    table has its column (``compare --skill``).  Decisiveness is over matches of
    ``match_hands`` hands (:func:`match_hands_default` when None)."""
    position = [f"from_dealer_{s}" for s in range(players)]
    match = match_hands or match_hands_default(players)
    ms = [
        Metric("no_winner", "流局 (no winner; drawishness)", "no winner (draw)", "share", "mean",
               ("no_winner",)),
        Metric("wins_per_hand", "wins per hand", "wins per hand", "count", "mean", ("wins",)),
        *(Metric(f"win_rate_{s}", f"和了率 seat {s}", f"win rate, seat {s}", "share", "mean",
                 (f"won_{s}",)) for s in range(players)),
        *(Metric(f"deal_in_rate_{s}", f"放铳率 seat {s}", f"deal-in rate, seat {s}", "share",
                 "mean", (f"dealt_in_{s}",)) for s in range(players)),
        Metric("self_draw_share", "自摸 share of wins", "self-drawn share of wins", "share",
               "ratio", ("self_draws", "wins")),
        Metric("multi_win_rate", "一炮多响 (multiple win)", "multiple win", "share", "mean",
               ("multi_win",)),
        Metric("dealer_edge", "dealer edge (庄), points", "dealer edge", "points", "mean",
               ("edge",)),
        Metric("dealer_win_edge", "dealer 和了率 less the others'", "dealer win-rate edge",
               "share", "mean", ("dealer_win_edge",)),
        Metric("seat_balance", "balance: 和了率 range, seats from 庄", "seat balance "
               "(win-rate range by seat from dealer)", "share", "bootstrap", tuple(position),
               _range_of_means),
        Metric("decisiveness", f"decided by one hand ({match}-hand matches)",
               f"matches decided by one hand ({match} hands a match)", "share", "match",
               tuple(f"points_{s}" for s in range(players)),
               partial(decided_by_one_hand, hands=match)),
        *([SKILL] if tables and all(SKILL_COLUMN in t for t in tables) else []),
        Metric("points_moved_mean", "points moved, mean", "points moved, mean", "points",
               "mean", ("moved",)),
        Metric("points_moved_sd", "points moved, spread (SD)", "points moved, SD", "points",
               "bootstrap", ("moved",), _sd),
        Metric("points_moved_p95", "points moved, 95th percentile", "points moved, P95",
               "points", "bootstrap", ("moved",), _p95),
        Metric("points_moved_max", "points moved, maximum", "points moved, max", "points",
               "bootstrap", ("moved",), _max),
        Metric("first_win_turn", "first win, turn (巡目)", "turn of first win", "count",
               "ratio", ("turn", "won_any")),
        Metric("claims_per_hand", "claims per hand", "claims per hand", "count", "mean",
               ("claims",)),
        Metric("kongs_per_hand", "kongs per hand", "kongs per hand", "count", "mean",
               ("kongs",)),
    ]  # fmt: skip
    seen = {c for t in tables for c in t.columns[t.to_numpy().any(axis=0)]}
    ms += [m for m in _WHERE_SEEN if m.columns[0] in seen]
    counts: dict[str, float] = {}
    for t in tables:
        for c in t.columns:
            if c.startswith("type:"):
                counts[c] = counts.get(c, 0.0) + float(t[c].sum())
    for c in sorted(counts, key=lambda c: (-counts[c], c)):
        id_ = c.removeprefix("type:")
        ms.append(Metric(f"hand_type:{id_}", f"{names.get(id_, id_)} ({id_}), share of wins",
                         f"{id_}, share of wins", "share", "ratio", (c, "wins")))  # fmt: skip
    return ms


def estimate(
    metric: Metric,
    a: pd.DataFrame,
    b: pd.DataFrame,
    rng: np.random.Generator,
    resamples: int = BOOTSTRAP,
) -> Estimate | None:
    """The paired effect of one metric (None when it is undefined on a side)."""

    def cols(t: pd.DataFrame) -> list[np.ndarray]:
        return [t[c].to_numpy(float) if c in t else np.zeros(len(t)) for c in metric.columns]

    ca, cb = cols(a), cols(b)
    if metric.kind == "match":
        assert metric.stat is not None
        ma, mb = (metric.stat(np.stack(c, axis=1)) for c in (ca, cb))
        if len(ma) < 2:  # fewer than two whole matches: no interval
            return None
        return bootstrap_effect(ma, mb, _mean, rng, resamples)
    if metric.kind == "mean":
        return mean_effect(ca[0], cb[0])
    if metric.kind == "ratio":
        return ratio_effect(ca[0], ca[1], cb[0], cb[1])
    assert metric.stat is not None
    if len(ca) == 1:
        return bootstrap_effect(ca[0], cb[0], metric.stat, rng, resamples)
    return bootstrap_effect(np.stack(ca, axis=1), np.stack(cb, axis=1), metric.stat, rng, resamples)


@dataclass
class Effect:
    metric: Metric
    estimate: Estimate
    adjusted_p: float = 1.0

    @property
    def significant(self) -> bool:
        return self.adjusted_p <= ALPHA

    def to_json(self) -> dict[str, Any]:
        e = self.estimate
        return {
            "metric": self.metric.id, "label": self.metric.label, "unit": self.metric.unit,
            "a": _num(e.a), "b": _num(e.b), "diff": _num(e.diff), "ci95": [_num(e.low),
            _num(e.high)], "p": e.p, "p_holm": self.adjusted_p,
            "significant": self.significant, "method": self.metric.kind,
        }  # fmt: skip


def paired_effects(
    a: pd.DataFrame,
    b: pd.DataFrame,
    chosen: Sequence[Metric],
    seed: int = 0,
    resamples: int = BOOTSTRAP,
) -> list[Effect]:
    """The effect B − A of each metric on the paired per-hand tables (row i of each is hand i),
    without Holm's adjustment (:func:`adjust`)."""
    if len(a) != len(b):
        raise ValueError(f"paired tables differ in length: {len(a)} and {len(b)} hands")
    rng = np.random.default_rng(seed)
    out = []
    for m in chosen:
        e = estimate(m, a, b, rng, resamples)
        if e is not None:
            out.append(Effect(m, e))
    return out


def adjust(effects: Sequence[Effect]) -> None:
    """Holm's correction over all ``effects`` together."""
    for effect, p in zip(effects, holm([e.estimate.p for e in effects]), strict=True):
        effect.adjusted_p = p


# --- running: the same walls under two settings --------------------------------------------


def play(
    setting: Setting,
    games: int,
    seed: int,
    agents: str,
    run: Run = LOCAL,
) -> tuple[pd.DataFrame, dict[str, str], Ruleset]:
    """Simulate ``games`` hands (``simulate``'s machinery, seeds and workers) and return their
    per-hand table, their provenance and the loaded ruleset.  Rows become numbers chunk by
    chunk, so memory holds a few numbers per hand.  With a ``cache`` folder the table is
    read from there when a run of the same inputs kept it, and kept there otherwise
    (:mod:`interpreter.results`)."""
    import pandas as pd

    from interpreter import results
    from interpreter import simulate as sim
    from interpreter.engine.rules import Rules

    spec, loaded = sim.make_spec(setting.ruleset, seed, agents, setting.settings, setting.preset)
    about = sim.spec_provenance(spec)
    if run.cache is not None:
        kept = results.load(run.cache, "hands", about, games)
        if kept is not None:
            reused(f"{games:,} hands of {about['ruleset']}", run)
            return kept, about, loaded
    players = Rules(loaded).players
    parts: list[pd.DataFrame] = []

    def keep(rows: list[dict[str, Any]]) -> None:
        parts.append(hand_table(rows, players))

    sim.run_to(spec, games, players, keep, run.workers, run.scheduler, None, run.progress,
               run.chunk)  # fmt: skip
    table = pd.concat(parts, ignore_index=True).fillna(0.0)  # hand types a chunk did not see
    if run.cache is not None:
        results.store(run.cache, "hands", about, table)
    return table, about, loaded


def _enough(games: int) -> None:
    if games < 2:
        raise ValueError(f"--games must be at least 2 to compare, not {games}")


def _changed(ruleset: Ruleset) -> dict[str, Any]:
    return {n: o.value for n, o in ruleset.options.items() if o.value != o.default}


def _same_walls(a: Ruleset, b: Ruleset) -> bool:
    from interpreter.engine.rules import Rules

    return Rules(a).all_tiles == Rules(b).all_tiles


def check_pairable(a: Ruleset, b: Ruleset) -> None:
    """Per-seat figures are compared seat by seat: the two need the same number of seats."""
    from interpreter.engine.rules import Rules

    pa, pb = Rules(a).players, Rules(b).players
    if pa != pb:
        raise ValueError(f"{a.id} has {pa} seats and {b.id} {pb}: compare rulesets of as many")


# --- skill reward: the strong bot against the weak one, in duplicate format -----------------


def parse_skill(text: str, ruleset: Ruleset) -> tuple[str, str]:
    """``STRONG,WEAK`` (each a bot, with its parameters as in ``--agents``) as the two bots
    played on ``ruleset``: ``BOT:tuned`` reads the parameters shipped for it, as ``--agents``
    does, so each side of a comparison plays its own."""
    from interpreter.simulate import refuse_same, split_agents

    names = split_agents(text, ruleset, flag="--skill")
    if len(names) != 2 or not all(names):
        raise ValueError(f"--skill {text!r}: give two bots, STRONG,WEAK")
    refuse_same(names, text, ruleset, "--skill")
    return names[0], names[1]


def skill_gains(
    setting: Setting, strong: str, weak: str, walls: int, seed: int, run: Run
) -> np.ndarray:
    """Per wall (hand *i* as ``simulate`` deals it): the points per hand ``strong`` makes at
    one seat against ``weak`` bots, over every seat in turn, less what ``weak`` makes in the
    same seats (duplicate format, :func:`interpreter.duplicate.duplicate_table`)."""
    table, _, _ = duplicate_table(setting, (strong, weak), weak, walls, seed, run)
    return (table[strong] - table[weak]).to_numpy(float)


@dataclass(frozen=True)
class Skill:
    """What the strong bot gains over the weak one per hand, on each side (B − A is the
    ``skill_reward`` effect).  ``bots``: each side's (strong, weak) as played, which differ
    when ``BOT:tuned`` reads each ruleset's own parameters."""

    bots: tuple[tuple[str, str], tuple[str, str]]
    walls: int
    sides: tuple[Estimate, Estimate]

    def to_json(self) -> dict[str, Any]:
        (strong, weak), _ = self.bots
        return {
            "strong": strong, "weak": weak, "walls": self.walls,
            **{side: {"strong": bots[0], "weak": bots[1], "points_per_hand": _num(e.b),
                      "ci95": [_num(e.low), _num(e.high)]}
               for side, bots, e in zip("ab", self.bots, self.sides, strict=True)},
        }  # fmt: skip

    def to_text(self, players: int) -> list[str]:
        a, b = (f"{e.b:+.2f} [{e.low:+.2f}, {e.high:+.2f}]" for e in self.sides)

        def played(strong: str, weak: str) -> str:
            return (f"{strong} at one seat against {players - 1} {weak} bots, in every seat, "
                    f"on the {self.walls:,} walls, less {weak} in its place")  # fmt: skip

        if self.bots[0] == self.bots[1]:
            head = [f"skill reward: {played(*self.bots[0])}:"]
        else:  # BOT:tuned reads each ruleset's own parameters
            head = [f"skill reward: A {played(*self.bots[0])};", f"B {played(*self.bots[1])}:"]
        return [*head, f"A {a}, B {b} points per hand (95% CIs)"]


@dataclass
class Comparison:
    """The effects of B against A and what produced them."""

    about: tuple[dict[str, str], dict[str, str]]
    changed: tuple[dict[str, Any], dict[str, Any]]
    games: int
    shared_walls: bool
    effects: list[Effect] = field(default_factory=list)
    match_hands: int = 16
    skill: Skill | None = None

    def to_json(self) -> dict[str, Any]:
        first = self.about[0]
        return {
            **{side: {**_side_json(about), "agents": json.loads(about["agents"])}
               for side, about in zip("ab", self.about, strict=True)},
            "hands": self.games, "master_seed": int(first["master_seed"]),
            "agents": json.loads(first["agents"]), "mjrules_version": first["mjrules_version"],
            "shared_walls": self.shared_walls, "correction": "holm", "alpha": ALPHA,
            "match_hands": self.match_hands,
            "skill": None if self.skill is None else self.skill.to_json(),
            "effects": [e.to_json() for e in self.effects],
        }  # fmt: skip

    def to_text(self) -> str:
        a, b = self.about
        bots = bots_text(json.loads(a["agents"]))
        if b["agents"] != a["agents"]:  # strategy:tuned reads each ruleset's own parameters
            bots = f"A {bots}; B {bots_text(json.loads(b['agents']))}"
        head = [
            f"A: {_side_text(a, self.changed[0])}",
            f"B: {_side_text(b, self.changed[1])}",
            f"{self.games:,} hands each, master seed {a['master_seed']}, "
            + ("the same walls (paired hand by hand)" if self.shared_walls else
               "different tile sets: no common walls (hands paired by index only)")
            + f", mjrules {a['mjrules_version']}",
            f"bots: {bots}; the figures describe these bots playing these rules",
            "B − A: the difference with its 95% confidence interval from the paired hands;",
            f"* significant at 5% after Holm's correction for {len(self.effects)} effects",
        ]  # fmt: skip
        k = self.match_hands
        if any(e.metric.id == "decisiveness" for e in self.effects):
            head += [
                f"decided by one hand: hands 0–{k - 1}, {k}–{2 * k - 1}, … are matches "
                f"({self.games // k:,} a side, paired by index);",
                "one hand decides a match when taking out its largest swing (most points moved) "
                "changes the leaders",
            ]
        if self.skill is not None:
            head += self.skill.to_text(len(json.loads(a["agents"])))
        return "\n".join([*head, "", *effects_table(self.effects)])


def _side_json(about: Mapping[str, str]) -> dict[str, Any]:
    return {
        "ruleset": about["ruleset"], "ruleset_hash": about["ruleset_hash"],
        "options": json.loads(about["options"]), "preset": about["preset"] or None,
    }  # fmt: skip


def _side_text(about: Mapping[str, str], changed: Mapping[str, Any]) -> str:
    options = ", ".join(f"{k}={option_text(v)}" for k, v in changed.items())
    preset = f"preset {about['preset']}, " if about["preset"] else ""
    return (
        f"{about['ruleset']} ({preset}{'options ' + options if options else 'default options'}; "
        f"ruleset hash {about['ruleset_hash']})"
    )


def compare(
    a: Setting,
    b: Setting,
    games: int,
    seed: int,
    agents: str,
    run: Run = LOCAL,
    *,
    match_hands: int | None = None,
    skill: str | None = None,
) -> Comparison:
    """Play ``games`` hands of A and of B on the same walls and compare them metric by metric
    (with a ``cache`` folder, reusing the hands a run of the same inputs kept there).

    ``match_hands``: the hands of a match for decisiveness (:func:`match_hands_default`
    when None).  ``skill``: ``STRONG,WEAK``, two bots also played on the same walls of each
    side in duplicate format (:func:`skill_gains`; the players + 1 seatings of a wall cost
    as many hands more) for the ``skill_reward`` effect."""
    from interpreter import simulate as sim
    from interpreter.summary import hand_names

    _enough(games)
    if match_hands is not None and match_hands < 2:
        raise ValueError(f"--match-hands must be at least 2, not {match_hands}")
    if match_hands is not None and match_hands > games:
        raise ValueError(f"--match-hands {match_hands:,} is more than the {games:,} hands "
                         "played: no match would be whole")  # fmt: skip
    loaded = [  # every input checked before a hand is played
        sim.make_spec(side.ruleset, seed, agents, side.settings, side.preset)[1] for side in (a, b)
    ]
    check_pairable(*loaded)
    pairs = None
    if skill is not None:  # BOT:tuned: each side's own parameters, as for ``agents``
        pairs = (parse_skill(skill, loaded[0]), parse_skill(skill, loaded[1]))
        for ruleset, pair in zip(loaded, pairs, strict=True):
            for bot in pair:
                sim.make_spec(ruleset, seed, bot)
    sim.note_untuned(loaded, agents, *([skill] if skill is not None else []))
    ta, about_a, ra = play(a, games, seed, agents, run)
    tb, about_b, rb = play(b, games, seed, agents, run)
    names = {**hand_names(ra), **hand_names(rb)}
    players = len(json.loads(about_a["agents"]))
    k = match_hands or match_hands_default(players)
    measured = None
    if pairs is not None:
        gains = [
            skill_gains(side, *pair, games, seed, run)
            for side, pair in zip((a, b), pairs, strict=True)
        ]
        ta, tb = (t.assign(**{SKILL_COLUMN: g}) for t, g in zip((ta, tb), gains, strict=True))
        ea, eb = (mean_effect(np.zeros_like(g), g) for g in gains)  # each mean, with its CI
        measured = Skill(pairs, games, (ea, eb))
    chosen = metrics(players, (ta, tb), names, k)
    effects = paired_effects(ta, tb, chosen, seed, resamples_for(len(chosen)))
    adjust(effects)
    changed = (_changed(ra), _changed(rb))
    return Comparison((about_a, about_b), changed, games, _same_walls(ra, rb), effects, k, measured)


# --- sweeps: one option at a time against the reference setting ------------------------------

SWEEP_METRICS = (
    "no_winner", "self_draw_share", "dealer_edge", "points_moved_mean", "points_moved_p95",
)  # fmt: skip
"""The metrics a sweep reports unless told."""


def metric_ids(players: int) -> list[str]:
    """The ids of the metrics a comparison may have, hand types and the skill reward (a
    ``compare --skill`` figure) aside."""
    return [m.id for m in (*metrics(players, (), {}), *_WHERE_SEEN)]


def sweep_values(ruleset: Ruleset, vary: Sequence[str]) -> dict[str, list[str]]:
    """``NAME=V1,V2,…`` items (or ``all``: every option over its declared values) as option →
    values, the ruleset's own value among them; raises ValueError naming a wrong option or
    value."""
    from dsl.problems import nearest

    options = ruleset.options
    out: dict[str, list[str]] = {}

    def add(name: str, values: list[str]) -> None:
        """An option named again (or also by ``all``) gains its new values, each once."""
        vs = out.setdefault(name, [])
        for v in values:
            if options[name].parse(v) not in [options[name].parse(w) for w in vs]:
                vs.append(v)

    for item in vary:
        if item.strip() == "all":
            for name, o in options.items():
                if len(o.possible_values()) > 1:
                    add(name, [option_text(v) for v in o.possible_values()])
            continue
        name, eq, values = (t.strip() for t in item.partition("="))
        if not eq or not name or not values:
            raise ValueError(f"--vary {item!r}: write NAME=V1,V2,… or all")
        if name not in options:
            hint = nearest(name, options)
            raise ValueError(
                f"--vary: {ruleset.id} has no option {name!r}"
                + (f"; did you mean {hint!r}?" if hint else "")
                + f" (options: {', '.join(options) or 'none'})"
            )
        for v in values.split(","):
            try:
                options[name].parse(v)
            except ValueError:
                raise ValueError(
                    f"--vary: {v.strip()!r} is not a value of option {name!r}: "
                    f"expected {options[name].expected()}"
                ) from None
        add(name, [v.strip() for v in values.split(",")])
    for name, vs in out.items():  # each curve through the reference, in the declared order
        o = options[name]
        order = list(o.possible_values())
        if [o.parse(v) for v in vs] == [o.value]:
            raise ValueError(f"--vary {name}={vs[0]}: only the reference value, nothing to "
                             "compare it with; give another value")  # fmt: skip
        if o.value not in [o.parse(v) for v in vs]:
            vs.append(option_text(o.value))
        vs.sort(key=lambda v, o=o, order=order: order.index(o.parse(v))
                if o.parse(v) in order else len(order))  # fmt: skip
    return out


@dataclass
class Point:
    """One value of a swept option and its effects against the reference."""

    option: str
    value: str
    reference: bool
    effects: list[Effect]


@dataclass
class Sweep:
    about: dict[str, str]
    changed: dict[str, Any]
    games: int
    points: list[Point]
    metrics: list[str]

    def to_json(self) -> dict[str, Any]:
        a = self.about
        return {
            "reference": _side_json(a), "hands_per_setting": self.games,
            "master_seed": int(a["master_seed"]), "agents": json.loads(a["agents"]),
            "mjrules_version": a["mjrules_version"], "correction": "holm", "alpha": ALPHA,
            "metrics": self.metrics,
            "points": [
                {"option": p.option, "value": p.value, "reference": p.reference,
                 "effects": [e.to_json() for e in p.effects]}
                for p in self.points
            ],
        }  # fmt: skip

    def to_text(self) -> str:
        a = self.about
        tested = sum(len(p.effects) for p in self.points if not p.reference)
        lines = [
            f"reference: {_side_text(a, self.changed)}",
            f"{self.games:,} hands per setting on the same walls, master seed "
            f"{a['master_seed']}, mjrules {a['mjrules_version']}",
            f"bots: {bots_text(json.loads(a['agents']))}; the figures describe these bots "
            "playing these rules",
            "each option varied alone: A is the reference, B the value, B − A with its 95% CI;",
            f"* significant at 5% after Holm's correction for {tested} effects",
        ]
        for p in self.points:
            if p.reference:
                continue
            lines += ["", f"{p.option}={p.value}", *effects_table(p.effects)]
        return "\n".join(lines)


def sweep(
    base: Setting,
    vary: Sequence[str],
    games: int,
    seed: int,
    agents: str,
    chosen: Sequence[str] = SWEEP_METRICS,
    run: Run = LOCAL,
) -> Sweep:
    """Each option of ``vary`` (``NAME=V1,V2,…`` or ``all``) set to each of its values, the
    others left at ``base``; every setting played on the same walls as ``base`` (the
    reference) and compared with it on the ``chosen`` metrics."""
    from interpreter import simulate as sim
    from interpreter.engine.rules import Rules
    from interpreter.summary import hand_names

    _enough(games)
    _, loaded = sim.make_spec(base.ruleset, seed, agents, base.settings, base.preset)
    values = sweep_values(loaded, vary)
    if not values:
        raise ValueError(f"--vary: {loaded.id} has no option with more than one value")
    players = Rules(loaded).players
    known = metric_ids(players)
    wrong = [m for m in chosen if m not in known and not m.startswith("hand_type:")]
    if wrong:
        raise ValueError(f"unknown metric {wrong[0]!r}; metrics are {', '.join(known)}, "
                         "hand_type:ID")  # fmt: skip
    types = hand_names(loaded)
    for m in chosen:  # a hand type it lacks would show an empty table
        kind, _, id_ = m.partition(":")
        if kind == "hand_type" and id_ not in types:
            raise ValueError(f"--metric {m}: {loaded.id} has no hand type {id_!r}; its ids: "
                             f"{', '.join(types)}")  # fmt: skip
    settings = {
        (name, v): Setting(base.ruleset, (*base.settings, f"{name}={v}"), base.preset)
        for name, vs in values.items()
        for v in vs
    }
    for s in settings.values():  # every setting checked before a hand is played
        sim.make_spec(s.ruleset, seed, agents, s.settings, s.preset)
    sim.note_untuned([loaded], agents)
    reference, about, ruleset = play(base, games, seed, agents, run)
    names = hand_names(ruleset)
    points = []
    resamples = resamples_for(len(chosen) * (len(settings) - len(values)))
    for (name, v), setting in settings.items():
        if loaded.options[name].parse(v) == loaded.options[name].value:
            points.append(Point(name, v, True, []))
            continue
        table, _, _ = play(setting, games, seed, agents, run)
        ms = {m.id: m for m in metrics(players, (reference, table), names)}
        picked = [ms[m] for m in chosen if m in ms]
        effects = paired_effects(reference, table, picked, seed, resamples)
        points.append(Point(name, v, False, effects))
    adjust([e for p in points for e in p.effects])
    return Sweep(about, _changed(ruleset), games, points, list(chosen))


_UNITS = {"share": "pp", "points": "points", "count": "per hand"}


def plot_sweep(result: Sweep, path: str, title: str) -> None:
    """Effect curves: a row of panels per option, a panel per metric, the value on the x axis."""
    plt = pyplot()
    options = list(dict.fromkeys(p.option for p in result.points))
    ids = result.metrics
    height = 2.2 * len(options) + 0.6
    fig, axes = plt.subplots(
        len(options), len(ids), figsize=(2.6 * len(ids) + 0.6, height), squeeze=False
    )
    for row, option in zip(axes, options, strict=True):
        points = [p for p in result.points if p.option == option]
        for ax, id_ in zip(row, ids, strict=True):
            marks: list[tuple[int, float, float, float, str]] = []  # x, y, below, above, colour
            unit = "count"
            for x, p in enumerate(points):
                effect = next((e for e in p.effects if e.metric.id == id_), None)
                if p.reference:
                    marks.append((x, 0.0, 0.0, 0.0, "k"))
                elif effect is not None:
                    unit = effect.metric.unit
                    est, k = effect.estimate, 100 if unit == "share" else 1
                    colour = "C3" if effect.significant else "C0"
                    marks.append((x, est.diff * k, (est.diff - est.low) * k,
                                  (est.high - est.diff) * k, colour))  # fmt: skip
            ax.plot([m[0] for m in marks], [m[1] for m in marks], color="grey", lw=0.8)
            for x, y, below, above, colour in marks:
                ax.errorbar(x, y, yerr=[[below], [above]], fmt="o", color=colour, capsize=3)
            ax.axhline(0, color="grey", lw=0.6, ls=":")
            ax.set_xticks(range(len(points)), [p.value for p in points], fontsize=8)
            ax.set_xlabel(option)
            ax.set_ylabel(f"value − reference, {_UNITS[unit]}", fontsize=8)
            ax.set_title(_english(id_, result), fontsize=8)
    fig.suptitle(f"{title}\n95% CIs; red: significant after Holm's correction; black: the "
                 "reference", fontsize=9)  # fmt: skip
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.5 / height))  # half an inch kept for the title
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _english(id_: str, result: Sweep) -> str:
    for p in result.points:
        for e in p.effects:
            if e.metric.id == id_:
                return e.metric.en
    return id_


# --- output --------------------------------------------------------------------------------


def _num(x: float) -> float | None:
    return None if math.isnan(x) else round(x, 6)


def show_value(unit: str, x: float) -> str:
    if math.isnan(x):
        return "-"
    return f"{x:.1%}" if unit == "share" else f"{x:.2f}"


def show_effect(unit: str, e: Estimate) -> str:
    """``+1.2 pp [+0.4, +2.0]``: shares in percentage points, the rest in their unit."""
    scale, suffix, digits = (100, " pp", 1) if unit == "share" else (1, "", 2)
    return (
        f"{e.diff * scale:+.{digits}f}{suffix} "
        f"[{e.low * scale:+.{digits}f}, {e.high * scale:+.{digits}f}]"
    )


def effects_table(effects: Sequence[Effect]) -> list[str]:
    width = max([40, *(text_width(e.metric.label) + 1 for e in effects)])
    lines = [f"{pad('metric', width)} {pad('A', 9, True)} {pad('B', 9, True)}   B − A [95% CI]"]
    for e in effects:
        m, est = e.metric, e.estimate
        mark = " *" if e.significant else ""
        lines.append(
            f"{pad(m.label, width)} {show_value(m.unit, est.a):>9} "
            f"{show_value(m.unit, est.b):>9}   {show_effect(m.unit, est)}{mark}"
        )
    return lines


PANELS = {
    "share": "shares (percentage points)",
    "points": "points",
    "count": "per hand / turns",
}


def plot_effects(effects: Sequence[Effect], path: str, title: str) -> None:
    """A forest plot: each effect and its 95% CI, one panel per unit, significant ones filled."""
    from interpreter.figures import cjk_font

    plt = pyplot()
    cjk = cjk_font()
    groups = [(u, [e for e in effects if e.metric.unit == u]) for u in PANELS]
    groups = [(u, es) for u, es in groups if es]
    heights = [max(1, len(es)) for _, es in groups]
    fig, axes = plt.subplots(
        len(groups), 1, figsize=(8, 1.2 + 0.28 * sum(heights)), squeeze=False,
        gridspec_kw={"height_ratios": heights},
    )  # fmt: skip
    for ax, (unit, es) in zip(axes[:, 0], groups, strict=True):
        scale = 100 if unit == "share" else 1
        ys = list(range(len(es)))[::-1]
        for y, e in zip(ys, es, strict=True):
            est = e.estimate
            ax.errorbar(
                est.diff * scale, y,
                xerr=[[(est.diff - est.low) * scale], [(est.high - est.diff) * scale]],
                fmt="o", color="C3" if e.significant else "C0",
                mfc="C3" if e.significant else "white", capsize=3,
            )  # fmt: skip
        ax.axvline(0, color="grey", lw=0.8)
        ax.set_yticks(ys, [e.metric.label if cjk else e.metric.en for e in es], fontsize=8)
        ax.set_xlabel(f"B − A, {PANELS[unit]}")
    fig.suptitle(f"{title}\nB − A with 95% CIs; filled: significant after Holm's correction",
                 fontsize=9)  # fmt: skip
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


class PlotUnavailable(RuntimeError):
    """matplotlib is not installed."""


def check_plot(path: str) -> None:
    """Before a hand is played: matplotlib is installed, writes the format of ``path`` (its
    extension) and the folder exists; raises PlotUnavailable or ValueError."""
    plt = pyplot()
    figure = plt.figure()
    formats = figure.canvas.get_supported_filetypes()
    plt.close(figure)
    ext = os.path.splitext(path)[1].lstrip(".").lower()
    if ext not in formats:
        raise ValueError(f"--plot {path}: end the name with .png, .svg or .pdf (formats: "
                         f"{', '.join(sorted(formats))})")  # fmt: skip
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise ValueError(f"--plot {path}: there is no folder {folder}")


def pyplot() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise PlotUnavailable("--plot needs matplotlib: pip install 'mjrules[plot]'") from None
    return plt
