"""Is a bot stronger than the field? Duplicate format, one wall at a time, resumable.

Run: python bench/search_strength.py RULESET [--agent BOT] [--field BOT] [--walls N]
                                     [--seed S] [--workers W] [--out FILE] [--summary]
                                     [--against FILE ...]

On each wall (dealt as ``simulate`` deals hand i) ``--agent`` plays one seat, in every seat
in turn, and ``--field`` the others: ``interpreter.duplicate.play_walls``, the same as
``duplicate_table``.  A wall's figure is the agent's mean points per hand over its seats;
as payments move money between the seats, the field's own mean on that wall is 0, so the
figure is the agent's gain over a field bot in its place, the luck of the wall cancelled.

The search bot plays a few hands a minute, so a run that means anything takes hours: every
wall is appended to ``--out`` (JSON Lines) as it ends, and a run given the same file goes
on from the walls it holds (it refuses a file of another ruleset, agent, field or seed).
``--summary`` prints the figures of the file without playing.  ``--against FILE`` (again
for more) sets the run beside another run of the same ruleset, field and seed (another
agent, or the same agent before a change) on the walls both hold, wall by wall.

``--known-hands`` gives the search bot worlds in which the other hands are the ones really
held and only the wall is dealt anew (``interpreter.agents.search.known_world``): not a
player, a bound on what reading the others' hands could gain it.  Its walls are kept as a
run of their own.

Printed: walls and hands, mean points per hand with a 95% CI (normal approximation over
walls), walls worse / equal / better, and the CPU time: hands per second with the agent
at one seat of the table (its rollouts are nearly all of it).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.tournament import mean_ci


def play_wall(job: tuple[dict[str, Any], int]) -> dict[str, Any]:
    """One wall of the run described by ``about``: the agent's mean points, CPU seconds."""
    from interpreter.agents import search
    from interpreter.duplicate import DuplicateSpec, play_walls

    about, wall = job
    spec = DuplicateSpec(about["ruleset"], (), None, about["seed"], about["field"],
                         (about["agent"],))  # fmt: skip
    dealt = search.sample_world
    if about.get("worlds") == "known":  # the search bots of this wall see the others' hands
        search.sample_world = search.known_world
    try:
        start = time.process_time()
        row = play_walls(spec, wall, wall + 1)[0]
        cpu = time.process_time() - start
    finally:
        search.sample_world = dealt
    return {**about, "wall": wall, "points": row[about["agent"]], "cpu": round(cpu, 2)}


RUN = ("ruleset", "agent", "field", "seed", "worlds")
"""What makes a run: a file holds the walls of one."""
WALLS = ("ruleset", "field", "seed")
"""What makes the same walls, for setting one run beside another."""


def read_rows(
    path: Path, about: dict[str, Any], keys: tuple[str, ...] = RUN
) -> list[dict[str, Any]]:
    """The walls kept in ``path`` (none when it does not exist), checked to agree with
    ``about`` on ``keys``."""
    about = {k: about.get(k) for k in keys}
    if not path.exists():
        return []
    rows = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        try:
            row = json.loads(line)
        except json.JSONDecodeError as error:
            raise SystemExit(f"{path}:{number}: not a JSON line ({error.msg})") from None
        if not isinstance(row, dict) or not all(
            isinstance(row.get(k), (int, float)) for k in ("wall", "points", "cpu")
        ):
            raise SystemExit(f"{path}:{number}: not a wall (an object with wall, points, cpu)")
        other = {k: row.get(k) for k in keys}
        if other != about:
            raise SystemExit(f"{path}:{number}: a wall of another run ({other}), not of {about}")
        rows.append(row)
    return rows


def summary(rows: list[dict[str, Any]], players: int) -> str:
    points = [r["points"] for r in rows]
    if not points:
        return "no wall played yet"
    mean, ci = mean_ci(points)
    hands = len(points) * players
    cpu = sum(r["cpu"] for r in rows)
    about = rows[0]
    return "\n".join([
        f"{_name(about)} against {about['field']} on {about['ruleset']}, seed {about['seed']}: "
        f"{len(points)} walls, {hands} hands with the agent at the table",
        f"mean points / hand over the field bot: {mean:+.2f} ± {ci:.2f} (95% CI)"
        + _significance(mean, ci),
        spread(points),
        f"CPU: {cpu / len(points):.1f} s a wall, {hands / cpu:.3f} hands/s per core",
    ])  # fmt: skip


def paired(rows: list[dict[str, Any]], others: list[dict[str, Any]], name: str) -> str:
    """This run against another on the walls both hold (the same walls, so the difference
    is the agents', not the walls' luck): another agent, or the same one before a change."""
    theirs = {r["wall"]: r["points"] for r in others}
    common = sorted(r["wall"] for r in rows if r["wall"] in theirs)
    if not common:
        return f"against {name}: no wall in common"
    ours = {r["wall"]: r["points"] for r in rows}
    gains = [ours[w] - theirs[w] for w in common]
    mean, ci = mean_ci(gains)
    this = mean_ci([ours[w] for w in common])
    that = mean_ci([theirs[w] for w in common])
    return "\n".join([
        f"against {name} ({_name(others[0])}), on the {len(common)} walls both hold:",
        f"  this run {this[0]:+.2f} ± {this[1]:.2f}, that run {that[0]:+.2f} ± {that[1]:.2f}",
        f"  this − that: {mean:+.2f} ± {ci:.2f} points / hand (95% CI)" + _significance(mean, ci),
        "  " + spread(gains),
    ])  # fmt: skip


def _name(row: dict[str, Any]) -> str:
    """The agent of a run, and whether it saw the others' hands."""
    known = row.get("worlds") == "known"
    return row["agent"] + (" (the other hands known)" if known else "")


def spread(values: list[float]) -> str:
    worse = sum(v < 0 for v in values)
    better = sum(v > 0 for v in values)
    return f"walls worse / equal / better: {worse} / {len(values) - worse - better} / {better}"


def _significance(mean: float, ci: float) -> str:
    return "  significant" if abs(mean) > ci else "  not significant"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("ruleset")
    parser.add_argument("--agent", default="search")
    parser.add_argument("--field", default="strategy")
    parser.add_argument("--walls", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, help="JSON Lines file (default: a name from the run)")
    parser.add_argument("--summary", action="store_true", help="print the file's figures only")
    parser.add_argument(
        "--known-hands", action="store_true",
        help="the search bot's worlds keep the other hands as held (a bound, not a player)",
    )  # fmt: skip
    parser.add_argument(
        "--against", type=Path, action="append", default=[],
        help="another run's file (same ruleset, field and seed): the difference wall by wall",
    )  # fmt: skip
    args = parser.parse_args()
    from dsl.problems import RulesetError
    from interpreter.simulate import _prepared

    try:
        players = _prepared(args.ruleset, (), None)[1].players
    except RulesetError as error:
        raise SystemExit(str(error)) from None
    about = {"ruleset": args.ruleset, "agent": args.agent, "field": args.field, "seed": args.seed}
    if args.known_hands:
        about["worlds"] = "known"
    out = args.out or Path(f"strength-{args.ruleset.replace('/', '-')}-seed{args.seed}.jsonl")
    rows = read_rows(out, about)
    done = {r["wall"] for r in rows}
    todo = [(about, w) for w in range(args.walls) if w not in done]
    if not args.summary and todo:
        print(f"{len(todo)} walls to play, {len(done)} kept in {out}", file=sys.stderr)
        with Pool(args.workers) as pool, out.open("a") as file:
            for row in pool.imap_unordered(play_wall, todo):
                file.write(json.dumps(row) + "\n")
                file.flush()
                rows.append(row)
                print(f"\rwall {len(rows)}/{args.walls}", end="", file=sys.stderr)
        print(file=sys.stderr)
    print(summary(sorted(rows, key=lambda r: r["wall"]), players))
    for path in args.against:
        if not path.exists():
            raise SystemExit(f"{path}: no such file")
        print(paired(rows, read_rows(path, about, WALLS), str(path)))


if __name__ == "__main__":
    main()
