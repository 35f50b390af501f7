"""Many hands, many seeds, many cores: the results table of a simulation.

Every hand is played on its own, by a fresh :class:`~interpreter.engine.Game` and fresh
agents, from a *hand seed* that depends only on the master seed and the hand's index
(:func:`hand_seed`).  So

- the results are the same whatever the number of workers, the chunk size, or whether
  the hands run here, in a process pool or on a Dask cluster;
- two rulesets simulated with the same master seed play the same walls: the engine
  shuffles the ruleset's tiles with ``random.Random(hand seed)``, so rulesets with the
  same tile set (the same tiles in the same order, e.g. every ruleset of the 108 suited
  tiles) deal the same hands, and their results can be compared hand by hand (common
  random numbers).  Rulesets with different tile sets (honours, flowers) shuffle a
  different list and share nothing but the seed;
- the dealer of hand ``i`` is seat ``i % players`` (not the ruleset's ``dealer.first``), so
  every seat deals equally often and paired runs have the same dealer too.

``iter_records`` yields one flat record (a dict) per hand, in index order; ``simulate``
collects them into a pandas DataFrame and can stream them to a file on the way
(Parquet, CSV or JSON Lines, chosen by the extension) in chunks, so memory stays flat
for the writer whatever the number of hands.  Every row and every file records what
produced it (:func:`interpreter.summary.provenance`); ``interpreter.summary.Summary``
accumulates the figures the ``mjrules simulate`` command prints.

Example::

    from interpreter.simulate import simulate
    df = simulate("REGION/VERSION", games=2000, seed=1, agents="efficiency", out="r.parquet")
    df.groupby("dealer").delta_0.mean()
"""

from __future__ import annotations

import bisect
import contextlib
import csv
import hashlib
import io
import json
import math
import os
import re
import reprlib
import shutil
import signal
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass
from functools import lru_cache
from itertools import compress, islice
from operator import itemgetter
from random import Random
from typing import TYPE_CHECKING, Any

from interpreter.default_agents import DEFAULT_AGENTS
from interpreter.summary import PROVENANCE

if TYPE_CHECKING:
    import pandas as pd

    from dsl.ruleset import Ruleset
    from handcore.tiles import Tile
    from interpreter.engine.rules import Rules

FORMATS = {".parquet": "parquet", ".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl"}
LIST_COLUMNS = (
    "winners", "win_from", "win_values", "win_hands", "hand_types", "opening_seats",
    "opening_hands", "callers",
)  # fmt: skip
_TYPE = itemgetter("type")
_READ = frozenset(("win", "claim", "bird", "deal", "opening", "end"))
"""The events a record reads; the others are only counted."""
_KONG_WINS = ("kong_draw", "kong_discard", "robbing_kong")
"""The contexts of a win that say what became of a kong (docs/EVENTS.md, ``win``)."""


class SimulationError(ValueError):
    """Invalid input to a simulation (agents, output file, counts)."""


# --- seeds ------------------------------------------------------------------------------------


def hand_seed(seed: int, index: int) -> int:
    """The seed of hand ``index`` of a simulation with master ``seed``: 63 bits of a hash of
    the two, so it depends on nothing else (not the worker, nor the chunk)."""
    digest = hashlib.blake2b(f"mjrules/{seed}/{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def dealer_of(index: int, players: int) -> int:
    return index % players


def dealt_hands(rules: Rules, seed: int, dealer: int) -> list[list[Tile]]:
    """The tiles each seat is dealt in a game of hand seed ``seed``, without playing it.

    The same steps as the engine's deal (``Random(seed)``, ``Wall.built``, ``deal_order``);
    a test checks they agree with :class:`~interpreter.engine.Game`.
    """
    from interpreter.engine.game import deal_order
    from interpreter.engine.wall import Wall

    wall = Wall.built(rules.all_tiles, Random(seed), rules.players, rules.reserved)
    hands: list[list[Tile]] = [[] for _ in range(rules.players)]
    for s in _deal_order(rules, dealer, deal_order):
        hands[s].append(wall.draw_front())
    return hands


_ORDERS: dict[tuple[int, int], list[int]] = {}


def _deal_order(rules: Rules, dealer: int, deal_order: Callable[..., list[int]]) -> list[int]:
    key = (id(rules), dealer)
    if key not in _ORDERS:
        _ORDERS[key] = deal_order(rules, dealer)
    return _ORDERS[key]


# --- the specification of a simulation (picklable: workers rebuild everything from it) ------


@dataclass(frozen=True)
class Spec:
    """What a worker needs to play hands: a ruleset reference, its settings, the agents."""

    ruleset: str
    settings: tuple[str, ...]
    preset: str | None
    seed: int
    agents: tuple[str, ...]


def make_spec(
    ruleset: str | Ruleset,
    seed: int,
    agents: str | Sequence[str],
    settings: Sequence[str] = (),
    preset: str | None = None,
) -> tuple[Spec, Ruleset]:
    """Check the input (raises RulesetError or SimulationError) and build the worker spec."""
    from dsl.ruleset import Ruleset, load
    from interpreter.engine.events import option_settings, settings_of
    from interpreter.engine.rules import Rules

    if isinstance(ruleset, Ruleset):
        loaded = ruleset
        ref, settings, preset = loaded.path, settings_of(option_settings(loaded)), None
    else:
        loaded = load(str(ruleset), settings=settings, preset=preset)
        ref = portable_ref(str(ruleset))
    if why := loaded.unplayable():
        raise SimulationError(why)
    try:
        names = split_agents(agents if isinstance(agents, str) else ",".join(agents), loaded)
    except ValueError as error:
        raise SimulationError(str(error)) from None
    for name in dict.fromkeys(names):
        try:
            new_agent(name, 0, loaded)
        except ValueError as error:
            raise SimulationError(str(error)) from None
    players = Rules(loaded).players
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise SimulationError(f"{len(names)} agents for {players} seats: give 1 or {players}")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise SimulationError(f"the seed must be an integer, not {seed!r}")
    if not -(2**63) <= seed < 2**63:  # the rows and files keep it as a 64-bit integer
        raise SimulationError(
            f"--seed must be from {-(2**63):,} to {2**63 - 1:,} (64 bits), not {seed:,}"
        )
    return Spec(ref, tuple(settings), preset, seed, tuple(names)), loaded


def portable_ref(ref: str) -> str:
    """A ruleset reference workers can load: an id as it is, a file as an absolute path."""
    from dsl.ruleset import is_path

    return os.path.abspath(ref) if is_path(ref) or os.path.isfile(ref) else ref


def split_agents(text: str, ruleset: Ruleset | None = None, flag: str = "--agents") -> list[str]:
    """``"random,value:kong_policy=never,defence=0.5,simple"`` → one name per item; an item
    ``k=v`` without a colon continues the parameters of the agent before it.  A parameter
    file (``value:tuned.yaml``, or ``strategy:tuned``, the file shipped for ``ruleset``) is
    read into its parameters (:func:`expand_agent`).  ``flag``: the option ``text`` was
    given to, which an error names, as it names an agent unknown."""
    from interpreter.agents import AGENTS, expand_agent

    names = _names(text, flag)
    for base in (n.partition(":")[0] for n in names):
        if base not in AGENTS:
            raise ValueError(f"{flag} {text!r}: unknown agent {base!r}; agents are "
                             f"{', '.join(sorted(AGENTS))}")  # fmt: skip
    return [expand_agent(n, ruleset) for n in names]


def refuse_same(names: Sequence[str], text: str, ruleset: Ruleset, flag: str) -> None:
    """Refuse two of the bots ``names``, read from ``text`` on ``ruleset``
    (:func:`split_agents`), that are one: ``strategy:tuned,strategy`` on a ruleset with no
    shipped file plays the same bot twice.  ``flag``: the option ``text`` was given to."""
    seen: set[str] = set()
    for name in names:
        if name in seen:
            which = "the two" if len(names) == 2 else "two"
            raise ValueError(f"{flag} {text!r}: {which} bots are the same ({name} on "
                             f"{ruleset.given_path or ruleset.id})")  # fmt: skip
        seen.add(name)


def _names(text: str, flag: str = "--agents") -> list[str]:
    """The agents of ``text`` as written.  An empty item is refused: ',' separates agents
    and parameters alike, so it is one of them left out."""
    names: list[str] = []
    for item in (t.strip() for t in text.split(",")):
        if not item:
            after = f" after {names[-1]!r}" if names else ""
            what = "parameter" if names and ":" in names[-1] else "agent name"
            raise ValueError(
                f"{flag} {text!r}: an empty {what}{after}; write each agent as NAME or "
                "NAME:key=value,… (value:hazard=0.5,claim_margin=1), agents separated by ','"
            )
        if names and "=" in item and ":" not in item:
            names[-1] += "," + item
        else:
            names.append(item)
    return names


def untuned(ruleset: Ruleset, *texts: str) -> list[str]:
    """The bots of the agents ``texts`` asked to play ``BOT:tuned`` for which no parameters
    are shipped for ``ruleset``: they play their defaults
    (:func:`interpreter.agents.shipped_params`)."""
    from interpreter.agents import SHIPPED_NAME, shipped_params

    asked = [n.partition(":") for text in texts for n in _names(text)]
    bots = [b for b, _, spec in asked if SHIPPED_NAME in re.split(r"\s*[,;]\s*", spec.strip())]
    return [b for b in dict.fromkeys(bots) if shipped_params(b, ruleset) is None]


def note_untuned(rulesets: Iterable[Ruleset], *texts: str) -> None:
    """Say on stderr which ``BOT:tuned`` of the agents ``texts`` (checked) finds no parameters
    shipped for a ruleset of ``rulesets``: it plays its defaults.  Once a bot and ruleset."""
    for ruleset in {r.given_path or r.id: r for r in rulesets}.values():
        for bot in untuned(ruleset, *texts):
            print(f"mjrules: note: no tuned parameters of the {bot} bot are shipped for "
                  f"{ruleset.given_path or ruleset.id}: it plays its defaults (mjrules tune "
                  f"writes a parameter file for --agents {bot}:FILE)", file=sys.stderr)  # fmt: skip


@lru_cache(maxsize=32)
def _takes_ruleset(base: str) -> bool:
    import inspect

    from interpreter.agents import AGENTS

    try:
        return "ruleset" in inspect.signature(AGENTS[base]).parameters
    except (KeyError, TypeError, ValueError):
        return False


def new_agent(name: str, seed: int, ruleset: Ruleset) -> Any:
    """``make_agent(name, seed)``, given the ruleset too when the agent's class takes one."""
    from interpreter.agents import make_agent

    if _takes_ruleset(name.partition(":")[0]):
        return make_agent(name, seed, ruleset=ruleset)
    return make_agent(name, seed)


@lru_cache(maxsize=8)
def _prepared(ref: str, settings: tuple[str, ...], preset: str | None) -> tuple[Ruleset, Rules]:
    from dsl.ruleset import load
    from interpreter.engine.rules import Rules

    ruleset = load(ref, settings=settings, preset=preset)
    return ruleset, Rules(ruleset)


# --- one hand -----------------------------------------------------------------------------------


def play_hand(spec: Spec, index: int) -> dict[str, Any]:
    """Play hand ``index`` of the simulation and return its record."""
    from interpreter.engine.game import Game, run

    ruleset, rules = _prepared(spec.ruleset, spec.settings, spec.preset)
    seed = hand_seed(spec.seed, index)
    dealer = dealer_of(index, rules.players)
    agents = [new_agent(name, seed * 16 + s, ruleset) for s, name in enumerate(spec.agents)]
    game = Game(ruleset, seed, dealer, rules=rules, hand=index)
    result = run(game, agents)
    return {**record(game, result, index, rules.players), **_provenance_columns(spec)}


@lru_cache(maxsize=8)
def spec_provenance(spec: Spec) -> dict[str, str]:
    """What produced the rows of ``spec`` (:func:`interpreter.summary.provenance`)."""
    from interpreter.summary import provenance

    ruleset, _ = _prepared(spec.ruleset, spec.settings, spec.preset)
    return provenance(ruleset, spec.agents, spec.seed, spec.preset)


@lru_cache(maxsize=8)
def _provenance_columns(spec: Spec) -> dict[str, Any]:
    from interpreter.summary import provenance_columns

    return provenance_columns(spec_provenance(spec))


def record(game: Any, result: Any, index: int, players: int) -> dict[str, Any]:
    """The flat record of a finished hand, read from its result and event log.

    ``win_hands`` lists the hand types of each win (``winners``, ``win_from`` (-1: self-drawn)
    and ``win_values`` are aligned with it); ``opening_hands`` the opening hand types (起手胡)
    of each seat in ``opening_seats``, as the engine found them at the deal; modifiers (class
    ``bonus``) found with value 0, which changed nothing, are left out.  ``multi_win``: several
    players won on one tile (一炮多响), not several wins in one hand.  ``first_win_turn``
    (巡目): the first winner's discards before its win plus one, 0 when nobody won.
    ``points_moved``: the points that changed hands, the sum of the gains.  What became of
    kongs, counted in win events (one per tile won on, whoever and however many won on it)
    by their context: ``kong_draw_wins`` on a kong's replacement draw, ``kong_discard_wins``
    on a discard right after a kong, ``robbed_kongs`` on a kong's own tile.  ``callers``: the
    seats that claimed another seat's discard for a pung, chow or kong (碰/吃/明杠) at least
    once, so hold an open meld (副露); a kong again with one's own kong tile is not a call.
    """
    winners: list[int] = []
    win_from: list[int] = []
    values: list[int] = []
    win_hands: list[list[str]] = []
    claims = birds = bird_hits = 0
    callers: set[int] = set()
    kong_wins = dict.fromkeys(_KONG_WINS, 0)
    multi_win = False
    dealt: list[str] = [""] * players
    opening_seats: list[int] = []
    opening_hands: list[list[str]] = []
    wall_left = 0
    kinds = list(map(_TYPE, game.events))
    for e in compress(game.events, map(_READ.__contains__, kinds)):
        kind = e["type"]
        if kind == "win":
            source = e["from"]
            multi_win |= len(e["hands"]) > 1
            for context in e["context"]:
                if context in kong_wins:
                    kong_wins[context] += 1
            for w in e["hands"]:
                winners.append(w["seat"])
                win_from.append(-1 if source is None else source)
                values.append(int(w["total"]))
                win_hands.append(
                    [h["id"] for h in w["hands"] if h["value"] or h["class"] != "bonus"]
                )
        elif kind == "claim":
            claims += e["kind"] != "win"
            if e["kind"] != "win" and e["from"] != e["seat"]:
                callers.add(e["seat"])
        elif kind == "bird":
            birds += len(e["tiles"])
            bird_hits += sum(e["hits"].values())
        elif kind == "deal":
            dealt = list(e["hands"])
        elif kind == "opening":
            opening_seats.append(e["seat"])
            opening_hands.append([h["id"] for h in e["hands"]])
        elif kind == "end":
            wall_left = e["wall"]
    dealer = result.dealer
    deltas = [int(d) for d in result.deltas]
    rec: dict[str, Any] = {
        "index": index,
        "seed": game.seed,
        "ruleset": game.ruleset.id,
        "dealer": dealer,
        "end": result.reason,
        "n_wins": len(winners),
        "self_draws": win_from.count(-1),
        "drawn": not winners,
        "dealer_won": dealer in winners,
        "multi_win": multi_win,
        "winners": winners,
        "win_from": win_from,
        "win_values": values,
        "win_hands": win_hands,
        "hand_types": sorted({h for hs in win_hands for h in hs}),
        "opening_seats": opening_seats,
        "opening_hands": opening_hands,
        "draws": kinds.count("draw") + kinds.count("replacement"),
        "discards": kinds.count("discard"),
        "decisions": kinds.count("act"),
        "claims": claims,
        "callers": sorted(callers),
        "kongs": kinds.count("kong"),
        "kong_draw_wins": kong_wins["kong_draw"],
        "kong_discard_wins": kong_wins["kong_discard"],
        "robbed_kongs": kong_wins["robbing_kong"],
        "birds": birds,
        "bird_hits": bird_hits,
        "payments": kinds.count("payment"),
        "wall_left": wall_left,
        "first_win_turn": _first_win_turn(game.events, kinds) if winners else 0,
        "points_moved": sum(d for d in deltas if d > 0),
    }
    for s in range(players):
        rec[f"delta_{s}"] = deltas[s]
    rec["dealer_delta"] = deltas[dealer]
    for s in range(players):
        rec[f"dealt_{s}"] = dealt[s]
    return rec


def _first_win_turn(events: list[dict[str, Any]], kinds: list[str]) -> int:
    """The first winner's turn (巡目): its discards before the win, plus one (kong tiles
    put aside unclaimed are not turns)."""
    first = kinds.index("win")
    seat = events[first]["seats"][0]
    return 1 + sum(
        1
        for e in events[:first]
        if e["type"] == "discard" and e["seat"] == seat and e.get("claimable", True)
    )


def play_chunk(spec: Spec, start: int, stop: int) -> list[dict[str, Any]]:
    """Hands ``start`` to ``stop - 1``: the unit of work sent to a process or a Dask worker."""
    return [play_hand(spec, i) for i in range(start, stop)]


# --- running: here, in a process pool, or on a Dask cluster -----------------------------------

STOP_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)


class Stopped(KeyboardInterrupt):
    """A run stopped by Ctrl-C, SIGTERM or SIGHUP (``signum``); the finished rows are kept."""

    def __init__(self, signum: int = signal.SIGINT) -> None:
        super().__init__(signum)
        self.signum = signum


class LostHands(SimulationError):
    """Hands whose worker process died on every try; every other hand was played."""

    def __init__(self, ranges: list[tuple[int, int]]) -> None:
        self.ranges = ranges
        where = ", ".join(f"{a}-{b - 1}" if b - a > 1 else str(a) for a, b in ranges)
        count = sum(b - a for a, b in ranges)
        super().__init__(
            f"{count:,} hands not played (index {where}): the worker process playing them "
            "died, and again on a new one"
        )


class Signals:
    """While a run lasts, SIGINT, SIGTERM and SIGHUP raise :class:`Stopped` in the main thread,
    though not inside ``held()`` (a chunk is written and counted whole).  A signal that was
    ignored when the run began (``nohup``) stays ignored."""

    def __init__(self) -> None:
        self._previous: dict[int, Any] = {}
        self._held = False
        self._caught: int | None = None

    def __enter__(self) -> Signals:
        import threading

        if threading.current_thread() is threading.main_thread():
            for signum in STOP_SIGNALS:
                if signal.getsignal(signum) is not signal.SIG_IGN:
                    self._previous[signum] = signal.signal(signum, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        for signum, handler in self._previous.items():
            signal.signal(signum, handler)

    def _handle(self, signum: int, frame: object) -> None:
        if self._held:
            self._caught = self._caught or signum
        else:
            raise Stopped(signum)

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        self._held = True
        try:
            yield
        finally:
            self._held = False
        if self._caught is not None:
            raise Stopped(self._caught)


class Chunks(Sequence[tuple[int, int]]):
    """The chunks ``(a, b)`` of ``size`` hands that cover ``ranges``, each made when asked
    for: the list of a run of ten billion hands would not fit in memory."""

    def __init__(self, ranges: Sequence[tuple[int, int]], size: int) -> None:
        self.parts = [(range(a, b, size), b) for a, b in ranges if a < b]
        self.size = size
        self.firsts = [0]  # the index of each part's first chunk, then the count
        for starts, _ in self.parts:
            self.firsts.append(self.firsts[-1] + len(starts))

    def __len__(self) -> int:
        return self.firsts[-1]

    def __getitem__(self, i: int) -> tuple[int, int]:  # type: ignore[override]
        if not 0 <= i < len(self):
            raise IndexError(i)
        k = bisect.bisect_right(self.firsts, i) - 1
        starts, stop = self.parts[k]
        a = starts[i - self.firsts[k]]
        return a, min(a + self.size, stop)


def default_chunk(games: int, workers: int) -> int:
    return max(1, min(50, math.ceil(games / max(1, workers * 8))))


def missing(games: int, done: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """The ranges of hands ``0..games-1`` not in the ranges ``done``."""
    gaps, at = [], 0
    for a, b in sorted(done):
        if a > at:
            gaps.append((at, min(a, games)))
        at = max(at, b)
    gaps.append((at, games))
    return [(a, b) for a, b in gaps if a < b]


MAX_GAMES = 10**10 - 1
"""The most hands a run plays: part files number hands in ten digits (and ten billion
hands are core-years of play)."""


def check_run(games: int, workers: int | None, scheduler: str | Any | None) -> int:
    """Check the counts of a run; return the number of local workers to use."""
    if games < 0:
        raise SimulationError(f"--games must be at least 0, not {games}")
    if games > MAX_GAMES:
        raise SimulationError(f"--games must be at most {MAX_GAMES:,}, not {games:,}")
    cores = os.cpu_count() or 1
    if workers is None:
        return cores
    if workers < 1:
        raise SimulationError(f"--workers must be at least 1, not {workers}")
    if scheduler is None and workers > 4 * cores:
        raise SimulationError(
            f"--workers {workers} is more than this machine can run: it has {cores} cores, "
            f"give at most {4 * cores} (4 per core)"
        )
    return workers


def iter_chunks(
    spec: Spec,
    games: int,
    workers: int | None = None,
    scheduler: str | Any | None = None,
    chunk: int | None = None,
    *,
    done: Sequence[tuple[int, int]] = (),
    play: Callable[[Any, int, int], list[dict[str, Any]]] = play_chunk,
) -> Iterator[list[dict[str, Any]]]:
    """The records in chunks, in index order.  ``workers`` processes (all cores by default;
    1 plays here), or the Dask scheduler at ``scheduler`` (an address or a Client).
    ``done``: ranges of hands already played (a run being resumed), left out.  ``play``:
    the unit of work, ``play(spec, start, stop)`` (a module-level function: it is pickled),
    for runs whose rows are not one hand each (the duplicate walls of ``tactics``).

    The input is checked and the scheduler reached at once, before the first chunk.  At most
    a few chunks per worker are in flight, so memory does not grow with ``games``.  Closing
    the generator (or an exception such as KeyboardInterrupt in it) cancels what has not
    finished.  Hands whose worker process died twice are left out and reported, once every
    other chunk is out, by :class:`LostHands`.
    """
    workers = check_run(games, workers, scheduler)
    todo_ranges = missing(games, done)
    size = chunk or default_chunk(sum(b - a for a, b in todo_ranges), workers)
    todo = Chunks(todo_ranges, size)
    if scheduler is not None:
        return _dask_chunks(spec, todo, *_dask_client(scheduler), play)
    if workers == 1:
        return (play(spec, a, b) for a, b in todo)
    return _pool_chunks(spec, todo, workers, play)


def _in_order(
    todo: Sequence[tuple[int, int]],
    submit: Callable[[int, int], Any],
    wait_one: Callable[[], tuple[Any, Any]],
    window: int,
) -> Iterator[list[dict[str, Any]]]:
    """Submit chunks up to ``window`` ahead of the next one due; yield them in index order.
    Chunks that come back ``LOST`` are left out and raised together at the end."""
    from interpreter.workers import LOST

    pending: dict[Any, int] = {}
    done: dict[int, Any] = {}
    lost: list[tuple[int, int]] = []
    next_submit = next_yield = 0
    while next_yield < len(todo):
        while next_submit < len(todo) and next_submit - next_yield < window:
            pending[submit(*todo[next_submit])] = next_submit
            next_submit += 1
        key, rows = wait_one()
        done[pending.pop(key)] = rows
        while next_yield in done:
            rows = done.pop(next_yield)
            if rows is LOST:
                a, b = todo[next_yield]
                if lost and lost[-1][1] == a:
                    lost[-1] = (lost[-1][0], b)
                else:
                    lost.append((a, b))
            else:
                yield rows
            next_yield += 1
    if lost:
        raise LostHands(lost)


def _pool_chunks(
    spec: Spec, todo: Sequence[tuple[int, int]], workers: int, play: Callable[..., Any]
) -> Iterator[list[dict[str, Any]]]:
    from interpreter.workers import Pool

    pool = Pool(max(1, min(workers, len(todo))), play)
    try:
        yield from _in_order(todo, lambda a, b: pool.submit(spec, a, b), pool.wait_one, 3 * workers)
    finally:
        pool.close()


def _dask_client(scheduler: str | Any) -> tuple[Any, bool]:
    """A client of the scheduler (and whether it is ours to close), or a SimulationError."""
    try:
        from distributed import Client
    except ImportError:  # pragma: no cover - dask is a dependency
        raise SimulationError("--scheduler needs dask[distributed] installed") from None
    if isinstance(scheduler, Client):
        return scheduler, False
    try:
        return Client(scheduler, timeout="5s"), True
    except (OSError, TimeoutError) as error:
        raise SimulationError(f"cannot reach the Dask scheduler at {scheduler}: {error}") from None
    except ValueError as error:  # raised by the address before anything is reached
        raise SimulationError(f"--scheduler {scheduler}: not an address such as "
                              f"tcp://host:8786 ({error})") from None  # fmt: skip
    except Exception as error:  # whatever answers there, it is not Dask
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise SimulationError(
            f"no Dask scheduler at {scheduler}: what answers there does not speak Dask's "
            f"protocol ({reason[:200]})"
        ) from None


def _dask_chunks(
    spec: Spec, todo: Sequence[tuple[int, int]], client: Any, own: bool, play: Callable[..., Any]
) -> Iterator[list[dict[str, Any]]]:
    from distributed import KilledWorker, wait

    from interpreter.workers import LOST

    workers = max(1, sum(client.nthreads().values()))
    futures: dict[str, Any] = {}

    def submit(a: int, b: int) -> Any:
        future = client.submit(play, spec, a, b, pure=False)
        futures[future.key] = future
        return future.key

    def wait_one() -> tuple[Any, Any]:
        finished = wait(list(futures.values()), return_when="FIRST_COMPLETED").done
        future = futures.pop(min(finished, key=lambda f: f.key).key)
        try:
            return future.key, future.result()
        except KilledWorker:  # Dask has retried it on other workers already
            return future.key, LOST

    try:
        yield from _in_order(todo, submit, wait_one, 3 * workers)
    finally:
        with contextlib.suppress(Exception):
            client.cancel(list(futures.values()))
        if own:
            client.close()


# --- writing --------------------------------------------------------------------------------


def output_format(path: str | os.PathLike[str]) -> str:
    ext = os.path.splitext(str(path))[1].lower()
    if ext not in FORMATS:
        raise SimulationError(
            f"cannot tell the format of {str(path)!r}: use .parquet, .csv or .jsonl"
        )
    return FORMATS[ext]


class OutputError(SimulationError):
    """The output file could not be written; the message says where the finished rows are."""


PART = re.compile(r"rows-(\d{10})-(\d{10})\.[a-z]+")
RUN_FILE = "_run.json"
RUN_FILE_LIMIT = 1 << 20
"""The most bytes a resumed run's ``RUN_FILE`` is read for: a run's spec is a few kilobytes."""
ROW_LIMIT = 1 << 20
"""The most characters a row of a JSON Lines or CSV results file is read for: a row is a
few kilobytes."""
ROW_GROUP = 10_000


def partial_path(path: str | os.PathLike[str]) -> str:
    """The folder of a run's finished chunks until it ends: ``OUT.partial``."""
    return f"{path}.partial"


class Writer:
    """Writes a run's rows to a Parquet, CSV or JSON Lines file so that however the run ends,
    what it finished stays readable.

    Each chunk becomes a file of its own, ``rows-A-B.EXT`` (hands A to B-1) in the folder
    ``OUT.partial``, written under a hidden name and renamed when complete: a process killed
    outright loses at most the chunk being written and never leaves a cut row.  ``close``
    joins the parts into ``OUT`` (through a hidden file renamed into place) and removes the
    folder; if it cannot (a full disk), the folder stays, each part a valid file.  A Parquet
    folder reads as a dataset (``pandas.read_parquet(folder)``).

    With ``resume``, the rows already on disk (the folder, else ``OUT``) are checked to be
    this run's (``spec``) and kept: ``ranges`` lists the hands they hold, ``read_back`` gives
    them.  ``metadata`` is stored as Parquet key-value metadata.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        players: int,
        metadata: dict[str, str] | None = None,
        *,
        spec: Spec | None = None,
        resume: bool = False,
    ) -> None:
        self.path = str(path)
        self.format = output_format(path)
        self.folder = partial_path(self.path)
        self.players = players
        self.metadata = dict(metadata or {})
        self.run = json.loads(json.dumps(asdict(spec))) if spec is not None else None
        self.ranges: list[tuple[int, int]] = []
        if not os.path.isdir(os.path.dirname(os.path.abspath(self.path))):
            raise SimulationError(f"cannot write {self.path}: its folder does not exist")
        if os.path.isdir(self.folder):
            if not resume:
                raise SimulationError(
                    f"{self.folder} holds the rows of a stopped run: resume it (--resume) "
                    "or remove it"
                )
            self._check_folder()
        elif resume and os.path.isfile(self.path):
            self._import(spec)

    @property
    def rows(self) -> int:
        return sum(b - a for a, b in self.ranges)

    def _part(self, a: int, b: int) -> str:
        return os.path.join(self.folder, f"rows-{a:010d}-{b:010d}{os.path.splitext(self.path)[1]}")

    def _read_run(self) -> Any:
        """The run ``RUN_FILE`` describes (None when there is none), read bounded: a file of
        another origin may be of any size or depth."""
        where = f"cannot resume from {self.folder}: {RUN_FILE}"
        try:
            with open(os.path.join(self.folder, RUN_FILE), "rb") as handle:
                data = handle.read(RUN_FILE_LIMIT + 1)
        except FileNotFoundError:
            return None  # stopped before its first chunk
        except OSError as error:
            raise SimulationError(f"{where}: {error.strerror or error}") from None
        if len(data) > RUN_FILE_LIMIT:
            raise SimulationError(f"{where} is over {RUN_FILE_LIMIT >> 20} MB: not the "
                                  "description of a run")  # fmt: skip
        try:
            return json.loads(data.decode("utf-8"))
        except RecursionError:
            raise SimulationError(f"{where} is nested too deeply to describe a run") from None
        except ValueError as error:  # not UTF-8, or not JSON
            raise SimulationError(f"{where}: {error}") from None

    def _check_folder(self) -> None:
        run = self._read_run()
        if run is not None and not (isinstance(run, dict) and isinstance(run.get("spec"), dict)):
            raise SimulationError(f"cannot resume from {self.folder}: {RUN_FILE} does not "
                                  "describe a run (format and spec)")  # fmt: skip
        if run is not None and run != {"format": self.format, "spec": self.run}:
            raise SimulationError(
                f"cannot resume from {self.folder}: it holds a run of {_describe(run)}, "
                f"not of {_describe({'format': self.format, 'spec': self.run})}"
            )
        for name in sorted(os.listdir(self.folder)):
            if (match := PART.fullmatch(name)) is not None:
                a, b = int(match[1]), int(match[2])
                if self.ranges and a < self.ranges[-1][1]:
                    raise SimulationError(f"cannot resume from {self.folder}: {name} overlaps")
                self.ranges.append((a, b))
        if self.ranges and run is None:
            raise SimulationError(f"cannot resume from {self.folder}: no {RUN_FILE} in it")

    def _import(self, spec: Spec | None) -> None:
        """Split a results file into parts at each gap in its hands, checking it is this run's."""
        assert spec is not None, "resuming needs the spec of the run"
        ruleset = _prepared(spec.ruleset, spec.settings, spec.preset)[0].id
        last, run = -1, []
        try:
            for batch in _read_rows(self.path, self.format, self.players):
                for row in batch:
                    index = row["index"]
                    if (
                        not isinstance(index, int) or index <= last
                        or row["seed"] != hand_seed(spec.seed, index) or row["ruleset"] != ruleset
                    ):  # fmt: skip
                        raise SimulationError(
                            f"cannot resume from {self.path}: its row of hand {index} is not "
                            f"from a run of {ruleset} with seed {spec.seed}, in index order"
                        )
                    if run and (index != last + 1 or len(run) >= ROW_GROUP):
                        self.write(run)
                        run = []
                    run.append(row)
                    last = index
        except SimulationError:
            raise
        except (ValueError, KeyError, TypeError) as error:
            raise SimulationError(
                f"cannot resume from {self.path}: not a {self.format} file of results ({error})"
            ) from None
        if run:
            self.write(run)

    def read_back(self) -> Iterator[list[dict[str, Any]]]:
        """The rows already on disk when the writer was made (resume), part by part, each
        checked to be a row of this run's columns for the hand the part's name says, each
        value of the type the run's own rows have."""
        kinds = _kinds(self.players)
        for a, b in list(self.ranges):
            part = self._part(a, b)
            index = a
            try:
                for rows in _read_rows(part, self.format, self.players):
                    for row in rows:
                        if not (isinstance(row, dict) and row.keys() == kinds.keys()
                                and row["index"] == index):  # fmt: skip
                            raise ValueError(
                                f"no row of hand {index} with the run's columns in its place"
                            )
                        _check_types(row, kinds, f"row {index - a + 1}")
                        index += 1
                    yield rows
                if index != b:
                    raise ValueError(f"it holds {index - a} of its {b - a} hands")
            except (OSError, ValueError, KeyError, TypeError) as error:  # changed by hand
                raise SimulationError(
                    f"cannot resume from {self.folder}: {os.path.basename(part)} is not a "
                    f"{self.format} file of results ({error}); remove it to play its hands again"
                ) from None

    def write(self, rows: list[dict[str, Any]]) -> None:
        """Write a chunk of rows (consecutive hands) as a part, whole or not at all."""
        if not rows:
            return
        if not os.path.isfile(manifest := os.path.join(self.folder, RUN_FILE)):
            with contextlib.suppress(FileExistsError):
                os.mkdir(self.folder)
            _write_atomically(
                manifest,
                lambda tmp: _write_text(tmp, json.dumps({"format": self.format, "spec": self.run})),
            )
        a, b = rows[0]["index"], rows[-1]["index"] + 1
        _write_atomically(self._part(a, b), lambda tmp: self._write_rows(tmp, rows))
        bisect.insort(self.ranges, (a, b))

    def _write_rows(self, path: str, rows: list[dict[str, Any]]) -> None:
        if self.format == "parquet":
            import pyarrow as pa
            import pyarrow.parquet as pq

            table = pa.Table.from_pylist(rows, schema=self._schema())
            pq.write_table(table, path, compression="zstd")
        elif self.format == "csv":
            text = io.StringIO(newline="")
            writer = csv.DictWriter(text, fieldnames=list(rows[0]))
            writer.writeheader()
            for row in rows:
                writer.writerow(
                    {k: json.dumps(v, ensure_ascii=False) if k in LIST_COLUMNS else v
                     for k, v in row.items()}
                )  # fmt: skip
            _write_text(path, text.getvalue())
        else:
            _write_text(
                path,
                "".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n"
                        for r in rows),
            )  # fmt: skip

    def _schema(self) -> Any:
        schema = arrow_schema(self.players)
        return schema.with_metadata(self.metadata) if self.metadata else schema

    def close(self, complete: bool = True) -> None:
        """Join the parts into the output file and remove the folder.  A run that ended early
        (``complete=False``) before writing any row leaves no file.  If the parts cannot be
        joined, the folder stays and :class:`OutputError` says so."""
        if not self.ranges and not complete:
            shutil.rmtree(self.folder, ignore_errors=True)
            return
        inside = self.folder if os.path.isdir(self.folder) else None
        try:
            _write_atomically(self.path, self._join, sync=True, beside=inside)
        except OSError as error:
            raise OutputError(
                f"cannot write {self.path}: {error.strerror or error}; the {self.rows:,} hands "
                f"finished are kept in {self.folder}, one valid file per chunk: resume the "
                "run (--resume) when the disk has room"
            ) from None
        if os.path.isdir(self.folder):
            shutil.rmtree(self.folder)

    def _join(self, target: str) -> None:
        parts = [self._part(a, b) for a, b in self.ranges]
        if self.format == "parquet":
            import pyarrow as pa
            import pyarrow.parquet as pq

            with pq.ParquetWriter(target, self._schema(), compression="zstd") as out:
                tables: list[Any] = []
                for n, part in enumerate(parts, 1):
                    tables.append(pq.ParquetFile(part).read())
                    if n == len(parts) or sum(t.num_rows for t in tables) >= ROW_GROUP:
                        out.write_table(pa.concat_tables(tables))
                        tables = []
            return
        with open(target, "wb") as out:
            for n, part in enumerate(parts):
                with open(part, "rb") as source:
                    if n and self.format == "csv":
                        source.readline()  # the header, once
                    shutil.copyfileobj(source, out)


def _write_text(path: str, text: str) -> None:
    with open(path, "w", encoding="utf-8", newline="") as handle:
        handle.write(text)


def _write_atomically(
    path: str, write: Callable[[str], None], sync: bool = False, beside: str | None = None
) -> None:
    """``write(tmp)`` to a hidden file in ``path``'s folder (or ``beside``, on the same disk),
    then rename it ``path``: a reader (or a run resumed after a kill) sees the whole file or
    none of it.  ``sync``: on the disk before the rename, against a power cut (6 ms or so:
    once per run, not per chunk)."""
    folder, name = os.path.split(path)
    tmp = os.path.join(beside or folder, f".{name}.tmp")
    try:
        write(tmp)
        if sync:
            with open(tmp, "rb") as handle:
                os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(tmp)
        raise


def _describe(run: dict[str, Any]) -> str:
    spec = run["spec"]
    agents = spec.get("agents")
    return (
        f"{spec.get('ruleset')} seed {spec.get('seed')} agents "
        f"{','.join(map(str, agents)) if isinstance(agents, list) else agents} "
        f"settings {spec.get('settings')} to .{run.get('format')}"
    )


def _read_rows(
    path: str, kind: str, players: int, batch: int = ROW_GROUP
) -> Iterator[list[dict[str, Any]]]:
    """The rows of a results file (or part) of ``players`` seats as records, ``batch`` at a
    time.  A CSV text is read as its column's values are (:func:`_kinds`), or left a text
    when it is none."""
    if os.path.getsize(path) == 0:
        return
    if kind == "parquet":
        import pyarrow.parquet as pq

        for rows in pq.ParquetFile(path).iter_batches(batch_size=batch):
            yield rows.to_pylist()
    elif kind == "csv":
        with open(path, encoding="utf-8", newline="") as handle:
            rows = _csv_rows(handle, _kinds(players))
            while some := list(islice(rows, batch)):
                yield some
    else:
        with open(path, encoding="utf-8") as handle:
            lines = enumerate(iter(lambda: handle.readline(ROW_LIMIT + 1), ""), 1)
            while some := list(islice(lines, batch)):
                yield [_json_value(line, f"line {n}") for n, line in some]


def _csv_rows(handle: io.TextIOBase, kinds: dict[str, _Kind]) -> Iterator[dict[str, Any]]:
    """The rows of a CSV results file, each read for at most ``ROW_LIMIT`` characters over
    its lines (a quoted text may hold line breaks), its texts made its columns' values."""
    size = row = 0  # the characters read of row ``row`` (0: the header)

    def where() -> str:
        return f"row {row}" if row else "the header"

    def lines() -> Iterator[str]:
        nonlocal size
        while line := handle.readline(ROW_LIMIT + 1 - size):
            size += len(line)
            if size > ROW_LIMIT:
                raise ValueError(f"{where()} is over {ROW_LIMIT:,} characters")
            yield line

    texts = csv.reader(lines())
    try:
        header = next(texts, [])
        size, row = 0, 1
        for values in texts:
            if len(values) != len(header):
                raise ValueError(f"row {row} has {len(values)} values for {len(header)} columns")
            yield {
                c: kinds[c].read(text, f"row {row}, column {c}") if c in kinds else text
                for c, text in zip(header, values, strict=True)
            }
            size, row = 0, row + 1
    except csv.Error as error:  # a text over the csv module's field limit (128 KiB)
        raise ValueError(f"{where()}: {error}") from None


SEAT = "mjrules.seat"
"""The field metadata of a results column of seats (or lists of them), 0 to players - 1: its
value is the lowest value allowed, "0", or "-1" where -1 stands for nobody
(``win_from`` of a self-draw)."""


def arrow_schema(players: int) -> Any:
    import pyarrow as pa

    def seats(name: str, kind: Any, low: int = 0) -> Any:
        return pa.field(name, kind, metadata={SEAT: str(low)})

    seat = pa.int8()
    fields = [
        ("index", pa.int64()), ("seed", pa.int64()), ("ruleset", pa.string()),
        seats("dealer", seat), ("end", pa.string()), ("n_wins", pa.int16()),
        ("self_draws", pa.int16()), ("drawn", pa.bool_()), ("dealer_won", pa.bool_()),
        ("multi_win", pa.bool_()), seats("winners", pa.list_(seat)),
        seats("win_from", pa.list_(seat), -1), ("win_values", pa.list_(pa.int64())),
        ("win_hands", pa.list_(pa.list_(pa.string()))), ("hand_types", pa.list_(pa.string())),
        seats("opening_seats", pa.list_(seat)),
        ("opening_hands", pa.list_(pa.list_(pa.string()))),
        ("draws", pa.int32()), ("discards", pa.int32()), ("decisions", pa.int32()),
        ("claims", pa.int32()), seats("callers", pa.list_(seat)), ("kongs", pa.int32()),
        ("kong_draw_wins", pa.int16()),
        ("kong_discard_wins", pa.int16()), ("robbed_kongs", pa.int16()), ("birds", pa.int32()),
        ("bird_hits", pa.int32()), ("payments", pa.int32()), ("wall_left", pa.int32()),
        ("first_win_turn", pa.int16()), ("points_moved", pa.int64()),
    ]  # fmt: skip
    fields += [(f"delta_{s}", pa.int64()) for s in range(players)]
    fields += [("dealer_delta", pa.int64())]
    fields += [(f"dealt_{s}", pa.string()) for s in range(players)]
    fields += [  # what produced the row; "ruleset" is above
        (k, pa.int64() if k == "master_seed" else pa.string()) for k in PROVENANCE if k != "ruleset"
    ]
    return pa.schema(fields)


@dataclass(frozen=True)
class _Kind:
    """The values of a results column, after its field in :func:`arrow_schema`: ``test``
    tells one of them (as a run's own rows hold it), ``read`` reads a CSV text into one, or
    leaves it a text when it is none (``test`` refuses it then).  An integer is also one of
    ``span`` (``within`` says which), a list's items of kind ``item``."""

    name: str
    test: Callable[[Any], bool]
    read: Callable[[str, str], Any]
    span: range | None = None
    within: str = ""
    item: _Kind | None = None


_BOOLS = {"True": True, "False": False}
_INT = re.compile(r"-?[0-9]{1,19}")  # int64


def _kind(arrow: Any, players: int, low: int | None = None) -> _Kind:
    """The kind of the values of an arrow type; ``low``: seats of ``players`` players from
    ``low`` (the field's ``SEAT`` metadata), else integers of the type's width."""
    import pyarrow as pa

    if pa.types.is_list(arrow):
        item = _kind(arrow.value_type, players, low)
        return _Kind(
            f"list[{item.name}]",
            lambda v: type(v) is list and all(map(item.test, v)),
            _json_value,
            item=item,
        )
    if pa.types.is_boolean(arrow):
        return _Kind("bool", lambda v: type(v) is bool, lambda text, _: _BOOLS.get(text, text))
    if pa.types.is_integer(arrow):
        if low is not None:
            span = range(low, players)
            within = f"a seat of the run's {players} players (0 to {players - 1})"
            within = f"{low} or {within}" if low < 0 else within
        else:
            half = 1 << (arrow.bit_width - 1)
            span, within = range(-half, half), f"an {arrow} (-{half} to {half - 1})"
        return _Kind(
            "int",
            lambda v: type(v) is int,
            lambda text, _: int(text) if _INT.fullmatch(text) else text,
            span,
            within,
        )
    assert pa.types.is_string(arrow), f"no values for a results column of type {arrow}"
    return _Kind("str", lambda v: type(v) is str, lambda text, _: text)


@lru_cache(maxsize=8)
def _kinds(players: int) -> dict[str, _Kind]:
    """The kind of the values of each column of a run's rows, in order."""
    kinds: dict[str, _Kind] = {}
    for field in arrow_schema(players):
        low = (field.metadata or {}).get(SEAT.encode())
        kinds[field.name] = _kind(field.type, players, None if low is None else int(low))
    return kinds


def _check_types(row: dict[str, Any], kinds: dict[str, _Kind], where: str) -> None:
    """ValueError, naming ``where`` and the column, for a value of ``row`` (with the columns
    of ``kinds``) that is not of its column's kind, or holds an integer out of its span (a
    seat the run has not, a number over int64): a file changed by hand or of another
    origin, which would fail later, in the summary, or be counted silently."""
    for column, kind in kinds.items():
        if not kind.test(value := row[column]):
            raise ValueError(
                f"{where}, column {column}: {reprlib.repr(value)} is not of type {kind.name}"
            )
        if (stray := _stray(value, kind)) is not None:
            raise ValueError(f"{where}, column {column}: {reprlib.repr(stray[0])} is not "
                             f"{stray[1].within}")  # fmt: skip


def _stray(value: Any, kind: _Kind) -> tuple[int, _Kind] | None:
    """The first integer of ``value`` (of ``kind``) out of its span, with its kind."""
    if kind.item is not None:
        return next((s for v in value if (s := _stray(v, kind.item)) is not None), None)
    return (value, kind) if kind.span is not None and value not in kind.span else None


def read_results(path: str | os.PathLike[str]) -> pd.DataFrame:
    """A results file written by ``simulate`` (any of the three formats) as a DataFrame,
    list columns as Python lists."""
    import pandas as pd

    kind = output_format(path)
    if kind == "parquet":
        df = pd.read_parquet(path)
        for column in LIST_COLUMNS:
            df[column] = [_as_list(v) for v in df[column]]
        return df
    if kind == "csv":
        return _csv_lists(pd.read_csv(path, **_CSV_READ))
    return pd.read_json(path, lines=True, dtype=False)


_TEXT = [*(f"dealt_{s}" for s in range(8)), *(k for k in PROVENANCE if k != "master_seed")]
_CSV_READ: dict[str, Any] = {"keep_default_na": False, "dtype": dict.fromkeys(_TEXT, str)}


def _csv_lists(df: pd.DataFrame) -> pd.DataFrame:
    for column in LIST_COLUMNS:
        df[column] = [_json_value(v, f"column {column}") for v in df[column]]
    return df


def _json_value(text: str, where: str) -> Any:
    """A row (JSON Lines) or list (CSV) of a results file; ValueError, saying ``where``, for
    text over ``ROW_LIMIT`` or nested too deeply to decode (a file of another origin)."""
    if len(text) > ROW_LIMIT:
        raise ValueError(f"{where} is over {ROW_LIMIT:,} characters")
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError(f"{where} is nested too deeply") from None


def _as_list(value: Any) -> Any:
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, list):
        return [_as_list(v) for v in value]
    return value


# --- the API --------------------------------------------------------------------------------


def iter_records(
    ruleset: str | Ruleset,
    games: int,
    seed: int,
    agents: str | Sequence[str] = DEFAULT_AGENTS,
    workers: int | None = None,
    scheduler: str | Any | None = None,
    *,
    settings: Sequence[str] = (),
    preset: str | None = None,
    chunk: int | None = None,
) -> Iterator[dict[str, Any]]:
    """One record per hand, in index order (the streaming form of :func:`simulate`)."""
    spec, _ = make_spec(ruleset, seed, agents, settings, preset)
    for rows in iter_chunks(spec, games, workers, scheduler, chunk):
        yield from rows


def simulate(
    ruleset: str | Ruleset,
    games: int,
    seed: int,
    agents: str | Sequence[str] = DEFAULT_AGENTS,
    workers: int | None = None,
    scheduler: str | Any | None = None,
    out: str | os.PathLike[str] | None = None,
    progress: bool = True,
    *,
    settings: Sequence[str] = (),
    preset: str | None = None,
    chunk: int | None = None,
    on_chunk: Callable[[list[dict[str, Any]]], None] | None = None,
    resume: bool = False,
) -> pd.DataFrame:
    """Play ``games`` independent hands of ``ruleset`` (an id, a path or a loaded Ruleset) and
    return one row per hand.

    ``agents``: one name for every seat or one per seat (``"simple"``, ``"random,simple,..."``
    or a list).  ``workers``: processes (default all cores); ``scheduler``: a Dask scheduler
    address or ``distributed.Client`` instead.  ``out``: also stream the rows to a
    ``.parquet``, ``.csv`` or ``.jsonl`` file (see :class:`Writer`); ``resume``: keep the
    rows a stopped run left there and play only the others.  On KeyboardInterrupt (and
    SIGTERM, SIGHUP: :class:`Stopped`) the rows finished so far are written, the file is
    closed valid, and the interrupt is raised again.
    """
    import pandas as pd

    spec, loaded = make_spec(ruleset, seed, agents, settings, preset)
    from interpreter.engine.rules import Rules

    players = Rules(loaded).players
    frames: list[list[dict[str, Any]]] = []

    def keep(rows: list[dict[str, Any]]) -> None:
        frames.append(rows)
        if on_chunk is not None:
            on_chunk(rows)

    run_to(spec, games, players, keep, workers, scheduler, out, progress, chunk, resume=resume)
    frames.sort(key=lambda chunk_rows: chunk_rows[0]["index"])  # resumed: kept rows came first
    rows = [r for chunk_rows in frames for r in chunk_rows]
    return pd.DataFrame(rows, columns=arrow_schema(players).names if not rows else None)


def run_to(
    spec: Spec,
    games: int,
    players: int,
    sink: Callable[[list[dict[str, Any]]], None],
    workers: int | None = None,
    scheduler: str | Any | None = None,
    out: str | os.PathLike[str] | None = None,
    progress: bool = True,
    chunk: int | None = None,
    *,
    resume: bool = False,
    play: Callable[[Any, int, int], list[dict[str, Any]]] = play_chunk,
) -> int:
    """Run the simulation, passing each chunk of rows to ``sink`` and to the ``out`` file
    (see :class:`Writer`); return the number of hands passed.  With ``resume``, the rows a
    stopped run left in ``out`` are passed first, and only the other hands are played.
    ``play``: the unit of work (:func:`iter_chunks`).

    However the run ends, the file is closed valid first: SIGINT, SIGTERM and SIGHUP raise
    :class:`Stopped` once the chunk in hand is written; hands whose worker died twice raise
    :class:`LostHands` after all the others; a failure to write raises :class:`OutputError`.
    """
    from tqdm import tqdm

    check_run(games, workers, scheduler)
    if resume and out is None:
        raise SimulationError("resuming a run needs its output file")
    done = 0
    failure: OSError | None = None
    with Signals() as signals:
        writer = (
            Writer(out, players, spec_provenance(spec), spec=spec, resume=resume) if out else None
        )
        kept = writer.ranges if writer is not None else []
        for rows in writer.read_back() if writer is not None else ():  # before the try: a
            sink(rows)  # part that cannot be read leaves the folder as it was, joined into no file
            done += len(rows)
        complete = False
        try:
            if kept and kept[-1][1] > games:
                raise SimulationError(f"{out} holds more than {games:,} hands")
            stream = iter_chunks(spec, games, workers, scheduler, chunk, done=kept, play=play)
            bar = tqdm(total=games, initial=done, unit="hand", smoothing=0.05,
                       dynamic_ncols=True, disable=None if progress else True)  # fmt: skip
            try:
                for rows in stream:
                    with signals.held():  # a chunk is written and counted whole, or not at all
                        if writer is not None:
                            try:
                                writer.write(rows)
                            except OSError as error:
                                failure = error
                                break
                        sink(rows)
                        done += len(rows)
                    bar.update(len(rows))
                else:
                    complete = True
            finally:
                stream.close()
                bar.close()
        finally:
            if writer is not None:
                with signals.held():
                    writer.close(complete)
    if failure is not None:
        kept = f"the {done:,} hands finished are kept in {out}" if done else "no hand was kept"
        raise OutputError(f"cannot write {out}: {failure.strerror or failure}; {kept}")
    return done
