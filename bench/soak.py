"""A long soak: many hands per shipped ruleset, every bot type at the table, the engine's
invariants checked at every step.

Hand i (seed i) seats the bots in turn: seat s plays bot (i + s) mod 7 of ``BOTS`` (every
bot type, the search bot at a small budget), so every bot plays every seat against every
other.  Every step is checked as in tests/engine/test_invariants.py (every tile accounted for once,
illegal and out-of-turn actions refused without a change, payments balanced, every hand
ends) and every hand's log must replay exactly.  A hand that breaks any of these, raises,
or kills its worker process counts as a violation.  Prints hands, violations and the
peak memory (resident set) of the largest worker, per ruleset (each ruleset on new
worker processes, so that its peak is its own); exits 1 on a violation.

    python bench/soak.py [--hands 100000] [--workers 2] [--ruleset ID ...]
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SHOWN = 5
"""Violations printed in full, per ruleset."""


BOTS = ("random", "simple", "efficiency", "value", "defensive", "strategy", "search:budget=2")
"""Every bot type; the search bot with 2 sampled worlds a decision (its default, 6, would make
it nearly all of the soak's time; what its rollouts exercise is the same)."""


def bots(hand: int, players: int) -> list[str]:
    return [BOTS[(hand + seat) % len(BOTS)] for seat in range(players)]


def soak_range(ruleset_id: str, start: int, stop: int) -> tuple[int, list[str], int]:
    """Play and check hands start..stop-1: (hands, violations, peak resident KiB)."""
    import pytest

    from dsl.ruleset import load
    from interpreter.engine import replay
    from interpreter.engine.rules import Rules
    from tests.engine.test_invariants import checked_game

    ruleset = load(ruleset_id)
    players = Rules(ruleset).players
    violations = []
    for hand in range(start, stop):
        try:
            game = checked_game(ruleset, hand, bots(hand, players))
            replay(game.events, ruleset)
        except (Exception, pytest.fail.Exception) as error:  # a broken invariant, or a crash
            violations.append(f"hand {hand} ({','.join(bots(hand, players))}): {error!r}")
    return stop - start, violations, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def soak(pool: Any, ruleset_id: str, hands: int, workers: int) -> tuple[int, list[str], int]:
    """Every hand of one ruleset, in chunks on the pool's processes."""
    from interpreter.simulate import Chunks
    from interpreter.workers import LOST

    todo = Chunks([(0, hands)], max(1, min(100, hands // (workers * 8))))
    ranges = {pool.submit(ruleset_id, a, b): (a, b) for a, b in todo}
    done, violations, peak = 0, [], 0
    for _ in todo:
        number, result = pool.wait_one()
        if result is LOST:
            a, b = ranges[number]
            violations.append(f"hands {a}-{b - 1}: the worker process died, twice")
            continue
        count, found, rss = result
        done += count
        violations += found
        peak = max(peak, rss)
    return done, violations, peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000, help="Hands per ruleset.")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--ruleset", action="append", help="Ruleset id (default: every one).")
    args = parser.parse_args()
    from interpreter.workers import Pool
    from tests.engine.test_invariants import playable

    print(
        f"{args.hands:,} hands per ruleset, bots {', '.join(BOTS)} in turn at every seat, "
        f"invariants at every step, {args.workers} workers"
    )
    print(f"{'ruleset':<20} {'hands':>9} {'violations':>10} {'seconds':>9} {'peak MiB':>9}")
    total, broken, peak = 0, 0, 0
    for ruleset_id in args.ruleset or playable():
        start = time.perf_counter()
        pool = Pool(args.workers, soak_range)  # new processes: the peak is this ruleset's own
        try:
            hands, violations, rss = soak(pool, ruleset_id, args.hands, args.workers)
        finally:
            pool.close()
        seconds = time.perf_counter() - start
        total, broken, peak = total + hands, broken + len(violations), max(peak, rss)
        print(
            f"{ruleset_id:<20} {hands:>9,} {len(violations):>10,} {seconds:>9.1f} "
            f"{rss / 1024:>9.0f}",
            flush=True,
        )
        for violation in violations[:SHOWN]:
            print(f"  {violation}")
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(
        f"{'total':<20} {total:>9,} {broken:>10,} {'':>9} {max(peak, own) / 1024:>9.0f}"
        "   (peak: the largest process)"
    )
    sys.exit(1 if broken else 0)


if __name__ == "__main__":
    main()
