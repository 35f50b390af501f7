"""Tune a bot for every shipped ruleset and write the shipped parameter files.

Run: python bench/tune_all.py [--budget N] [--games W] [--check-games C] [--seed S]
                              [--workers K] [--bot BOT] [--force] [RULESET ...]

For each ruleset (default: every shipped ruleset one can play) it runs
:func:`interpreter.tune.tune` against the bot's defaults and writes
``interpreter/agents/tuned/BOT/REGION/VERSION.yaml``, which ``--agents BOT:tuned`` loads
(docs/AGENTS.md, "Tuning and parameter files").  A file that is current (the same
ruleset hash, bot and seed, at least as many trials and walls) is skipped, so a stopped run
resumes where it stopped; ``--force`` tunes again.  When the best trial does not gain on the
check walls the file keeps the defaults (``kept_field``, :mod:`interpreter.tune`).

Cost, measured with the defaults on one shared core: about 4 minutes a Changsha ruleset and
12 a Sichuan one (longer hands: play goes on after a win).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def is_current(path: str, bot: str, ruleset: str, args: argparse.Namespace) -> bool:
    """The file at ``path`` tuned ``bot`` on the ruleset as it is now, from the same seed,
    with at least this run's trials and walls."""
    from dsl.ruleset import load
    from interpreter.agents import param_file
    from interpreter.summary import ruleset_hash

    if not os.path.isfile(path):
        return False
    try:
        data = param_file(path)
    except ValueError:
        return False
    same = {"bot": bot, "field": bot, "ruleset": ruleset, "seed": args.seed,
            "ruleset_hash": ruleset_hash(load(ruleset))}  # fmt: skip
    least = {"budget": args.budget, "walls": args.games, "check_walls": args.check_games}
    return all(data.get(k) == v for k, v in same.items()) and all(
        isinstance(data.get(k), int) and data[k] >= v for k, v in least.items()
    )


def table(paths: list[str]) -> str:
    """The parameter files as a Markdown table: what each gained on its check walls."""
    from interpreter.agents import param_file

    lines = ["| ruleset | trials × walls | check walls | best trial's gain / hand [95% CI] "
             "| file holds |", "|---|---:|---:|---:|---|"]  # fmt: skip
    for path in paths:
        d = param_file(path)
        low, high = d["ci95"]
        gain = f"{d['gain']:+.3f} [{low:+.3f}, {high:+.3f}]"
        if d["best_trial"] == d["parameters"] and d["kept_field"]:
            gain = "no trial beat the defaults"
        holds = "the defaults" if d["kept_field"] else "the best trial"
        lines.append(f"| {d['ruleset']} | {d['budget']} × {d['walls']} | {d['check_walls']} "
                     f"| {gain} | {holds} |")  # fmt: skip
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "rulesets",
        nargs="*",
        metavar="RULESET",
        help="ruleset ids [default: every shipped ruleset one can play]",
    )
    parser.add_argument("--bot", default="strategy", help="the bot tuned [default: strategy]")
    parser.add_argument("--budget", type=int, default=16, help="trials a ruleset [16]")
    parser.add_argument("--games", type=int, default=30, help="tuning walls a trial [30]")
    parser.add_argument(
        "--check-games", type=int, default=120, help="new walls the best trial is measured on [120]"
    )
    parser.add_argument("--seed", type=int, default=1, help="master seed of the tuning walls [1]")
    parser.add_argument("--workers", type=int, default=1, help="processes [1]")
    parser.add_argument("--force", action="store_true", help="tune current files again")
    parser.add_argument("--table", action="store_true", help="print the files as a table")
    args = parser.parse_args(argv)

    from interpreter import tune as tuning
    from interpreter.agents import shipped_rulesets, tuned_file
    from interpreter.compare import Run, Setting

    rulesets = args.rulesets or shipped_rulesets()
    if args.table:
        print(table([str(tuned_file(args.bot, r)) for r in rulesets]))
        return 0
    start = time.monotonic()
    for n, ruleset in enumerate(rulesets, 1):
        path = str(tuned_file(args.bot, ruleset))
        head = f"[{n}/{len(rulesets)}] {ruleset}"
        if not args.force and is_current(path, args.bot, ruleset, args):
            print(f"{head}: current, skipped ({path})", flush=True)
            continue
        began = time.monotonic()
        print(f"{head}: tuning the {args.bot} bot, {args.budget} trials on {args.games} walls",
              flush=True)  # fmt: skip
        result = tuning.tune(
            Setting(ruleset), args.bot, args.budget, args.games, args.seed, args.check_games,
            Run(args.workers, progress=False), lambda line: print(f"  {line}", flush=True),
        )  # fmt: skip
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tuning.write(result, path, load=f"{args.bot}:tuned (on {ruleset})")
        print("  " + result.to_text().replace("\n", "\n  "), flush=True)
        print(f"  written to {path} in {time.monotonic() - began:.0f} s "
              f"({time.monotonic() - start:.0f} s in all)", flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
