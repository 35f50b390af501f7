"""What is played and where: a ruleset with its options (``Setting``), the run options that
change no figure (``Run``), and duplicate format — each agent at one seat against a field
bot, in every seat in turn, on the same walls (``play_walls``, ``duplicate_table``).

``compare`` (its skill reward), ``tactics`` and ``tune`` all play through here, so that
none of them imports another's machinery.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path

    import pandas as pd

    from dsl.ruleset import Ruleset
    from interpreter.engine.rules import Rules


@dataclass(frozen=True)
class Setting:
    """A ruleset (id or path) with its options: ``--set`` values and a preset."""

    ruleset: str
    settings: tuple[str, ...] = ()
    preset: str | None = None


@dataclass(frozen=True)
class Run:
    """Where and how hands are played, which changes no figure: worker processes (None: all
    cores), a Dask scheduler (address or client) instead of local processes, hands per task,
    a progress bar on stderr, and a results folder whose kept hands are reused."""

    workers: int | None = None
    scheduler: Any = None
    chunk: int | None = None
    progress: bool = True
    cache: Path | None = None


LOCAL = Run()
"""The default: all local cores, a progress bar, no results folder."""


def reused(what: str, run: Run) -> None:
    """Say on stderr that results were read, not played (with the progress bar's output)."""
    if run.progress:
        print(f"mjrules: {what} read from the results in {run.cache}", file=sys.stderr)


def play_seatings(
    ruleset: Ruleset, rules: Rules, seed: int, dealer: int, seatings: Sequence[Sequence[str]]
) -> list[list[float]]:
    """The points of every seat on the wall of game seed ``seed`` under each seating (an
    agent name per seat).  A seating met twice is played once: the bots are deterministic."""
    from interpreter.engine.game import Game, run
    from interpreter.simulate import new_agent

    played: dict[tuple[str, ...], list[float]] = {}
    for seating in map(tuple, seatings):
        if seating not in played:
            agents = [new_agent(name, seed * 16 + s, ruleset) for s, name in enumerate(seating)]
            played[seating] = list(run(Game(ruleset, seed, dealer, rules=rules), agents).deltas)
    return [played[tuple(s)] for s in seatings]


@dataclass(frozen=True)
class DuplicateSpec:
    """What a worker needs to play walls: the ruleset, the field bot, the agents compared."""

    ruleset: str
    settings: tuple[str, ...]
    preset: str | None
    seed: int
    field: str
    agents: tuple[str, ...]


def play_walls(spec: DuplicateSpec, start: int, stop: int) -> list[dict[str, Any]]:
    """Walls ``start`` to ``stop - 1``: each agent's mean points per hand over the seats it
    takes, the field in the others (the unit of work of :func:`interpreter.simulate.run_to`)."""
    from interpreter.simulate import _prepared, dealer_of, hand_seed

    ruleset, rules = _prepared(spec.ruleset, spec.settings, spec.preset)
    n = rules.players
    rows = []
    for i in range(start, stop):
        seatings = [
            [agent if s == seat else spec.field for s in range(n)]
            for agent in spec.agents
            for seat in range(n)
        ]
        deltas = play_seatings(ruleset, rules, hand_seed(spec.seed, i), dealer_of(i, n), seatings)
        row: dict[str, Any] = {"index": i}
        for k, agent in enumerate(spec.agents):
            row[agent] = sum(deltas[k * n + seat][seat] for seat in range(n)) / n
        rows.append(row)
    return rows


def duplicate_table(
    setting: Setting,
    agents: Sequence[str],
    field: str,
    walls: int,
    seed: int,
    run: Run = LOCAL,
) -> tuple[pd.DataFrame, dict[str, str], Ruleset]:
    """Each of ``agents`` played on ``walls`` walls of one ruleset against the ``field`` bot
    (:func:`play_walls`): a row per wall, a column per agent; with the provenance of the
    field's hands and the loaded ruleset.  Read from the results cache when kept there."""
    import pandas as pd

    from interpreter import results
    from interpreter import simulate as sim

    agents = tuple(agents)
    spec, loaded = sim.make_spec(setting.ruleset, seed, field, setting.settings, setting.preset)
    for agent in agents:
        sim.make_spec(loaded, seed, agent)  # each agent checked against the ruleset
    about = sim.spec_provenance(spec)
    duplicate = DuplicateSpec(spec.ruleset, spec.settings, spec.preset, seed, field, agents)
    inputs = {**about, "agents": json.dumps(list(agents)), "field": field}
    table = None
    if run.cache is not None:
        table = results.load(run.cache, "tactics", inputs, walls)
        if table is not None:
            reused(f"{walls:,} walls of {about['ruleset']}", run)
    if table is None:
        parts: list[dict[str, Any]] = []
        players = len(spec.agents)
        sim.run_to(duplicate, walls, players, parts.extend, run.workers, run.scheduler, None,
                   run.progress, run.chunk, play=play_walls)  # fmt: skip
        table = pd.DataFrame(parts, columns=["index", *agents])
        if run.cache is not None:
            results.store(run.cache, "tactics", inputs, table)
    return table, about, loaded
