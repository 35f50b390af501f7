"""How long loading, checking and compiling a shipped ruleset takes (target: under 0.3 s).

Run: python bench/dsl_load.py [--repeat N].  Prints the one-time imports, then one line per
ruleset: the first load in the process (the expression parser is built then) and the best of
N later loads.  Pin to one core with ``taskset -c 0``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "rulesets"
RULESETS = ("changsha/qq2014", "sichuan/blog5")
TARGET = 0.3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()

    start = time.perf_counter()
    import dsl.expressions  # noqa: F401 - the expression compiler and the hand tables it uses

    middle = time.perf_counter()
    from dsl.ruleset import load

    end = time.perf_counter()
    print(f"import dsl.expressions (one-time): {(middle - start) * 1000:7.1f} ms")
    print(f"import dsl.ruleset: {(end - middle) * 1000:7.1f} ms")
    worst = 0.0
    for ruleset_id in RULESETS:
        start = time.perf_counter()
        ruleset = load(ruleset_id, root=ROOT)
        first = time.perf_counter() - start
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            load(ruleset_id, root=ROOT)
            times.append(time.perf_counter() - start)
        best = min(times)
        worst = max(worst, first)
        expressions = sum(1 for _ in _expressions(ruleset.data))
        print(
            f"{ruleset_id:20s} first {first * 1000:7.1f} ms  best of {args.repeat} "
            f"{best * 1000:7.1f} ms  ({len(ruleset.files)} files, {expressions} expressions)"
        )
    verdict = "ok" if worst < TARGET else "TOO SLOW"
    print(f"slowest first load {worst * 1000:.1f} ms; target {TARGET * 1000:.0f} ms: {verdict}")


def _expressions(value):
    if hasattr(value, "ast"):
        yield value
    elif hasattr(value, "values") and not isinstance(value, str):
        for item in value.values():
            yield from _expressions(item)
    elif isinstance(value, tuple):
        for item in value:
            yield from _expressions(item)


if __name__ == "__main__":
    main()
