"""The engine's invariants over many random-agent games per shipped ruleset (the full run).

Every step of every game is checked as in tests/engine/test_invariants.py: every tile
accounted for exactly once, illegal and out-of-turn actions refused without a change,
payments balanced, every game ending; and every game's log must replay exactly.  The
test suite runs a few games per ruleset; this script runs as many as asked.

    python bench/engine_invariants.py [--games 10000] [--workers 2] [--ruleset ID ...]
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def check_range(ruleset_id: str, start: int, stop: int) -> int:
    """Check games with seeds start..stop-1; return how many passed (raises on a failure)."""
    from dsl.ruleset import load
    from interpreter.engine import replay
    from tests.engine.test_invariants import checked_game

    ruleset = load(ruleset_id)
    for seed in range(start, stop):
        game = checked_game(ruleset, seed, "random")
        replay(game.events, ruleset)
    return stop - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--ruleset", action="append", help="Ruleset id (default: every one).")
    args = parser.parse_args()
    from tests.engine.test_invariants import playable

    rulesets = args.ruleset or playable()
    chunk = max(1, args.games // (args.workers * 8))
    print(f"{args.games} random-agent games per ruleset, {args.workers} workers")
    with ProcessPoolExecutor(args.workers) as pool:
        for ruleset_id in rulesets:
            start = time.perf_counter()
            jobs = [
                pool.submit(check_range, ruleset_id, low, min(low + chunk, args.games))
                for low in range(0, args.games, chunk)
            ]
            done = sum(job.result() for job in jobs)
            elapsed = time.perf_counter() - start
            print(f"{ruleset_id:<20} {done:>7} games checked and replayed in {elapsed:7.1f} s: ok")


if __name__ == "__main__":
    main()
