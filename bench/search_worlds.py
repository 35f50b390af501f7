"""How near ready the search bot's sampled worlds deal the other hands, and on which
tiles they wait, beside the truth.

Run: python bench/search_worlds.py RULESET [--hands N] [--seed S] [--bot BOT]
                                   [--progress P,P,...] [--every K]

Four copies of ``--bot`` play ``--hands`` hands (dealt as ``mjrules simulate`` deals hand
i).  At every ``--every``-th turn decision the seat to move samples a world
(``interpreter.agents.search.sample_world``) for each ``--progress``; for each other seat
still in, the shanten (seven pairs aside) of the hand it really holds and of the hand each
world dealt it are kept under that seat's turns played.  Printed (markdown): per band of
turns, how many hands were compared and their mean shanten, the truth and each progress.

Then the waits, for each other seat really ready (its waits outside its declared void
suit): the share of a reading's weight that falls on the tiles it really waits on, each
tile weighted by its copies the seat to move has not seen.  Read from the tiles not seen
alone, from the danger the strategy and defensive bots read off the table
(``interpreter.agents.defensive.danger``: rivers, suji, tiles seen, void suits), and from
each progress's world (the waits of the hand it dealt, when that hand is ready; how often
it is, beside).  A reading that knew nothing would score the tiles-not-seen share; the
rollouts of the search bot play against the worlds' waits.

The search bot's ``progress`` option deals the worlds nearer the truth; docs/AGENTS.md (The
search bot) gives these tables and what the option did to the bot's strength.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from math import sqrt
from pathlib import Path
from random import Random
from statistics import fmean, stdev
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from interpreter.agents.reading import View
    from interpreter.engine.state import Table

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

BANDS = 6
"""Bands of three turns each, the last open-ended."""

UNSEEN, READING = "tiles not seen", "danger read"
"""The two readings of an opponent's waits set beside the worlds'."""


@dataclass
class Survey:
    """What the survey kept; a column is "truth", a reading, or a progress as text."""

    shanten: dict[tuple[int, str], list[int]] = field(default_factory=lambda: defaultdict(list))
    """Shanten of the other hands by (band of turns, column)."""
    on_waits: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    """Per ready opponent, the share of a column's wait weight on its true waits."""
    dealt_ready: dict[str, list[bool]] = field(default_factory=lambda: defaultdict(list))
    """Per ready opponent, whether a progress's world dealt it a ready hand."""


def survey(
    ruleset_id: str, hands: int, seed: int, bot: str, progress: Sequence[float], every: int
) -> Survey:
    """The other hands' shanten, and the readings of the ready ones' waits."""
    from interpreter.agents.reading import View
    from interpreter.agents.search import sample_world, tiles_from_ready
    from interpreter.engine.game import Game
    from interpreter.simulate import _prepared, dealer_of, hand_seed, new_agent

    ruleset, rules = _prepared(ruleset_id, (), None)
    found = Survey()
    turns = 0
    for i in range(hands):
        wall = hand_seed(seed, i)
        agents = [new_agent(bot, wall * 16 + s, ruleset) for s in range(rules.players)]
        game = Game(ruleset, wall, dealer_of(i, rules.players), rules=rules, hand=i)
        while (seat := game.to_move()) is not None:
            t = game.state
            legal = game.legal_actions(seat)
            obs = game.observation(seat)
            if t.phase == "turn" and t.current == seat:
                turns += 1
                if turns % every == 0:
                    view = View.of(obs)
                    worlds = {p: sample_world(t, seat, Random(turns), p) for p in progress}
                    for q, player in enumerate(t.players):
                        if q == seat or not player.in_game:
                            continue
                        band = min(player.turns // 3, BANDS - 1)
                        melds = len(player.melds)
                        truth = tiles_from_ready(t, player.hand(), melds)
                        found.shanten[(band, "truth")].append(truth)
                        for p, w in worlds.items():
                            found.shanten[(band, str(p))].append(
                                tiles_from_ready(t, w.players[q].hand(), melds)
                            )
                        waits = _waits(t, player.hand(), player.void)
                        if truth == 0 and waits:
                            _read_waits(found, obs, view, q, waits, worlds)
            game.apply(agents[seat].act(obs, legal), seat)
    return found


def _waits(t: Table, hand: list[int], void: int | None) -> set[int]:
    """The tiles completing ``hand``, outside the suit ``void``."""
    from handcore import shapes

    keys = shapes.keys_of_tiles(hand, t.rules.tileset)
    return {w for w in shapes.waits(keys) if void is None or w // shapes.RANKS != void}


def _read_waits(
    found: Survey,
    obs: dict[str, Any],
    view: View,
    q: int,
    waits: set[int],
    worlds: dict[float, Table],
) -> None:
    """Keep, for opponent ``q`` really waiting on ``waits``, each column's share of weight
    on them (tiles weighted by the copies the seat to move has not seen)."""
    from handcore.shapes import RANKS
    from interpreter.agents.defensive import danger

    void = obs["void"][q]
    live = {
        x: view.unseen(x)
        for x in range(len(view.counts))
        if view.unseen(x) and (void is None or x // RANKS != void)
    }

    def share(weight: dict[int, float]) -> float:
        total = sum(weight.values())
        return sum(weight.get(x, 0.0) for x in waits) / total if total else 0.0

    found.on_waits[UNSEEN].append(share(live))
    found.on_waits[READING].append(share({x: n * danger(obs, view, q, x) for x, n in live.items()}))
    for p, w in worlds.items():
        dealt = _waits(w, w.players[q].hand(), w.players[q].void)
        found.dealt_ready[str(p)].append(bool(dealt))
        if dealt:
            found.on_waits[str(p)].append(share({x: n for x, n in live.items() if x in dealt}))


def table(found: dict[tuple[int, str], list[int]], progress: Sequence[float]) -> str:
    """Mean shanten per band of turns: the truth and each progress's worlds."""
    columns = ["truth", *(str(p) for p in progress)]
    head = "| turns | hands | " + " | ".join(
        c if c == "truth" else f"progress {c}" for c in columns
    )
    lines = [head + " |", "|---|---:|" + "---:|" * len(columns)]
    for band in range(BANDS):
        truth = found.get((band, "truth"))
        if not truth:
            continue
        label = f"{3 * band}–{3 * band + 2}" if band < BANDS - 1 else f"{3 * band}+"
        means = " | ".join(f"{fmean(found[(band, c)]):.2f}" for c in columns)
        lines.append(f"| {label} | {len(truth)} | {means} |")
    return "\n".join(lines)


def wait_table(found: Survey, progress: Sequence[float]) -> str:
    """Per column, the mean share of its wait weight on the true waits of ready opponents."""
    n = len(found.on_waits[UNSEEN])
    lines = [
        f"| reading ({n} opponents really ready) "
        "| weight on the true waits (95% CI) | dealt ready |",
        "|---|---:|---:|",
    ]
    for column in (UNSEEN, READING):
        lines.append(f"| {column} | {_mean(found.on_waits[column])} | |")
    for p in progress:
        ready = found.dealt_ready[str(p)]
        share = f"{sum(ready) / len(ready):.0%}" if ready else "–"
        lines.append(f"| worlds, progress {p} | {_mean(found.on_waits[str(p)])} | {share} |")
    return "\n".join(lines)


def _mean(values: list[float]) -> str:
    """The mean with its 95% interval's half-width (normal approximation)."""
    if len(values) < 2:
        return f"{values[0]:.3f}" if values else "–"
    return f"{fmean(values):.3f} ± {1.96 * stdev(values) / sqrt(len(values)):.3f}"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("ruleset")
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--seed", type=int, default=9000)
    parser.add_argument("--bot", default="efficiency", help="the bot at every seat")
    parser.add_argument("--progress", default="0,2,4,8", help="comma-separated values")
    parser.add_argument("--every", type=int, default=7, help="sample at every K-th turn")
    args = parser.parse_args(argv)
    try:
        progress = [float(p) for p in args.progress.split(",")]
    except ValueError:
        parser.error(f"--progress {args.progress!r}: expected numbers separated by commas")
    if args.hands < 1 or args.every < 1:
        parser.error("--hands and --every must be at least 1")
    from dsl.problems import RulesetError
    from interpreter.simulate import _prepared, new_agent

    try:  # the ruleset and the bot, named as mjrules names them
        new_agent(args.bot, 0, _prepared(args.ruleset, (), None)[0])
    except (RulesetError, ValueError) as error:
        raise SystemExit(str(error)) from None
    found = survey(args.ruleset, args.hands, args.seed, args.bot, progress, args.every)
    print(f"{args.ruleset}: {args.hands} hands of four `{args.bot}` bots, seed {args.seed}, "
          f"a world every {args.every} turns; mean shanten of the other hands\n")  # fmt: skip
    print(table(found.shanten, progress))
    print("\nThe waits of the other hands really ready, as each reading weighs them\n")
    print(wait_table(found, progress))


if __name__ == "__main__":
    main()
