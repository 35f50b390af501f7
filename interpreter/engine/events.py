"""The event log: one JSON object per line (JSON Lines), described in docs/EVENTS.md.

Every hand starts with a ``start`` event that carries the schema version, the ruleset id,
its option values, the seed and the dealer: enough to play the hand again.  Decisions are
``act`` events; what follows from them (draws, discards, claims, kongs, replacement
draws, wins, birds, payments, the end) are events of their own.

Each event type has one constructor here, typed in the engine's values (seats, tiles as
numbers): the only place an event's fields and their order are written, so a log's bytes
depend on nothing else.  Optional fields are left out, not written as null, exactly as
docs/EVENTS.md says.
"""

from __future__ import annotations

import json
import os
from collections.abc import Collection, Iterable
from typing import IO, Any

from dsl.ruleset import Ruleset
from handcore.tiles import EVERY, Tile

Event = dict[str, Any]

SCHEMA_VERSION = 1
TYPES = (
    "start", "deal", "opening", "exchange", "void", "choice", "phase", "act", "draw",
    "declaration", "discard", "claim", "kong", "replacement", "flower", "win", "bird", "payment",
    "end",
)  # fmt: skip


_NAMES = tuple(EVERY.name(t) for t in range(EVERY.kinds))


def _names(tiles: Iterable[Tile]) -> list[str]:
    return [_NAMES[t] for t in tiles]


def start(
    ruleset: Ruleset, options: dict[str, Any], seed: int, hand: int, dealer: int, players: int,
    dealers: Collection[int] = (),
) -> Event:  # fmt: skip
    """``dealers``: every seat dealing the hand, written only when there are several."""
    found: Event = {"ruleset_file": ruleset.given_path} if ruleset.given_path else {}
    if len(dealers) > 1:
        found["dealers"] = sorted(dealers)
    return {
        "type": "start", "version": SCHEMA_VERSION, "ruleset": ruleset.id,
        "ruleset_sha256": ruleset.sha256, **found, "options": dict(options), "seed": seed,
        "hand": hand, "dealer": dealer, "players": players,
    }  # fmt: skip


def deal(
    dice: Iterable[int], hands: list[str], wall: int, wilds: Iterable[Tile] = (),
    indicator: Tile | None = None,
) -> Event:  # fmt: skip
    """``wilds``: the hand's wild tiles, written only when there are some, with the tile
    turned up to choose them (``indicator``) when there is one."""
    found: Event = {"type": "deal", "dice": list(dice), "hands": hands, "wall": wall}
    if wilds:
        found["wilds"] = _names(wilds)
    if indicator is not None:
        found["indicator"] = EVERY.name(indicator)
    return found


def opening(
    seat: int, hands: list[dict[str, Any]], birds: Iterable[Tile], dice: list[int],
    hits: dict[int, int], settle: str,
) -> Event:  # fmt: skip
    return {
        "type": "opening", "seat": seat, "hands": hands, "birds": _names(birds), "dice": dice,
        "hits": {str(k): v for k, v in sorted(hits.items())}, "settle": settle,
    }  # fmt: skip


def exchange(
    direction: str, dice: list[int], gave: list[str], received: list[str], hands: list[str]
) -> Event:
    return {"type": "exchange", "direction": direction, "dice": dice, "gave": gave,
            "received": received, "hands": hands}  # fmt: skip


def void(suits: list[str]) -> Event:
    return {"type": "void", "suits": suits}


def choice(name: str, values: list[Any]) -> Event:
    """The values every seat chose in a choice without an effect of its own (None: none)."""
    return {"type": "choice", "name": name, "values": values}


def phase(name: str, seat: int) -> Event:
    return {"type": "phase", "phase": name, "seat": seat}


def act(seat: int, action: dict[str, Any]) -> Event:
    return {"type": "act", "seat": seat, "action": action}


def draw(seat: int, tile: Tile, last_tile: bool) -> Event:
    """A tile drawn from the front of the wall."""
    return {"type": "draw", "seat": seat, "tile": _NAMES[tile], "source": "front",
            "last_tile": last_tile}  # fmt: skip


def flower(seat: int, tile: Tile, replacement: Tile | None) -> Event:
    """A flower set aside by ``seat`` and the tile drawn from the tail for it (补花; None: the
    wall had none left)."""
    return {"type": "flower", "seat": seat, "tile": _NAMES[tile],
            "replacement": None if replacement is None else _NAMES[replacement]}  # fmt: skip


def declaration(seat: int, name: str, tile: Tile) -> Event:
    """A hand declared during play, after the draw or kong of ``tile``."""
    return {"type": "declaration", "seat": seat, "name": name, "tile": _NAMES[tile]}


def discard(
    seat: int, tile: Tile, *, claimable: bool | None = None, exposed: bool = False
) -> Event:
    """``claimable``: given for tiles shown apart (kong tiles, last tiles taken together);
    ``exposed``: a last tile shown by its taker."""
    event: Event = {"type": "discard", "seat": seat, "tile": _NAMES[tile]}
    if claimable is not None:
        event["claimable"] = claimable
    if exposed:
        event["exposed"] = True
    return event


def claim(seat: int, kind: str, tile: Tile, discarder: int, taken: Tile | None = None) -> Event:
    """``taken``: in a joint round, the tile taken from the discards."""
    event: Event = {"type": "claim", "seat": seat, "kind": kind, "tile": _NAMES[tile],
                    "from": discarder}  # fmt: skip
    if taken is not None:
        event["taken"] = _NAMES[taken]
    return event


def kong(seat: int, kind: str, tile: Tile | None, provider: int | None = None) -> Event:
    """``tile`` None: a concealed kong kept face down; ``provider``: a direct kong's discarder."""
    event: Event = {"type": "kong", "seat": seat, "kind": kind,
                    "tile": None if tile is None else _NAMES[tile]}  # fmt: skip
    if provider is not None:
        event["from"] = provider
    return event


def replacement(seat: int, method: str, tiles: Iterable[Tile], dice: list[int]) -> Event:
    return {"type": "replacement", "seat": seat, "method": method, "tiles": _names(tiles),
            "dice": dice}  # fmt: skip


def win(
    seats: Iterable[int], tiles: Iterable[Tile], context: Iterable[str],
    hands: list[dict[str, Any]], discarder: int | None,
    seat_tiles: dict[int, tuple[Tile, ...]] | None = None,
) -> Event:  # fmt: skip
    """``seat_tiles``: each winner's tiles, when the winners of a joint round won on
    different tiles."""
    event: Event = {"type": "win", "seats": list(seats), "tiles": _names(tiles),
                    "context": sorted(context), "hands": hands, "from": discarder}  # fmt: skip
    if seat_tiles is not None:
        event["seat_tiles"] = {str(s): _names(won) for s, won in seat_tiles.items()}
    return event


def bird(tiles: Iterable[Tile], hits: dict[int, int]) -> Event:
    return {"type": "bird", "tiles": _names(tiles),
            "hits": {str(s): n for s, n in sorted(hits.items())}}  # fmt: skip


def payment(amount: int, reasons: Iterable[str], payer: int, payee: int | str) -> Event:
    """``payee``: a seat, or ``"pot"``."""
    return {"type": "payment", "amount": amount, "reasons": list(reasons), "from": payer,
            "to": payee}  # fmt: skip


def end(
    reason: str, deltas: list[int], winners: list[int], next_dealer: int, hands: list[str],
    wall: int, next_dealers: Collection[int] = (),
) -> Event:  # fmt: skip
    """``next_dealers``: every seat dealing the next hand, written only when there are
    several."""
    event: Event = {"type": "end", "reason": reason, "deltas": deltas, "winners": winners,
                    "next_dealer": next_dealer, "hands": hands, "wall": wall}  # fmt: skip
    if len(next_dealers) > 1:
        event["next_dealers"] = sorted(next_dealers)
    return event


def option_settings(ruleset: Ruleset) -> dict[str, Any]:
    """The ruleset's option values, by name, as JSON values."""
    values = ruleset.option_values  # built on each read
    return {name: values[name] for name in sorted(values)}


def settings_of(options: dict[str, Any]) -> list[str]:
    """``name=value`` settings that load a ruleset with these option values."""
    return [f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in options.items()]


def dumps(event: dict[str, Any]) -> str:
    return json.dumps(event, ensure_ascii=False, separators=(",", ":"))


def to_jsonl(events: Iterable[dict[str, Any]]) -> str:
    return "".join(dumps(e) + "\n" for e in events)


def write_log(events: Iterable[dict[str, Any]], log: str | os.PathLike[str] | IO[str]) -> None:
    text = to_jsonl(events)
    if isinstance(log, str | os.PathLike):
        with open(log, "w", encoding="utf-8") as handle:
            handle.write(text)
    else:
        log.write(text)


MAX_LINE = 1 << 20
"""Bytes in one line of a log at most: the longest event is a few kilobytes."""


def read_log(log: str | os.PathLike[str] | IO[str]) -> list[dict[str, Any]]:
    """The events of a log, each checked against the schema (log_schema); a line too long,
    too deeply nested or not an event raises ValueError naming the line, before more is read."""
    if isinstance(log, str | os.PathLike):
        with open(log, "rb") as handle:
            return _events(handle)
    return _events(log)


def _events(handle: IO[Any]) -> list[dict[str, Any]]:
    from interpreter.engine.log_schema import MAX_DEPTH, depth, event_problem

    events = []
    number = 0
    while line := handle.readline(MAX_LINE + 1):
        number += 1
        if len(line) > MAX_LINE and line[-1:] not in ("\n", b"\n"):
            raise ValueError(f"line {number}: longer than {MAX_LINE:,} bytes")
        if isinstance(line, bytes):
            try:
                line = line.decode("utf-8")
            except UnicodeDecodeError:
                raise ValueError(f"line {number}: not UTF-8 text") from None
        if not line.strip():
            continue
        try:
            event = json.loads(line)
            too_deep = depth(event) > MAX_DEPTH
        except json.JSONDecodeError as error:
            raise ValueError(f"line {number}: not JSON: {error.msg}") from None
        except RecursionError:
            too_deep = True
        if too_deep:
            raise ValueError(f"line {number}: nested deeper than {MAX_DEPTH} levels")
        problem = event_problem(event)
        if problem:
            raise ValueError(f"line {number}: {problem}")
        events.append(event)
    return events
