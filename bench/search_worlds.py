"""How near ready the search bot's sampled worlds deal the other hands, beside the truth.

Run: python bench/search_worlds.py RULESET [--hands N] [--seed S] [--bot BOT]
                                   [--progress P,P,...] [--every K]

Four copies of ``--bot`` play ``--hands`` hands (dealt as ``mjrules simulate`` deals hand
i).  At every ``--every``-th turn decision the seat to move samples a world
(``interpreter.agents.search.sample_world``) for each ``--progress``; for each other seat
still in, the shanten (seven pairs aside) of the hand it really holds and of the hand each
world dealt it are kept under that seat's turns played.  Printed (markdown): per band of
turns, how many hands were compared and their mean shanten, the truth and each progress.
The search bot's ``progress`` option deals the worlds nearer the truth; docs/AGENTS.md (The
search bot) gives this table and what the option did to the bot's strength.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from random import Random
from statistics import fmean

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

BANDS = 6
"""Bands of three turns each, the last open-ended."""


def survey(
    ruleset_id: str, hands: int, seed: int, bot: str, progress: Sequence[float], every: int
) -> dict[tuple[int, str], list[int]]:
    """Shanten of the other hands by (band of turns, "truth" or the progress as text)."""
    from interpreter.agents.search import sample_world, tiles_from_ready
    from interpreter.engine.game import Game
    from interpreter.simulate import _prepared, dealer_of, hand_seed, new_agent

    ruleset, rules = _prepared(ruleset_id, (), None)
    found: dict[tuple[int, str], list[int]] = defaultdict(list)
    turns = 0
    for i in range(hands):
        wall = hand_seed(seed, i)
        agents = [new_agent(bot, wall * 16 + s, ruleset) for s in range(rules.players)]
        game = Game(ruleset, wall, dealer_of(i, rules.players), rules=rules, hand=i)
        while (seat := game.to_move()) is not None:
            t = game.state
            legal = game.legal_actions(seat)
            if t.phase == "turn" and t.current == seat:
                turns += 1
                if turns % every == 0:
                    worlds = {p: sample_world(t, seat, Random(turns), p) for p in progress}
                    for q, player in enumerate(t.players):
                        if q == seat or not player.in_game:
                            continue
                        band = min(player.turns // 3, BANDS - 1)
                        melds = len(player.melds)
                        found[(band, "truth")].append(tiles_from_ready(t, player.hand(), melds))
                        for p, w in worlds.items():
                            found[(band, str(p))].append(
                                tiles_from_ready(t, w.players[q].hand(), melds)
                            )
            game.apply(agents[seat].act(game.observation(seat), legal), seat)
    return found


def table(found: dict[tuple[int, str], list[int]], progress: Sequence[float]) -> str:
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
          f"a world at every {args.every}th turn; mean shanten of the other hands\n")  # fmt: skip
    print(table(found, progress))


if __name__ == "__main__":
    main()
