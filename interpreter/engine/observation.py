"""What one seat may see, built field by field when the agent first reads it.

An agent that never looks at its observation (a random agent) costs nothing; one that
reads two fields pays for two.  The values are those of the moment the observation was
made: reading a field not yet read after the game has moved on raises ``RuntimeError``
(keep what you need, or ask the game again).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from handcore.tiles import EVERY
from interpreter import choices
from interpreter.engine.choices import legal as choice_actions
from interpreter.engine.state import to_move

if TYPE_CHECKING:
    from interpreter.engine.state import Table

_TILE = {EVERY.name(t): t for t in range(EVERY.kinds)}


def _melds(game: Table, seat: int) -> tuple[tuple[tuple[str, int, bool], ...], ...]:
    shown_concealed = game.rules.concealed_shown
    melds = []
    for q, other in enumerate(game.players):
        shown = []
        for m in other.melds:
            hidden = q != seat and m.concealed and not shown_concealed
            shown.append((m.kind, -1 if hidden else m.tile, m.concealed))
        melds.append(tuple(shown))
    return tuple(melds)


def _claim(game: Table, seat: int) -> dict[str, Any] | None:
    rnd = game.round
    if rnd is None or game.phase != "claim":
        return None
    return {
        "tile": rnd.tile, "from": rnd.discarder, "context": tuple(sorted(rnd.context)),
        "tiles": rnd.tiles or (rnd.tile,),
    }  # fmt: skip


def _held(game: Table, seat: int, effect: str) -> Any:
    """The value the seat chose and holds unseen, in a choice with ``effect``; else None."""
    state = game.choosing
    held = game.held.get(seat)
    if held is None or state is None or state.current is None:
        return None
    return state.offered[seat][held.option] if state.current.effect == effect else None


def _exchange(game: Table, seat: int) -> dict[str, tuple[int, ...]] | None:
    """The seat's own part of the exchange: the tiles it gave and (once passed) received."""
    if seat in game.exchanged:
        gave, received = game.exchanged[seat]
        return {"gave": tuple(sorted(gave)), "received": tuple(sorted(received))}
    held = _held(game, seat, "exchange")
    return None if held is None else {"gave": tuple(held), "received": ()}


def _void(game: Table, seat: int) -> tuple[int | None, ...]:
    """Each seat's void suit (定缺) once all have chosen; before that, only the seat's own."""
    voids = [q.void for q in game.players]
    held = _held(game, seat, "void")
    if held is not None:
        voids[seat] = held
    return tuple(voids)


def _choice(game: Table, seat: int) -> dict[str, Any] | None:
    """The choice the seat is asked now, from the ruleset: its name, effect, how many tiles
    (0: a value), the values it may choose (as their text, as the actions' ``option``) and
    the default's text (None: none).  None when the seat is not choosing."""
    state = game.choosing
    if state is None or state.current is None or to_move(game) != seat:
        return None
    choice = state.current
    default = choices.default(choice, choices.situation(game.ruleset, seat, game.dealer, game.n))
    return {
        "name": choice.name, "title": choice.title, "effect": choice.effect,
        "tiles": choice.tiles, "values": tuple(a.option for a in choice_actions(game, seat)),
        "default": None if default is None else choices.text(choice, default),
    }  # fmt: skip


def _choices(game: Table, seat: int) -> dict[str, tuple[Any, ...]]:
    """Each choice's value per seat once all have chosen; of the choice being made, and of a
    choice of tiles (the tiles given stay hidden), only the seat's own (others None)."""
    private = {c.name for c, _ in choices.declared(game.ruleset) if c.tiles}
    shown = {
        name: tuple(v if q == seat or name not in private else None for q, v in enumerate(values))
        for name, values in game.chosen.items()
    }
    state = game.choosing
    held = game.held.get(seat)
    if state is not None and state.current is not None and held is not None:
        mine: list[Any] = [None] * game.n
        mine[seat] = state.offered[seat][held.option]
        shown[state.current.name] = tuple(mine)
    return shown


def _rivers(game: Table, seat: int) -> tuple[tuple[tuple[int, int | None], ...], ...]:
    """Every tile each seat has discarded, in order, as ``(tile, taker)``: ``taker`` is the
    seat that claimed it or won on it (the nearest winner), None while it lies in the river.

    ``discards`` drops a tile once it is taken; a defender still needs it (a player seldom
    waits on a tile it threw).  Read from the public events of the hand (``Rivers``)."""
    found = game.rivers_read
    if found is None or found.events is not game.events:  # a new table, or a copy of one
        found = game.rivers_read = Rivers(game.events, game.n)
    return found.now()


class Rivers:
    """The rivers read from a table's events so far, read on as events are added: a
    defender asks at every decision, and a hand has a few hundred events."""

    __slots__ = ("after_kong", "events", "read", "rivers", "shown")

    def __init__(self, events: list[dict[str, Any]], players: int) -> None:
        self.events = events
        self.read = 0
        self.rivers: list[list[list[Any]]] = [[] for _ in range(players)]
        # No discard since the last kong: a win now is on the kong's tile or a replacement,
        # never on a river's, whatever its context (a robbed 补张 or 点杠花 may have none).
        self.after_kong = False
        self.shown: tuple[tuple[tuple[int, int | None], ...], ...] = ((),) * players

    def now(self) -> tuple[tuple[tuple[int, int | None], ...], ...]:
        """The rivers after every event so far."""
        events, rivers = self.events, self.rivers
        if self.read == len(events):
            return self.shown
        for event in events[self.read :]:
            kind = event["type"]
            if kind == "discard":
                self.after_kong = False
                rivers[event["seat"]].append([_TILE[event["tile"]], None])
            elif kind == "kong":
                self.after_kong = True
            elif kind == "claim":
                taken = event.get("taken", event["tile"] if event["kind"] != "chow" else None)
                _take(rivers[event["from"]], taken, event["seat"])
            elif kind == "win" and event["from"] is not None and not self.after_kong:
                each = event.get("seat_tiles")
                for name in event["tiles"]:
                    seat = next(s for s in event["seats"] if not each or name in each[str(s)])
                    _take(rivers[event["from"]], name, seat)
        self.read = len(events)
        self.shown = tuple(tuple((t, taker) for t, taker in river) for river in rivers)
        return self.shown


def _take(river: list[list[Any]], name: str | None, seat: int) -> None:
    """The latest tile ``name`` still in ``river`` (the latest of any, when None) is taken by
    ``seat``, as the engine takes a claimed or won tile from the discards."""
    tile = None if name is None else _TILE[name]
    for entry in reversed(river):
        if entry[1] is None and (tile is None or entry[0] == tile):
            entry[1] = seat
            return


def _missed_win(game: Table, seat: int) -> dict[str, Any] | None:
    """The seat's own missed-win lock (过胡): the wins it passed while the lock lasts (the
    ruleset's ``restrictions.missed_win`` says which discards they lock) and when the lock ends
    (``until``: its next draw or its next action).  Only the seat knows it passed a win, so
    other seats' locks are not observed.  None when no lock is set."""
    p = game.players[seat]
    if not p.lock_tiles:
        return None
    return {
        "tiles": tuple(sorted(p.lock_tiles)),
        "value": p.lock_value,
        "until": game.rules.missed_win_until,
    }


FIELDS: dict[str, Callable[[Table, int], Any]] = {
    "seat": lambda g, s: s,
    "phase": lambda g, s: g.phase,
    "to_move": lambda g, s: to_move(g),
    "dealer": lambda g, s: g.dealer,
    "players": lambda g, s: g.n,
    "hand": lambda g, s: tuple(g.players[s].hand()),
    # The same tiles as the engine keeps them, so that a bot need not count them again.
    "hand_counts": lambda g, s: tuple(g.players[s].counts),
    "hand_keys": lambda g, s: g.players[s].keys,
    "drawn": lambda g, s: g.drawn if g.current == s and g.phase == "turn" else None,
    "melds": _melds,
    "discards": lambda g, s: tuple(tuple(q.discards) for q in g.players),
    "rivers": _rivers,
    "won": lambda g, s: tuple(tuple(q.won) for q in g.players),
    "flowers": lambda g, s: tuple(tuple(q.flowers) for q in g.players),
    "wall": lambda g, s: g.wall.drawable,
    "in_game": lambda g, s: tuple(q.in_game for q in g.players),
    "void": _void,
    "exchange": _exchange,
    "choice": _choice,
    "choices": _choices,
    "locked": lambda g, s: g.players[s].locked,
    "missed_win": _missed_win,
    "scores": lambda g, s: tuple(g.deltas),
    "kong_tiles": lambda g, s: tuple(g.kong_tiles),
    "wilds": lambda g, s: tuple(sorted(g.rules.wilds)),
    "indicator": lambda g, s: g.indicator,
    "claim": _claim,
    "ruleset": lambda g, s: g.ruleset,  # the rules every player knows (bots read values from it)
}


_UNREAD = object()


class Observation(Mapping[str, Any]):
    """A read-only mapping with the keys of ``FIELDS``, each computed on first read."""

    __slots__ = ("_game", "_moment", "_read", "_seat")

    def __init__(self, game: Table, seat: int) -> None:
        self._game = game
        self._seat = seat
        self._moment = len(game.events)
        self._read: dict[str, Any] = {}

    def __getitem__(self, key: str) -> Any:
        value = self._read.get(key, _UNREAD)
        if value is _UNREAD:
            compute = FIELDS[key]
            if len(self._game.events) != self._moment:
                raise RuntimeError(f"observation field {key!r} read after the game moved on")
            value = self._read[key] = compute(self._game, self._seat)
        return value

    def get(self, key: str, default: Any = None) -> Any:
        """``Mapping.get`` without its exception handling (bots ask for fields by ``get``)."""
        return self[key] if key in FIELDS else default

    def __iter__(self) -> Iterator[str]:
        return iter(FIELDS)

    def __len__(self) -> int:
        return len(FIELDS)

    def __repr__(self) -> str:
        return f"Observation({dict(self)!r})"
