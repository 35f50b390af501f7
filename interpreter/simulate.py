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

import contextlib
import csv
import hashlib
import io
import json
import math
import os
import signal
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import compress
from operator import itemgetter
from random import Random
from typing import TYPE_CHECKING, Any

from interpreter.summary import PROVENANCE

if TYPE_CHECKING:
    import pandas as pd

    from dsl.ruleset import Ruleset
    from interpreter.engine.rules import Rules
    from interpreter.tiles import Tile

FORMATS = {".parquet": "parquet", ".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl"}
LIST_COLUMNS = (
    "winners", "win_from", "win_values", "win_hands", "hand_types", "opening_seats",
    "opening_hands",
)  # fmt: skip
DEFAULT_AGENTS = "efficiency"
"""The strongest bot that meets the speed target (docs/AGENTS.md, Default bots)."""
_TYPE = itemgetter("type")
_READ = frozenset(("win", "claim", "bird", "deal", "opening", "end"))
"""The events a record reads; the others are only counted."""


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
    from interpreter.agents import AGENTS
    from interpreter.engine.events import option_settings, settings_of
    from interpreter.engine.rules import Rules

    if isinstance(ruleset, Ruleset):
        loaded = ruleset
        ref, settings, preset = loaded.path, settings_of(option_settings(loaded)), None
    else:
        loaded = load(str(ruleset), settings=settings, preset=preset)
        ref = portable_ref(str(ruleset))
    names = split_agents(agents) if isinstance(agents, str) else [a.strip() for a in agents]
    unknown = [n for n in names if n.partition(":")[0] not in AGENTS]
    if unknown:
        raise SimulationError(
            f"unknown agent {unknown[0]!r}; agents are {', '.join(sorted(AGENTS))}"
        )
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
    return Spec(ref, tuple(settings), preset, seed, tuple(names)), loaded


def portable_ref(ref: str) -> str:
    """A ruleset reference workers can load: an id as it is, a file as an absolute path."""
    from dsl.ruleset import is_path

    return os.path.abspath(ref) if is_path(ref) or os.path.isfile(ref) else ref


def split_agents(text: str) -> list[str]:
    """``"random,value:kong_policy=never,defence=0.5,simple"`` → one name per item; an item
    ``k=v`` without a colon continues the parameters of the agent before it."""
    names: list[str] = []
    for item in (t.strip() for t in text.split(",")):
        if names and "=" in item and ":" not in item:
            names[-1] += "," + item
        else:
            names.append(item)
    return names


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
    ``points_moved``: the points that changed hands, the sum of the gains.
    """
    winners: list[int] = []
    win_from: list[int] = []
    values: list[int] = []
    win_hands: list[list[str]] = []
    claims = birds = bird_hits = 0
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
            for w in e["hands"]:
                winners.append(w["seat"])
                win_from.append(-1 if source is None else source)
                values.append(int(w["total"]))
                win_hands.append(
                    [h["id"] for h in w["hands"] if h["value"] or h["class"] != "bonus"]
                )
        elif kind == "claim":
            claims += e["kind"] != "win"
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
        "kongs": kinds.count("kong"),
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


@contextlib.contextmanager
def _interrupts_deferred() -> Iterator[None]:
    """Hold Ctrl-C until the block is done (in the main thread; elsewhere do nothing)."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[Any] = []
    previous = signal.signal(signal.SIGINT, lambda *args: caught.append(args))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught:
        raise KeyboardInterrupt


def _ignore_sigint() -> None:
    """Pool workers leave Ctrl-C to the main process, which stops them cleanly."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def chunks(games: int, size: int) -> list[tuple[int, int]]:
    return [(a, min(a + size, games)) for a in range(0, games, size)]


def default_chunk(games: int, workers: int) -> int:
    return max(1, min(50, math.ceil(games / max(1, workers * 8))))


def iter_chunks(
    spec: Spec,
    games: int,
    workers: int | None = None,
    scheduler: str | Any | None = None,
    chunk: int | None = None,
) -> Iterator[list[dict[str, Any]]]:
    """The records in chunks, in index order.  ``workers`` processes (all cores by default;
    1 plays here), or the Dask scheduler at ``scheduler`` (an address or a Client).

    At most a few chunks per worker are in flight, so memory does not grow with ``games``.
    Closing the generator (or an exception such as KeyboardInterrupt in it) cancels what
    has not started.
    """
    if games < 0:
        raise SimulationError(f"--games must be at least 0, not {games}")
    workers = workers or os.cpu_count() or 1
    if workers < 1:
        raise SimulationError(f"--workers must be at least 1, not {workers}")
    size = chunk or default_chunk(games, workers)
    todo = chunks(games, size)
    if scheduler is not None:
        yield from _dask_chunks(spec, todo, scheduler)
    elif workers == 1:
        for a, b in todo:
            yield play_chunk(spec, a, b)
    else:
        yield from _pool_chunks(spec, todo, workers)


def _in_order(
    todo: list[tuple[int, int]],
    submit: Callable[[int, int], Any],
    wait_one: Callable[[set[Any]], tuple[Any, list[dict[str, Any]]]],
    window: int,
) -> Iterator[list[dict[str, Any]]]:
    """Submit up to ``window`` chunks ahead; yield finished ones in index order."""
    pending: dict[Any, int] = {}
    done: dict[int, list[dict[str, Any]]] = {}
    next_submit = next_yield = 0
    while next_yield < len(todo):
        while next_submit < len(todo) and len(pending) < window:
            pending[submit(*todo[next_submit])] = next_submit
            next_submit += 1
        future, rows = wait_one(set(pending))
        done[pending.pop(future)] = rows
        while next_yield in done:
            yield done.pop(next_yield)
            next_yield += 1


def _pool_chunks(
    spec: Spec, todo: list[tuple[int, int]], workers: int
) -> Iterator[list[dict[str, Any]]]:
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    context = multiprocessing.get_context("forkserver" if os.name == "posix" else "spawn")
    pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_ignore_sigint)

    def wait_one(futures: set[Any]) -> tuple[Any, list[dict[str, Any]]]:
        finished, _ = wait(futures, return_when=FIRST_COMPLETED)
        future = min(finished, key=id)
        return future, future.result()

    try:
        yield from _in_order(
            todo, lambda a, b: pool.submit(play_chunk, spec, a, b), wait_one, 3 * workers
        )
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _dask_chunks(
    spec: Spec, todo: list[tuple[int, int]], scheduler: str | Any
) -> Iterator[list[dict[str, Any]]]:
    try:
        from distributed import Client, wait
    except ImportError:  # pragma: no cover - dask is a dependency
        raise SimulationError("--scheduler needs dask[distributed] installed") from None
    own = not isinstance(scheduler, Client)
    try:
        client = Client(scheduler, timeout="5s") if own else scheduler
    except (OSError, TimeoutError, ValueError) as error:
        raise SimulationError(f"cannot reach the Dask scheduler at {scheduler}: {error}") from None
    workers = max(1, sum(client.nthreads().values()))

    def submit(a: int, b: int) -> Any:
        return client.submit(play_chunk, spec, a, b, pure=False)

    def wait_one(futures: set[Any]) -> tuple[Any, list[dict[str, Any]]]:
        finished = wait(list(futures), return_when="FIRST_COMPLETED").done
        future = min(finished, key=lambda f: f.key)
        return future, future.result()

    futures: list[Any] = []

    def tracked(a: int, b: int) -> Any:
        f = submit(a, b)
        futures.append(f)
        return f

    try:
        yield from _in_order(todo, tracked, wait_one, 3 * workers)
    finally:
        with contextlib.suppress(Exception):
            client.cancel([f for f in futures if not f.done()])
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


class Writer:
    """Appends chunks of records to a Parquet, CSV or JSON Lines file; ``close`` leaves a valid
    file (Parquet's footer written) whatever was appended.  Writes to ``path`` directly.
    ``metadata`` is stored as the Parquet file's key-value metadata."""

    def __init__(
        self, path: str | os.PathLike[str], players: int, metadata: dict[str, str] | None = None
    ) -> None:
        self.path = str(path)
        self.format = output_format(path)
        self.players = players
        self.rows = 0
        self._parquet: Any = None
        self._schema: Any = None
        self._csv: Any = None
        self._handle: io.TextIOBase | None = None
        if self.format == "parquet":
            import pyarrow.parquet as pq

            self._schema = arrow_schema(players).with_metadata(metadata or {})
            self._parquet = pq.ParquetWriter(self.path, self._schema, compression="zstd")
        else:
            self._handle = open(self.path, "w", encoding="utf-8", newline="")  # noqa: SIM115

    def write(self, rows: list[dict[str, Any]]) -> None:
        if not rows:
            return
        if self.format == "parquet":
            import pyarrow as pa

            self._parquet.write_table(pa.Table.from_pylist(rows, schema=self._schema))
        elif self.format == "csv":
            assert self._handle is not None
            if self._csv is None:
                self._csv = csv.DictWriter(self._handle, fieldnames=list(rows[0]))
                self._csv.writeheader()
            for row in rows:
                self._csv.writerow(
                    {k: json.dumps(v, ensure_ascii=False) if k in LIST_COLUMNS else v
                     for k, v in row.items()}
                )  # fmt: skip
        else:
            assert self._handle is not None
            self._handle.write(
                "".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n"
                        for r in rows)
            )  # fmt: skip
        self.rows += len(rows)

    def close(self) -> None:
        if self._parquet is not None:
            self._parquet.close()
            self._parquet = None
        if self._handle is not None:
            self._handle.close()
            self._handle = None


def arrow_schema(players: int) -> Any:
    import pyarrow as pa

    fields = [
        ("index", pa.int64()), ("seed", pa.int64()), ("ruleset", pa.string()),
        ("dealer", pa.int8()), ("end", pa.string()), ("n_wins", pa.int16()),
        ("self_draws", pa.int16()), ("drawn", pa.bool_()), ("dealer_won", pa.bool_()),
        ("multi_win", pa.bool_()), ("winners", pa.list_(pa.int8())),
        ("win_from", pa.list_(pa.int8())), ("win_values", pa.list_(pa.int64())),
        ("win_hands", pa.list_(pa.list_(pa.string()))), ("hand_types", pa.list_(pa.string())),
        ("opening_seats", pa.list_(pa.int8())),
        ("opening_hands", pa.list_(pa.list_(pa.string()))),
        ("draws", pa.int32()), ("discards", pa.int32()), ("decisions", pa.int32()),
        ("claims", pa.int32()), ("kongs", pa.int32()), ("birds", pa.int32()),
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
        text = [*(f"dealt_{s}" for s in range(8)), *(k for k in PROVENANCE if k != "master_seed")]
        df = pd.read_csv(path, keep_default_na=False, dtype=dict.fromkeys(text, str))
        for column in LIST_COLUMNS:
            df[column] = [json.loads(v) for v in df[column]]
        return df
    return pd.read_json(path, lines=True, dtype=False)


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
) -> pd.DataFrame:
    """Play ``games`` independent hands of ``ruleset`` (an id, a path or a loaded Ruleset) and
    return one row per hand.

    ``agents``: one name for every seat or one per seat (``"simple"``, ``"random,simple,..."``
    or a list).  ``workers``: processes (default all cores); ``scheduler``: a Dask scheduler
    address or ``distributed.Client`` instead.  ``out``: also stream the rows to a
    ``.parquet``, ``.csv`` or ``.jsonl`` file.  On KeyboardInterrupt the rows finished so far
    are written, the file is closed valid, and the interrupt is raised again.
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

    run_to(spec, games, players, keep, workers, scheduler, out, progress, chunk)
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
) -> int:
    """Run the simulation, passing each chunk of rows (in index order) to ``sink`` and to the
    ``out`` file; return the number of hands done.  The file is closed valid on any exit."""
    writer = Writer(out, players, spec_provenance(spec)) if out is not None else None
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=games, unit="hand", smoothing=0.05, dynamic_ncols=True, disable=None)
    done = 0
    stream = iter_chunks(spec, games, workers, scheduler, chunk)
    try:
        for rows in stream:
            with _interrupts_deferred():  # a chunk is written and counted whole, or not at all
                if writer is not None:
                    writer.write(rows)
                sink(rows)
                done += len(rows)
            if bar is not None:
                bar.update(len(rows))
    finally:
        stream.close()
        if writer is not None:
            writer.close()
        if bar is not None:
            bar.close()
    return done
