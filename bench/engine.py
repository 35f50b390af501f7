"""Hands per second played by the generic engine with random (and simple) agents, one core.

Run: python bench/engine.py [--hands N] [--agent random|simple] [RULESET ...].  Every
non-abstract shipped ruleset by default; one line per ruleset: hands/s, decisions per hand,
and how the hands ended.  The warm-up plays other walls than the timed hands.  Pin to one
core with ``taskset -c 0``.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "rulesets"
TARGET = 500


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("rulesets", nargs="*")
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--agent", default="random", choices=("random", "simple"))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    from dsl.ruleset import available_ids, load
    from handcore.suit_tables import suit_splits
    from interpreter.engine import play

    suit_splits()  # the splits table is built on first use: not part of any ruleset's time

    ids = args.rulesets or [
        rid
        for rid in available_ids(ROOT)
        if not (load(rid, root=ROOT, compile=False).get("ruleset") or {}).get("abstract")
    ]
    print(f"{'ruleset':<20} {'hands/s':>8} {'acts/hand':>9}  ends ({args.agent} agents, "
          f"{args.hands} hands, target ≥ {TARGET}/s)")  # fmt: skip
    for rid in ids:
        ruleset = load(rid, root=ROOT)
        play(ruleset, args.seed + 7919, args.agent, hands=3)  # warm up on other walls
        start = time.perf_counter()
        result, events = play(ruleset, args.seed, args.agent, hands=args.hands)
        elapsed = time.perf_counter() - start
        acts = sum(e["type"] == "act" for e in events) / args.hands
        ends = Counter(h.reason for h in result.hands)
        print(f"{rid:<20} {args.hands / elapsed:8.0f} {acts:9.0f}  {dict(sorted(ends.items()))}")


if __name__ == "__main__":
    main()
