"""Strength and realism: how each bot's play looks, per ruleset, beside riichi's human figures.

Run: python bench/realism.py [--hands N] [--seed S] [--bots a,b,...] [--workers W]
                             [--out DIR] [RULESET ...]

For each ruleset and bot, ``--hands`` hands with four copies of the bot at the table, dealt
as ``mjrules simulate`` deals them (hand i from the master seed and i alone, so every bot
plays the same walls), and per bot, each with its 95% confidence interval (hands are the
unit, so the four seats of a hand are not counted as independent):

- 流局: the share of hands nobody wins; wins per hand;
- 和了率 and 放铳率: the share of hands a seat wins, and deals into a win (mean of the four);
- 副露率 (call rate): the share of hands a seat claims another's discard at least once for a
  pung, chow or kong (an open meld), as Tenhou counts it;
- 自摸: the share of wins that are self-drawn; the turn (巡目) of the hand's first win;
- the shares of the main hand types among wins, each with the types that replace it in
  settlement (清一色 counts a 清对 or 清七对 win too, as Tenhou's 清一色 counts any win with
  the yaku); the plain win alone.  Other hand types are shown where some bot wins at least
  1% of its wins with one.

Every figure is the per-hand definition of ``interpreter.summary.hand_figures`` (the one
``mjrules simulate`` and ``mjrules compare`` total); the intervals are
``interpreter.compare``'s.  Beside them: the riichi figures of Tenhou's top tables, where
they are the only public reference, the direction this ruleset's rules should move each
one (↑, ↓, or ? where they pull both ways; docs/AGENTS.md, Strength and realism, says why)
and where the bots are: above, within or below the reference by their intervals (the
random bot left out).  The output is markdown (stdout); progress goes to stderr.

``--out DIR`` keeps each run's rows (``DIR/RULESET-BOT-SEED-N.parquet``, a bot with
parameters named by a short hash of them: :func:`run_name`); a run found
there, whole or stopped part-way, is resumed rather than replayed, so the tables can be
made again at once.  Use a new folder once a bot has changed, and one process a folder at a
time (two resuming one run write the same parts).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from interpreter.compare import Estimate, mean_interval, ratio_interval
from interpreter.summary import hand_figures, hand_names

DEFAULT_RULESETS = ("changsha/qq2014", "sichuan/blog5")
DEFAULT_BOTS = ("random", "efficiency", "defensive", "value", "strategy")
MAIN_TYPES = (
    "pinghu", "qingyise", "qixiaodui", "qidui", "pengpenghu", "duiduihu", "jiangjianghu",
    "quanqiuren", "menqing",
)  # fmt: skip
"""The hand types always shown, where the ruleset has them; the first is the plain win."""
OTHER_SHOWN = 0.01
"""Another hand type is shown once some bot wins this share of its wins with it."""

RIICHI: dict[str, tuple[float, float]] = {
    "no_winner": (0.161, 0.162),
    "win_rate": (0.211, 0.211),
    "deal_in_rate": (0.125, 0.125),
    "call_rate": (0.344, 0.344),
    "self_draw_share": (0.40, 0.41),  # derived: wins less deal-ins (a double ron is one)
    "type:qingyise": (0.0052, 0.0055),  # 清一色
    "type:qixiaodui": (0.0266, 0.0271),  # 七対子
    "type:qidui": (0.0266, 0.0271),
    "type:pengpenghu": (0.0161, 0.0166),  # 対々和
    "type:duiduihu": (0.0161, 0.0166),
}
"""Tenhou's top tables (鳳凰卓, riichi), (low, high) over two public counts: 2016, 1.71 million
hands (blog.kobalab.net/entry/20180113/1515776231) and 2018, 1.85 million hands
(mahjong-lurker.xyz/tenhou/paihu-analysis/tenhou-2018-data-1/).  A hand type's share counts
every win with that yaku.  The self-drawn share is derived from the 2016 counts: 1,442,983
wins, 853,832 deal-ins (a double ron counted once), so 40–41% of wins are self-drawn."""

_BOTH = {"type:qixiaodui": "↑", "type:qidui": "↑", "type:pengpenghu": "↑", "type:duiduihu": "↑"}
EXPECTED: dict[str, dict[str, str]] = {
    "changsha/qq2014": {
        "no_winner": "?", "win_rate": "?", "deal_in_rate": "↑", "call_rate": "↑",
        "self_draw_share": "↑", "type:qingyise": "↑", **_BOTH,
    },
    "sichuan/blog5": {
        "no_winner": "↓", "win_rate": "↑", "deal_in_rate": "↑", "call_rate": "?",
        "self_draw_share": "↑", "type:qingyise": "↑", **_BOTH,
    },
    "hunan/hongzhong": {
        "no_winner": "?", "win_rate": "?", "deal_in_rate": "↓", "call_rate": "?",
        "self_draw_share": "↑", **_BOTH,
    },
}  # fmt: skip
"""Per ruleset, which way its rules should move each riichi figure (docs/AGENTS.md says why)."""


# --- the figures ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Figure:
    key: str
    label: str
    unit: str
    """'share' (shown in %) or 'count'."""
    estimate: Estimate | None


def families(ruleset: Any) -> dict[str, frozenset[str]]:
    """Hand type id → it and every hand type that replaces it (``replaces``, followed
    through): a win recorded as 清对 is a 清一色 win too.  The plain win stands alone."""
    hands = ruleset.get("hands") or {}
    replaced_by: dict[str, set[str]] = {}
    for id_, spec in hands.items():
        for old in spec.get("replaces") or ():
            replaced_by.setdefault(old, set()).add(id_)

    def closure(id_: str) -> frozenset[str]:
        seen, todo = {id_}, [id_]
        while todo:
            for new in replaced_by.get(todo.pop(), ()):
                if new not in seen:
                    seen.add(new)
                    todo.append(new)
        return frozenset(seen)

    return {id_: frozenset({id_}) if id_ == MAIN_TYPES[0] else closure(id_) for id_ in hands}


def figures(
    rows: Iterable[Mapping[str, Any]], players: int, types: Mapping[str, frozenset[str]]
) -> dict[str, Figure]:
    """The figures of one bot's rows; ``types``: the hand-type families (:func:`families`)."""
    keys = ["no_winner", "wins", "won", "dealt_in", "called", "self_draws", "turn", "won_any"]
    cols: dict[str, list[float]] = {k: [] for k in [*keys, *(f"type:{t}" for t in types)]}
    for r in rows:
        h = hand_figures(r, players)
        values = {
            "no_winner": h.no_winner, "wins": h.wins, "won": sum(h.won) / players,
            "dealt_in": sum(h.dealt_in) / players, "called": sum(h.called) / players,
            "self_draws": h.self_draws, "turn": h.first_win_turn or 0,
            "won_any": h.first_win_turn is not None,
        }  # fmt: skip
        for t, family in types.items():
            values[f"type:{t}"] = sum(1 for win in r["win_hands"] if family & set(win))
        for k, v in values.items():
            cols[k].append(float(v))
    c = {k: np.array(v) for k, v in cols.items()}
    out = [
        Figure("no_winner", "流局 (no winner), share of hands", "share",
               mean_interval(c["no_winner"])),
        Figure("wins", "wins per hand", "count", mean_interval(c["wins"])),
        Figure("win_rate", "和了率: a seat wins, share of hands", "share", mean_interval(c["won"])),
        Figure("deal_in_rate", "放铳率: a seat deals in, share of hands", "share",
               mean_interval(c["dealt_in"])),
        Figure("call_rate", "副露率: a seat calls (碰/吃/明杠), share of hands", "share",
               mean_interval(c["called"])),
        Figure("self_draw_share", "自摸, share of wins", "share",
               ratio_interval(c["self_draws"], c["wins"])),
        Figure("first_win_turn", "first win, turn (巡目)", "count",
               ratio_interval(c["turn"], c["won_any"])),
    ]  # fmt: skip
    for t in types:
        out.append(Figure(f"type:{t}", "", "share", ratio_interval(c[f"type:{t}"], c["wins"])))
    return {f.key: f for f in out}


# --- running --------------------------------------------------------------------------------


@dataclass
class Run:
    bot: str
    figures: dict[str, Figure]
    hands: int
    seconds: float
    """Wall clock of the run that played the hands; NaN when resumed part-way."""
    cpu: float
    """CPU seconds of this process (the run's own only with one worker)."""
    commit: str
    """The source the hands were played with."""


def run_name(ruleset: str, bot: str, seed: int, hands: int) -> str:
    """The file name of a run's rows: the bot's name with a short hash of its parameters in
    their place, as the parameters written out can pass the 255 bytes a file name may have.
    The same inputs give the same name (resumed); the rows and the run's ``.json`` name the
    bot in full."""
    base, _, params = bot.partition(":")
    if params:  # one form of a bot's parameters (split_agents): the same bot, the same hash
        base += "_" + hashlib.sha256(params.encode()).hexdigest()[:12]
    return f"{ruleset}-{base}-{seed}-{hands}".replace("/", "_").replace(":", "_")


def play(
    ruleset: str, bot: str, hands: int, seed: int, workers: int, out: str | None,
    types: Mapping[str, frozenset[str]], say: Callable[[str], None], source: str,
) -> Run:  # fmt: skip
    """``hands`` hands of ``ruleset`` with ``bot`` at every seat, and their figures;
    ``source``: the commit the code was read from (:func:`commit`, when the run began)."""
    from interpreter.simulate import make_spec, run_to

    spec, _ = make_spec(ruleset, seed, bot)
    players = len(spec.agents)
    path = None
    if out is not None:
        path = os.path.join(out, f"{run_name(ruleset, bot, seed, hands)}.parquet")
    rows: list[dict[str, Any]] = []
    start, cpu, step = time.perf_counter(), time.process_time(), max(1, hands // 10)
    resumed = path is not None and (os.path.exists(path) or os.path.isdir(f"{path}.partial"))

    def keep(chunk: list[dict[str, Any]]) -> None:
        before = len(rows)
        rows.extend(chunk)
        if len(rows) // step > before // step or len(rows) == hands:
            rate = len(rows) / max(1e-9, time.perf_counter() - start)
            say(f"{ruleset} {bot}: {len(rows):,}/{hands:,} hands ({rate:.1f} hands/s)")

    if resumed:
        say(f"{ruleset} {bot}: resuming from {path}")
    run_to(spec, hands, players, keep, workers, None, path, False, resume=path is not None)
    timing = {"bot": bot, "seconds": time.perf_counter() - start,
              "cpu": time.process_time() - cpu, "workers": workers, "commit": source}  # fmt: skip
    if path is not None:
        if not resumed:
            Path(f"{path}.json").write_text(json.dumps(timing), "utf-8")
        elif os.path.exists(f"{path}.json"):  # the timing of the run that played them
            timing = json.loads(Path(f"{path}.json").read_text("utf-8"))
        else:
            timing.update(seconds=math.nan, cpu=math.nan)
    return Run(
        bot,
        figures(rows, players, types),
        len(rows),
        timing["seconds"],
        timing["cpu"] if timing["workers"] == 1 else math.nan,
        timing["commit"],
    )


# --- the table ------------------------------------------------------------------------------


def cell(f: Figure) -> str:
    e = f.estimate
    if e is None:
        return "–"
    if f.unit == "share":
        return f"{100 * e.b:.1f}% ±{100 * (e.high - e.b):.1f}"
    return f"{e.b:.2f} ±{e.high - e.b:.2f}"


def reference_text(low: float, high: float) -> str:
    return f"{100 * low:.3g}%" if low == high else f"{100 * low:.3g}–{100 * high:.3g}%"


def where(runs: Sequence[Run], key: str, low: float, high: float) -> str:
    """Where the bots other than random are against the reference, by their intervals."""
    counts = {"above": 0, "within": 0, "below": 0}
    for run in runs:
        e = run.figures[key].estimate
        if run.bot.partition(":")[0] == "random" or e is None:
            continue
        side = "above" if e.low > high else "below" if e.high < low else "within"
        counts[side] += 1
    return ", ".join(f"{n} {side}" for side, n in counts.items() if n) or "–"


def table(ruleset: Any, runs: Sequence[Run], types: Mapping[str, frozenset[str]], seed: int) -> str:
    """The markdown table of one ruleset."""
    from interpreter.summary import ruleset_hash

    names = hand_names(ruleset)
    expected = EXPECTED.get(ruleset.id, {})
    hands = {run.hands for run in runs}
    lines = [
        f"### {ruleset.id}: {', '.join(f'{n:,}' for n in sorted(hands))} hands a bot, "
        f"seed {seed} (ruleset hash {ruleset_hash(ruleset)}; played at commit "
        f"{' and '.join(sorted({run.commit for run in runs}))})",
        "",
        "| figure | "
        + " | ".join(run.bot for run in runs)
        + " | riichi (Tenhou top tables) | rules vs riichi | bots vs riichi |",
        "|---|" + "---:|" * len(runs) + "---:|:---:|---|",
    ]
    shown = []
    for key, f in runs[0].figures.items():
        if key.startswith("type:"):
            t = key.removeprefix("type:")
            biggest = max((r.figures[key].estimate.b for r in runs if r.figures[key].estimate),
                          default=0.0)  # fmt: skip
            if t not in MAIN_TYPES and biggest < OTHER_SHOWN:
                continue
            more = sorted(names.get(o, o) for o in types[t] - {t})
            label = f"{names.get(t, t)} ({t}){', with ' + ', '.join(more) if more else ''}"
            label += ", share of wins" if t != MAIN_TYPES[0] else " alone, share of wins"
        else:
            label = f.label
        shown.append((key, label))
    for key, label in shown:
        ref = RIICHI.get(key)
        row = [label, *(cell(run.figures[key]) for run in runs)]
        if ref is None:
            row += ["", "", ""]
        else:
            row += [reference_text(*ref), expected.get(key, ""), where(runs, key, *ref)]
        lines.append("| " + " | ".join(row) + " |")
    rates = " | ".join(f"{_rate(r.hands, r.cpu)} ({_rate(r.hands, r.seconds)})" for r in runs)
    lines.append(f"| hands/s: per CPU second (wall clock) | {rates} | | | |")
    return "\n".join(lines)


def _rate(hands: int, seconds: float) -> str:
    return "–" if math.isnan(seconds) else f"{hands / seconds:.1f}"


def commit() -> str:
    """The source's commit, marked when the work tree differs from it."""
    here = Path(__file__).resolve().parents[1]
    try:
        git = {"cwd": here, "check": True, "capture_output": True, "text": True}
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], **git).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "-uno"], **git).stdout
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + (" (with uncommitted changes)" if dirty.strip() else "")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("rulesets", nargs="*", default=list(DEFAULT_RULESETS))
    parser.add_argument("--hands", type=int, default=4800, help="hands a bot a ruleset")
    parser.add_argument("--seed", type=int, default=1, help="master seed (default 1)")
    parser.add_argument("--bots", default=",".join(DEFAULT_BOTS),
                        help="bots as in mjrules simulate --agents, a column each; "
                        "strategy:tuned plays each ruleset's own parameters (two bots that "
                        "are one once read are refused)")  # fmt: skip
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--out", help="folder to keep each run's rows in (and resume from)")
    args = parser.parse_args(argv)
    from dsl.ruleset import RulesetError, load
    from interpreter.simulate import SimulationError, note_untuned, refuse_same, split_agents

    def say(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    if args.hands < 2:
        parser.error("--hands must be at least 2 (an interval needs two hands)")
    if args.out is not None:
        os.makedirs(args.out, exist_ok=True)
    started = time.perf_counter()
    source = commit()
    print(f"mjrules commit {source}; `python bench/realism.py "
          f"--hands {args.hands} --seed {args.seed} --bots {args.bots} "
          f"{' '.join(args.rulesets)}`")  # fmt: skip
    every: list[Run] = []
    try:  # every input checked before a hand is played
        rulesets = [load(r) for r in args.rulesets]
        # BOT:tuned reads the parameters shipped for each ruleset, as simulate's --agents does
        bots = [split_agents(args.bots, r, flag="--bots") for r in rulesets]
        for ruleset, its_bots in zip(rulesets, bots, strict=True):  # a column each
            refuse_same(its_bots, args.bots, ruleset, "--bots")
    except (RulesetError, ValueError) as error:  # an agent unknown, an empty item, a file
        raise SystemExit(f"error: {error}") from None
    note_untuned(rulesets, args.bots)
    try:
        for ruleset_id, ruleset, its_bots in zip(args.rulesets, rulesets, bots, strict=True):
            types = families(ruleset)
            runs = [play(ruleset_id, bot, args.hands, args.seed, args.workers, args.out, types,
                         say, source) for bot in its_bots]  # fmt: skip
            every += runs
            print()
            print(table(ruleset, runs, types, args.seed), flush=True)
    except (RulesetError, SimulationError) as error:
        raise SystemExit(f"error: {error}") from None
    minutes = (time.perf_counter() - started) / 60
    wall = math.fsum(r.seconds for r in every) / 60
    cpu = math.fsum(r.cpu for r in every if not math.isnan(r.cpu)) / 60
    unknown = sum(math.isnan(r.cpu) for r in every)
    note = f" (and {unknown} runs' not recorded)" if unknown else ""
    print(f"\n({minutes:.1f} minutes, {args.workers} worker{'s' if args.workers > 1 else ''}; "
          f"the runs that played the hands: {wall:.1f} minutes wall clock, {cpu:.1f} CPU "
          f"minutes{note})")  # fmt: skip


if __name__ == "__main__":
    main()
