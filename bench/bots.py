"""Hands per second with four copies of a bot at the table, one core, and the bot's share.

Run: python bench/bots.py [--hands N] [--passes P] [--bots a,b] [--seed S] [--warm W]
                          [--reference-hands N] [--collector play|default] [RULESET ...]

For each ruleset and bot, ``--passes`` passes, each timed right beside the ``rlcard``
mahjong environment with random agents (``bench/simulate.py``'s reference): hands/s of
whole games (engine and bots), the share of the time spent inside the bots' ``act``, the
rate the bots alone would allow (hands / bot time), rlcard's rate and the ratio to it.
A row gives the median of each figure over the passes (the ratio's median is of the
per-pass ratios, each against the reference timed beside it).  Times are CPU time of this
process, so rates are per core whatever else the machine runs.

Every pass plays hands never played before in the process: each pass, its warm-up
included, has seeds of its own, since bots remember what they worked out and a replayed
seed would time lookups.  ``--warm`` hands (5 by default) are played before each pass's
timing: with the default the first pass of a process pays for filling the hand core's
memos of suit shapes, as the first minutes of a run do; ``--warm 2000`` times the rate a
long run settles to, on hands still never seen.

The process's garbage collector is set as in the processes that play for ``mjrules
simulate`` (``interpreter.workers.collect_for_play``: the command line and the pool's
workers); ``--collector default`` keeps Python's thresholds, as a library call in a
process of one's own has them.  The reference runs in the same process, under the same
setting.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.simulate import Reference
from interpreter.workers import collect_for_play

DEFAULT = ("changsha/qq2014", "sichuan/blog5")


class Timed:
    def __init__(self, bot) -> None:
        self.bot = bot
        self.seconds = 0.0
        self.calls = 0

    def act(self, observation, legal):
        start = time.process_time()
        choice = self.bot.act(observation, legal)
        self.seconds += time.process_time() - start
        self.calls += 1
        return choice


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rulesets", nargs="*", default=list(DEFAULT))
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--bots", default="random,efficiency,defensive,value,strategy")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reference-hands", type=int, default=100)
    parser.add_argument("--warm", type=int, default=5, help="untimed hands before each pass")
    parser.add_argument(
        "--collector", choices=("play", "default"), default="play",
        help="the garbage collector as mjrules' own processes set it "
        "(interpreter.workers.collect_for_play), or Python's default",
    )  # fmt: skip
    args = parser.parse_args()
    if args.collector == "play":
        collect_for_play()
    print(f"garbage collector thresholds {gc.get_threshold()} ({args.collector})")

    from dsl.ruleset import load
    from interpreter.agents import make_agent
    from interpreter.engine.game import Game, run
    from interpreter.engine.rules import Rules

    try:
        reference: Reference | None = Reference(args.seed)
    except ImportError:
        reference = None
        print("rlcard is not installed (pip install '.[bench]'): no reference column")
    passes = itertools.count()
    print(
        f"{'ruleset':<18} {'bot':<11} {'hands/s':>8} {'bot share':>9} {'bot-only':>9} "
        f"{'acts/hand':>9} {'rlcard':>7} {'ratio':>7}  ends (all passes)"
    )
    for rid in args.rulesets:
        ruleset = load(rid)
        rules = Rules(ruleset)  # read once, as simulate does
        for name in args.bots.split(","):
            rows = []
            ends: Counter[str] = Counter()
            for _ in range(args.passes):
                first = (args.seed * 1_000 + next(passes)) * 1_000_000  # this pass's own seeds
                params = {} if name in ("random", "simple") else {"ruleset": ruleset}
                bots = [Timed(make_agent(name, s, **params)) for s in range(4)]
                for h in range(args.warm):
                    run(Game(ruleset, first + h, h % 4, rules=rules), bots)
                for b in bots:
                    b.seconds, b.calls = 0.0, 0
                start = time.process_time()
                for h in range(args.hands):
                    game = Game(ruleset, first + args.warm + h, h % 4, rules=rules)
                    ends[run(game, bots).reason] += 1
                elapsed = time.process_time() - start
                inside = sum(b.seconds for b in bots)
                beside = float("nan")
                if reference is not None:
                    beside = reference.rate(args.reference_hands, time.process_time)
                rate = args.hands / elapsed
                acts = sum(b.calls for b in bots) / args.hands
                alone = args.hands / inside
                rows.append((rate, inside / elapsed, alone, acts, beside, rate / beside))
            rate, share, alone, acts, beside, ratio = (
                statistics.median(column) for column in zip(*rows, strict=True)
            )
            print(
                f"{rid:<18} {name:<11} {rate:8.1f} {share:9.0%} {alone:9.0f} {acts:9.0f} "
                f"{beside:7.1f} {ratio:6.2f}×  {dict(sorted(ends.items()))}",
                flush=True,
            )


if __name__ == "__main__":
    main()
