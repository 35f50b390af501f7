"""Tactics respond to rules: the strategy bot, at every seat, plays the same walls under two
rulesets (``interpreter.compare``: paired hand by hand) and its play moves where, and as
far as, the ruleset's own settlement moves what a choice is worth.

docs/AGENTS.md ("Tactics respond to rules") gives the effects measured on more hands and the
``mjrules compare`` commands that reproduce them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.compare import Comparison, Effect, compare
from interpreter.duplicate import Run, Setting

QQ = "changsha/qq2014"
BLOG5 = "sichuan/blog5"
GAMES_QQ = 300
GAMES_BLOG5 = 400
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
    (1 → 18 wins), p = 6·10⁻⁵; seed 1: 0.0% → 3.3%, p = 0.002 (the bot before its
    ``escape`` term).  Sichuan, seed 1: the bot before ``escape``, 200 hands: 0.4% → 3.1%,
    p = 1·10⁻⁴; this bot, which weighs the speed of a win more, 200 hands: +1.2 pp,
    p = 0.033, and 400 hands: 0.4% → 1.4%, p = 0.004, so it plays 400.  With A and B
    swapped the effect turns round and the test fails."""
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


def test_a_higher_dealer_stake_changes_the_others_discards(tmp_path: Path) -> None:
    """With the dealer's stake five times the rules', the strategy bot at a seat other than
    the dealer's reads the stake: on the same positions (each taken from a game under the
    higher stake, the bot asked once with the observation's ruleset and once with the
    rules' own), its discard differs in about 1.5% of them (24 of 1,611 on these 60 walls).

    The direction expected, fewer of the dealer's winning tiles thrown, is not shown, and
    this is why: among 74 differing discards over 150 walls (seeds 5000-5149) the tile
    chosen under the higher stake was one the dealer could win on once, the other never.
    A seat still in pays the dealer's wins either way (a self-draw costs every seat the
    stake), so the stake raises the worth of winning first (the bot's ``escape`` term) as
    much as the cost of a deal-in, and its defence turns aside from an offensive discard
    seldom; the earlier bot, which priced no escape, threw the dealer fewer winning tiles
    (deal-ins to the dealer 16.3% to 12.3% of hands, seed 1, 300 hands a side), this one
    does not (16.7% to 15.5%, p = 0.34, 600 a side)."""
    from dsl.ruleset import load
    from interpreter.engine.game import Game
    from interpreter.simulate import new_agent

    rules, stake = load(QQ), load(_variant(tmp_path, "dealer", QQ, DEALER_STAKE))
    decisions = differ = 0
    for wall in range(60):
        dealer = wall % 4
        game = Game(stake, 5000 + wall, dealer)
        bots = [new_agent("strategy", wall * 16 + s, stake) for s in range(4)]
        while (seat := game.to_move()) is not None:
            legal = game.legal_actions(seat)
            obs = game.observation(seat)
            action = bots[seat].act(obs, legal)
            if seat != dealer and sum(a.kind == "discard" for a in legal) > 1:
                other = new_agent("strategy", wall * 16 + seat, rules)
                decisions += 1
                differ += other.act({**obs, "ruleset": rules}, legal) != action
            game.apply(action, seat)
    assert decisions > 1000 and 0.005 < differ / decisions < 0.1, (differ, decisions)


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
