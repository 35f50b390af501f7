"""A duplicate tournament between bots: the same walls, seats rotated, per ruleset.

Run: python bench/tournament.py [--walls N] [--workers W] [--bots a,b,c,d] [RULESET ...]

Every wall (a game seed) is played once per rotation of the bots round the seats, so each
bot sits in every seat, dealer included, on the same tiles.  A bot's result on a wall is
its mean points per hand over its rotations; the table gives each bot's mean over the walls
with a 95% confidence interval, and the differences between bots *paired by wall* (the
luck of the wall cancels, so they are far tighter than the bare means suggest).

Default: changsha/qq2014 and sichuan/blog5, bots random, efficiency, value, defensive.
"""

from __future__ import annotations

import argparse
import math
import os
import time
from collections.abc import Sequence
from multiprocessing import Pool
from typing import Any

DEFAULT_RULESETS = ("changsha/qq2014", "sichuan/blog5")
DEFAULT_BOTS = ("random", "efficiency", "value", "defensive")
PAIRS = (
    ("value", "efficiency"),
    ("efficiency", "random"),
    ("defensive", "efficiency"),
    ("value", "random"),
)


def agent(name: str, seed: int, ruleset: Any) -> Any:
    """A named bot given the ruleset when it takes one (so it needs no observation field)."""
    from interpreter.agents import make_agent

    try:
        return make_agent(name, seed, ruleset=ruleset)
    except ValueError:
        return make_agent(name, seed)


def play_walls(job: tuple[str, Sequence[str], int, int, int]) -> list[list[float]]:
    """For walls ``first`` .. ``first + count - 1``: each bot's mean points per hand."""
    ruleset_id, bots, first, count, base_seed = job
    from dsl.ruleset import load
    from interpreter.engine.game import Game, run
    from interpreter.engine.rules import Rules

    ruleset = load(ruleset_id)
    rules = Rules(ruleset)
    n = rules.players
    k = len(bots)
    if k != n:
        raise SystemExit(f"{ruleset_id} seats {n} players: give {n} bots, not {k}")
    out = []
    for wall in range(first, first + count):
        seed = base_seed * 1_000_003 + wall
        totals = [0.0] * k
        for rotation in range(k):
            names = [bots[(s + rotation) % k] for s in range(n)]
            agents = [agent(name, seed * 16 + s, ruleset) for s, name in enumerate(names)]
            game = Game(ruleset, seed, wall % n, rules=rules)
            result = run(game, agents)
            for s, delta in enumerate(result.deltas):
                totals[(s + rotation) % k] += delta
        out.append([t / k for t in totals])
    return out


def mean_ci(xs: Sequence[float]) -> tuple[float, float]:
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, math.inf
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, 1.96 * math.sqrt(var / n)


def tournament(
    ruleset_id: str, bots: Sequence[str], walls: int, workers: int, seed: int
) -> list[list[float]]:
    chunk = max(1, min(50, walls // (workers * 4) or 1))
    jobs = [
        (ruleset_id, tuple(bots), i, min(chunk, walls - i), seed) for i in range(0, walls, chunk)
    ]
    if workers > 1:
        with Pool(workers) as pool:
            parts = pool.map(play_walls, jobs)
    else:
        parts = [play_walls(j) for j in jobs]
    return [row for part in parts for row in part]


def report(ruleset_id: str, bots: Sequence[str], rows: list[list[float]], seconds: float) -> str:
    hands = len(rows) * len(bots)
    lines = [
        f"### {ruleset_id}: {len(rows)} walls × {len(bots)} rotations = {hands} hands "
        f"({hands / seconds:.0f} hands/s)",
        "",
        "| bot | mean points / hand | 95% CI |",
        "|---|---:|---:|",
    ]
    for i, b in enumerate(bots):
        m, ci = mean_ci([r[i] for r in rows])
        lines.append(f"| {b} | {m:+.3f} | ±{ci:.3f} |")
    lines += [
        "",
        "| paired difference (by wall) | mean | 95% CI | significant |",
        "|---|---:|---:|:---:|",
    ]
    pairs = [p for p in PAIRS if p[0] in bots and p[1] in bots]
    if not pairs:  # bots outside the usual four: each against the first
        pairs = [(b, bots[0]) for b in bots[1:]]
    for a, b in pairs:
        if True:
            ia, ib = bots.index(a), bots.index(b)
            m, ci = mean_ci([r[ia] - r[ib] for r in rows])
            sig = "yes" if abs(m) > ci else "no"
            lines.append(f"| {a} − {b} | {m:+.3f} | ±{ci:.3f} | {sig} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("rulesets", nargs="*", default=list(DEFAULT_RULESETS))
    parser.add_argument("--walls", type=int, default=200)
    parser.add_argument("--bots", default=",".join(DEFAULT_BOTS))
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    bots = args.bots.split(",")
    for rid in args.rulesets:
        start = time.perf_counter()
        rows = tournament(rid, bots, args.walls, args.workers, args.seed)
        print(report(rid, bots, rows, time.perf_counter() - start))
        print(flush=True)


if __name__ == "__main__":
    main()
