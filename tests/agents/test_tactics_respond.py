"""Tactics respond to rules: the strategy bot, at every seat, plays the same walls under two
rulesets (``interpreter.compare``: paired hand by hand) and its play moves where, and as
far as, the ruleset's own settlement moves what a choice is worth.

docs/AGENTS.md ("Tactics respond to rules") gives the effects measured on more hands and the
``mjrules compare`` commands that reproduce them.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest

from interpreter.compare import Comparison, Effect, compare, mean_effect
from interpreter.duplicate import Run, Setting

if TYPE_CHECKING:
    import pandas as pd

QQ = "changsha/qq2014"
BLOG5 = "sichuan/blog5"
GAMES_QQ = 300
GAMES_BLOG5 = 200
RUN = Run(workers=1, progress=False)


def _variant(tmp_path: Path, name: str, base: str, changes: str) -> str:
    """A ruleset file ``name``.yaml extending ``base`` with ``changes`` (YAML sections)."""
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"extends: {base}\nruleset: {{title: {name}}}\n{changes}", "utf-8")
    return str(path)


def _effects(result: Comparison) -> dict[str, Effect]:
    return {e.metric.id: e for e in result.effects}


# --- 1. a hand type's value -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("base", "hand", "low", "high", "games", "seed"),
    [
        pytest.param(QQ, "qixiaodui", "{class: small}", "{value: 4}", GAMES_QQ, 2, id="changsha"),
        pytest.param(BLOG5, "qixiaodui", "{value: 1}", "{value: 6}", GAMES_BLOG5, 1, id="sichuan"),
    ],
)
def test_raising_a_hand_types_value_raises_its_share_of_wins(
    tmp_path: Path, base: str, hand: str, low: str, high: str, games: int, seed: int
) -> None:
    """A hand type paid as little as a plain win (A) against the same type paid many times
    more (B), strategy bots at every seat, the same walls: the type's share of wins rises,
    p < 0.01 by the paired delta-method test of ``compare`` (one test named in advance, so
    no correction).  七小对 (qixiaodui) answers most: the bot chases seven pairs from the
    deal, where a one-suit or all-pungs hand needs the right tiles and claims.

    Margins (the type's share of wins, A → B): Changsha, 300 hands, seed 2: 0.4% → 6.3%
    (1 → 18 wins), p = 6·10⁻⁵; seed 1: 0.0% → 3.3%, p = 0.002.  Sichuan, 200 hands, seed
    1: 0.4% → 3.1% (2 → 16), p = 1·10⁻⁴; seed 2: 0.2% → 4.4% (1 → 23), p = 6·10⁻⁷.  With A
    and B swapped the effect turns round and the test fails."""
    a = _variant(tmp_path, "low", base, f"hands:\n  {hand}: {low}\n")
    b = _variant(tmp_path, "high", base, f"hands:\n  {hand}: {high}\n")
    effect = _effects(compare(Setting(a), Setting(b), games, seed, "strategy", RUN))[
        f"hand_type:{hand}"
    ]
    assert effect.estimate.diff > 0 and effect.estimate.p < 0.01


# --- 2. birds and the dealer's stake -------------------------------------------------------


def test_birds_change_payments_not_play() -> None:
    """Birds (扎鸟) in changsha/qq2014 multiply what a payer pays by 2 for each bird on the
    winner or on that payer, whoever they are and however the hand was won: in expectation
    the same factor for a self-draw (each of three payers) as for a discard (one payer), for
    a big hand as for a plain one, so no choice of what to build, claim or throw changes
    its relative worth.  The bots value a win by settling it without bird tiles (the birds
    are turned after the win), so six birds against none leave every hand played exactly as
    it was: only the points moved change.  (A bird rule that paid one way of winning more
    than another would have to be read: the settlement of a win would then price the birds'
    expectation.)"""
    result = compare(Setting(QQ, ("birds=0",)), Setting(QQ, ("birds=6",)), 30, 3, "strategy", RUN)
    effects = _effects(result)
    assert effects["bird_hits_per_hand"].estimate.b > 0
    moved = effects["points_moved_mean"].estimate
    assert moved.diff > 0 and moved.low > 0
    paid = {"bird_hits_per_hand", "dealer_edge", "decisiveness"}
    play = [e for id_, e in effects.items() if id_ not in paid and not id_.startswith("points")]
    assert len(play) > 20
    for e in play:
        assert e.estimate.diff == 0 and e.estimate.low == e.estimate.high == 0, e.metric.id


DEALER_STAKE = """payment:
  dealer_bonus: |
    if dealer in {winner, payer}
      then 5 * (if count(big) > 0 then sum(big, value) else 1)
      else 0
"""
"""qq2014 with the dealer's stake five times the rules' (庄家 wins or pays one 底 more, one
合 more on a big hand: five here)."""


def _deal_ins_to_dealer(rows: pd.DataFrame) -> np.ndarray:
    """Per hand, the wins of the dealer on another seat's discard."""
    out = []
    for r in rows.itertuples():
        won = zip(r.winners, r.win_from, strict=True)
        out.append(sum(w == r.dealer and f not in (-1, r.dealer) for w, f in won))
    return np.array(out, float)


def test_a_higher_dealer_stake_makes_the_others_defend_against_the_dealer(tmp_path: Path) -> None:
    """The strategy bot prices each discard's expected loss by settling the win it would
    feed, with its own seat as the payer: where the dealer's stake is five times higher, a
    tile the dealer may wait on costs the other seats more, so they throw the dealer fewer
    winning tiles.  Deal-ins to the dealer per hand fall, p < 0.05 (paired by hand).
    Measured (seed 1, 300 hands): 16.3% to 12.3% of hands, −4.0 pp [−7.0, −1.0], p = 0.010;
    with twenty times the stake on the walls of seed 2 the fall is −3.7 pp [−8.1, +0.8]: the
    direction holds, a test at p < 0.01 would need over a thousand hands a side."""
    from interpreter.simulate import simulate

    b = _variant(tmp_path, "dealer", QQ, DEALER_STAKE)
    a, b = (simulate(r, 300, 1, "strategy", workers=1, progress=False) for r in (QQ, b))
    effect = mean_effect(_deal_ins_to_dealer(a), _deal_ins_to_dealer(b))
    assert effect.diff < 0 and effect.p < 0.05


# --- 3. a ruleset against itself ---------------------------------------------------------------


@pytest.mark.parametrize("base", [QQ, BLOG5])
def test_a_copy_of_a_ruleset_changes_no_play(tmp_path: Path, base: str) -> None:
    """A file that only extends a shipped ruleset (another id, another ruleset hash, the same
    rules) against the ruleset itself: the strategy bots play every hand alike, so every
    effect, hand-type shares included, is exactly zero and none is marked.  (Holm's level on
    effects that do vary is tests/analysis/test_statistics.py's and test_compare.py's.)"""
    copy = _variant(tmp_path, "copy", base, "")
    result = compare(Setting(base), Setting(copy), 12, 4, "strategy", RUN)
    assert result.about[0]["ruleset_hash"] != result.about[1]["ruleset_hash"]
    assert any(e.metric.id.startswith("hand_type:") for e in result.effects)
    for e in result.effects:
        assert e.estimate.diff == 0 and not e.significant, e.metric.id
