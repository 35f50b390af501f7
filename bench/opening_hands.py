"""Opening hands (起手胡): observed rates over engine deals against exact probabilities.

Run: python bench/opening_hands.py [--deals 1000000] [--workers N] [RULESET ...]

Each deal is made by the engine's own dealing code (``interpreter.simulate.dealt_hands``:
the shuffled wall broken by the dice, dealt in rounds of four) from the hand seeds a
simulation uses; the dealer's hand (14 tiles) and the hand of the seat after it (13
tiles) are judged by the ruleset's ``opening_hands`` conditions.  The exact probability
of each condition is counted over the 108-tile multiset (``tests/simulate/exact.py``),
without the engine.  Printed: observed rate, exact rate, z = (observed - exact) / SE.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from functools import lru_cache
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

DEFAULT = ("changsha/full2007", "yizhihua=true")


def opening_conditions(ruleset):
    """The ruleset's enabled opening hands: id -> compiled condition."""
    from dsl.situation import Situation

    hands = (ruleset.get("opening_hands") or {}).get("hands") or {}
    found = {}
    for name, entry in hands.items():
        enabled = entry.get("enabled", True)
        if callable(enabled):
            enabled = enabled(Situation(keys=(0, 0, 0), options=ruleset.option_values))
        if enabled and entry.get("when") is not None:
            found[name] = entry["when"]
    return found


@lru_cache(maxsize=4)
def _load(ref, settings):
    from dsl.ruleset import load

    return load(ref, settings=settings)


def count_opening_hands(ref, settings, seed, start, stop):
    """For deals start..stop-1: Counter of (tiles in hand, hand id) and deals per hand size."""
    from dsl.situation import Situation
    from handcore import shapes
    from handcore.tiles import STANDARD
    from interpreter.engine.rules import Rules
    from interpreter.simulate import dealer_of, dealt_hands, hand_seed

    ruleset = _load(ref, tuple(settings))
    rules = Rules(ruleset)
    conditions = opening_conditions(ruleset)
    hits: Counter = Counter()
    sizes: Counter = Counter()
    options = rules.options
    for i in range(start, stop):
        dealer = dealer_of(i, rules.players)
        hands = dealt_hands(rules, hand_seed(seed, i), dealer)
        for seat in (dealer, (dealer + 1) % rules.players):
            tiles = hands[seat]
            keys = shapes.keys_of(STANDARD.counts(tiles))
            situation = Situation(keys=keys, opening=True, winner=seat, dealer=dealer,
                                  players=rules.players, options=options)  # fmt: skip
            sizes[len(tiles)] += 1
            for name, when in conditions.items():
                if when(situation):
                    hits[len(tiles), name] += 1
    return hits, sizes


def compare(hits, sizes, names):
    """Rows (size, id, observed count, deals, observed rate, exact rate, z)."""
    from tests.simulate.exact import EXACT

    rows = []
    for size in sorted(sizes):
        n = sizes[size]
        for name in names:
            if name not in EXACT:
                continue
            p = float(EXACT[name](size))
            k = hits[size, name]
            se = math.sqrt(p * (1 - p) / n)
            rows.append((size, name, k, n, k / n, p, (k / n - p) / se))
    return rows


def run(ref, settings, deals, seed, workers):
    from dsl.ruleset import load

    names = list(opening_conditions(load(ref, settings=settings)))
    step = math.ceil(deals / (workers * 4))
    parts = [(a, min(a + step, deals)) for a in range(0, deals, step)]
    hits: Counter = Counter()
    sizes: Counter = Counter()
    with ProcessPoolExecutor(workers) as pool:
        futures = [pool.submit(count_opening_hands, ref, settings, seed, a, b) for a, b in parts]
        for f in futures:
            h, s = f.result()
            hits.update(h)
            sizes.update(s)
    return compare(hits, sizes, names)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ruleset", nargs="?", default=DEFAULT[0])
    parser.add_argument("--set", dest="settings", action="append", default=None)
    parser.add_argument("--deals", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    settings = args.settings if args.settings is not None else (
        [DEFAULT[1]] if args.ruleset == DEFAULT[0] else [])  # fmt: skip
    start = time.perf_counter()
    rows = run(args.ruleset, settings, args.deals, args.seed, args.workers)
    elapsed = time.perf_counter() - start
    print(f"{args.ruleset} {' '.join(settings)}: {args.deals:,} deals, seed {args.seed}, "
          f"{elapsed:.0f} s on {args.workers} workers")  # fmt: skip
    print(f"{'tiles':>5} {'hand':<12} {'count':>8} {'observed':>10} {'exact':>10} {'z':>6}")
    for size, name, k, _n, rate, p, z in rows:
        print(f"{size:>5} {name:<12} {k:>8,} {rate:>10.6f} {p:>10.6f} {z:>+6.2f}")
    worst = max(abs(r[-1]) for r in rows)
    print(f"largest |z| = {worst:.2f} ({'within' if worst < 3 else 'OUTSIDE'} 3 standard errors)")


if __name__ == "__main__":
    main()
