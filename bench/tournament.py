"""A duplicate tournament between bots: the same walls, every seating, per ruleset.

Run: python bench/tournament.py [--walls N] [--workers W] [--bots a,b,c,d] [--seed S]
                                [--seatings all|rotations] [RULESET ...]

Every wall (a game seed) is played once per seating of the bots, so each bot sits in every
seat, dealer included, on the same tiles.  ``--seatings all`` (the default) plays every
order of the bots (24 games a wall for four), so each bot also sits after every other
equally.  ``--seatings rotations`` only turns them round the table (4 games a wall) and
keeps who sits after whom, which biases the result where only the next player may chow:
the bot after a weak one gets its discards (in Changsha a copy of the efficiency bot
seated after the value bot came out 1.3 points a hand behind the one after random).

A bot's result on a wall is its mean points per hand over the seatings; the table gives
each bot's mean over the walls with a 95% confidence interval, and the differences between
bots *paired by wall* (the luck of the wall cancels, so they are far tighter than the bare
means suggest).

Default: changsha/qq2014 and sichuan/blog5, bots random, efficiency, value, defensive.
Bots may carry parameters (``defensive:defence=0.3``); a bot outside the usual pairs is
compared with the first bot named.  ``--seed`` picks another set of walls: tune on one
seed, report on another.
"""

from __future__ import annotations

import argparse
import itertools
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
    ("strategy", "value"),
    ("strategy", "efficiency"),
    ("strategy", "defensive"),
)


def seatings(k: int, kind: str) -> list[tuple[int, ...]]:
    """Which bot sits in each seat, per game of a wall: rotations of the bots, or every order."""
    if kind == "rotations":
        return [tuple((s + r) % k for s in range(k)) for r in range(k)]
    return list(itertools.permutations(range(k)))


def play_walls(job: tuple[Any, ...]) -> list[list[float]]:
    """For walls ``first`` .. ``first + count - 1``: each bot's mean points per hand.

    ``job``: ruleset id, bots, first wall, count, base seed, and (optionally) the seatings."""
    ruleset_id, bots, first, count, base_seed = job[:5]
    kind = job[5] if len(job) > 5 else "rotations"
    from interpreter.duplicate import play_seatings
    from interpreter.simulate import _prepared

    ruleset, rules = _prepared(ruleset_id, (), None)
    n = rules.players
    k = len(bots)
    if k != n:
        raise SystemExit(f"{ruleset_id} seats {n} players: give {n} bots, not {k}")
    orders = seatings(k, kind)
    out = []
    for wall in range(first, first + count):
        seed = base_seed * 1_000_003 + wall
        played = play_seatings(ruleset, rules, seed, wall % n,
                               [[bots[b] for b in order] for order in orders])  # fmt: skip
        totals = [0.0] * k
        for order, deltas in zip(orders, played, strict=True):
            for s, delta in enumerate(deltas):
                totals[order[s]] += delta
        out.append([t / len(orders) for t in totals])
    return out


def mean_ci(xs: Sequence[float]) -> tuple[float, float]:
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, math.inf
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, 1.96 * math.sqrt(var / n)


def tournament(
    ruleset_id: str,
    bots: Sequence[str],
    walls: int,
    workers: int,
    seed: int,
    kind: str = "all",
) -> list[list[float]]:
    chunk = max(1, min(50, walls // (workers * 4) or 1))
    jobs = [
        (ruleset_id, tuple(bots), i, min(chunk, walls - i), seed, kind)
        for i in range(0, walls, chunk)
    ]
    if workers > 1:
        with Pool(workers) as pool:
            parts = pool.map(play_walls, jobs)
    else:
        parts = [play_walls(j) for j in jobs]
    return [row for part in parts for row in part]


def report(
    ruleset_id: str,
    bots: Sequence[str],
    rows: list[list[float]],
    seconds: float,
    kind: str = "all",
) -> str:
    games = len(seatings(len(bots), kind))
    hands = len(rows) * games
    lines = [
        f"### {ruleset_id}: {len(rows)} walls × {games} seatings = {hands} hands "
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
    # bots outside the usual four (a variant such as defensive:defence=0.3): against the first
    pairs += [(b, bots[0]) for b in bots[1:] if not any(b in p for p in pairs)]
    for a, b in pairs:
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
    parser.add_argument("--seatings", choices=("all", "rotations"), default="all")
    args = parser.parse_args()
    bots = args.bots.split(",")
    for rid in args.rulesets:
        start = time.perf_counter()
        rows = tournament(rid, bots, args.walls, args.workers, args.seed, args.seatings)
        print(report(rid, bots, rows, time.perf_counter() - start, args.seatings))
        print(flush=True)


if __name__ == "__main__":
    main()
