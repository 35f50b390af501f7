"""Hands per second with four copies of a bot at the table, one core, and the bot's share.

Run: python bench/bots.py [--hands N] [--bots a,b] [RULESET ...]

For each ruleset and bot: hands/s of whole games (engine and bots), the share of the time
spent inside the bots' ``act``, and the rate the bots alone would allow (hands / bot time).
Pin to one core with ``taskset -c 0``.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

DEFAULT = ("changsha/qq2014", "sichuan/blog5")


class Timed:
    def __init__(self, bot) -> None:
        self.bot = bot
        self.seconds = 0.0
        self.calls = 0

    def act(self, observation, legal):
        start = time.perf_counter()
        choice = self.bot.act(observation, legal)
        self.seconds += time.perf_counter() - start
        self.calls += 1
        return choice


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("rulesets", nargs="*", default=list(DEFAULT))
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--bots", default="random,efficiency,defensive,value")
    args = parser.parse_args()

    from dsl.ruleset import load
    from interpreter.agents import make_agent
    from interpreter.engine.game import Game, run

    print(
        f"{'ruleset':<18} {'bot':<11} {'hands/s':>8} {'bot share':>9} {'bot-only':>9} "
        f"{'acts/hand':>9}  ends"
    )
    for rid in args.rulesets:
        ruleset = load(rid)
        for name in args.bots.split(","):
            params = {} if name in ("random", "simple") else {"ruleset": ruleset}
            bots = [Timed(make_agent(name, s, **params)) for s in range(4)]
            for h in range(5):  # warm the tables and the bots' memos
                run(Game(ruleset, 10_000 + h, h % 4), bots)
            for b in bots:
                b.seconds, b.calls = 0.0, 0
            ends: Counter[str] = Counter()
            start = time.perf_counter()
            for h in range(args.hands):
                ends[run(Game(ruleset, 1000 + h, h % 4), bots).reason] += 1
            elapsed = time.perf_counter() - start
            inside = sum(b.seconds for b in bots)
            acts = sum(b.calls for b in bots) / args.hands
            print(
                f"{rid:<18} {name:<11} {args.hands / elapsed:8.0f} {inside / elapsed:9.0%} "
                f"{args.hands / inside:9.0f} {acts:9.0f}  {dict(sorted(ends.items()))}"
            )


if __name__ == "__main__":
    main()
