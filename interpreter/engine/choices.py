"""The choice phase: every seat chooses at once, each unseen by the others until all have
chosen (the ruleset's ``choices``: 换三张, 定缺, 飘 ...), and hands declared during play
(``declarations``).

A choice's phase and its actions are named after it (``Action("piao", option="2")``).
Seats are asked in turn from the dealer, each choice held unseen (``game.held``); once
all have chosen, the values are revealed together and kept in ``game.chosen`` (read as
``choice.NAME(seat)``), then the choice's effect is carried out: nothing, the tiles passed
(``exchange``), or the seat's void suit set (``void``).  The engine calls in at four places:
``start`` before the deal and after it, ``legal`` and ``choose`` in a choice's phase, and
``declare`` after each draw and kong.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from interpreter import choices
from interpreter.engine.actions import Action
from interpreter.engine.state import fmt, tile_name
from interpreter.settle import Payment, Settlement, display_name
from interpreter.tiles import Tile

if TYPE_CHECKING:
    from interpreter.engine.game import Game

_BY_DIE = ("clockwise", "across", "counterclockwise")


def _shift(direction: str, n: int) -> int:
    """How many seats on, in turn order, the tiles go."""
    return {"counterclockwise": 1, "clockwise": n - 1, "across": n // 2 or 1}[direction]


class Choosing:
    """The choices of one hand: those still to come at this moment, the one being made,
    the seats it asks, and each seat's options (by their text)."""

    __slots__ = ("asked", "current", "offered", "queue")

    def __init__(self, queue: list[choices.Choice]) -> None:
        self.queue = queue
        self.current: choices.Choice | None = None
        self.asked: list[int] = []
        self.offered: dict[int, dict[str, Any]] = {}


def start(game: Game, at: str) -> bool:
    """Open the first choice made at ``at`` (``before_deal``, ``after_deal``); False when
    there is none, and the caller goes on."""
    queue = list(choices.played(game.ruleset, at)) if game.ruleset.get("choices") else []
    if not queue:
        return False
    game.choosing = Choosing(queue)
    return _next(game)


def _base(game: Game, choice: choices.Choice, seat: int) -> Any:
    """What the choice's expressions see for ``seat`` (no tiles before the deal)."""
    keys = game.players[seat].keys if choice.at == "after_deal" else None
    return choices.situation(game.ruleset, seat, game.dealer, game.n, keys, game.chosen)


def _next(game: Game) -> bool:
    """Ask the next choice of the moment, revealing at once one that asks nobody."""
    state = game.choosing
    assert state is not None
    while state.queue:
        choice = state.current = state.queue.pop(0)
        order = [(game.dealer + i) % game.n for i in range(game.n)]
        when = choice.when
        state.asked = [s for s in order if when is None or when(_base(game, choice, s))]
        state.offered = {}
        if state.asked:
            game._phase(choice.name, state.asked[0])
            return True
        _reveal(game, {})
    game.choosing = None
    return False


def legal(game: Game, seat: int) -> list[Action]:
    """What ``seat`` may choose now."""
    state = game.choosing
    assert state is not None and state.current is not None
    choice = state.current
    offered = state.offered.get(seat)
    if offered is None:
        hand = game.players[seat].hand()
        offered = state.offered[seat] = choices.options(
            choice, game.ruleset, _base(game, choice, seat), hand
        )
    return [Action(choice.name, option=text) for text in offered]


def choose(game: Game, seat: int, action: Action) -> None:
    """Hold ``seat``'s choice unseen; once every asked seat has chosen, reveal them all."""
    state = game.choosing
    assert state is not None
    game.held[seat] = action
    place = state.asked.index(seat) + 1
    if place < len(state.asked):
        game.current = state.asked[place]
        return
    held, game.held = game.held, {}
    _reveal(game, {s: state.offered[s][a.option] for s, a in held.items()})
    if not _next(game):
        at = state.current.at if state.current else "after_deal"
        if at == "before_deal":
            game._deal()
        else:
            game._phase("turn", game.dealer)


def _reveal(game: Game, made: dict[int, Any]) -> None:
    state = game.choosing
    assert state is not None and state.current is not None
    choice = state.current
    values = tuple(
        made[s] if s in made else choices.default(choice, _base(game, choice, s))
        for s in range(game.n)
    )
    game.chosen = {**game.chosen, choice.name: values}
    if choice.effect == "void":
        for s, suit in enumerate(values):
            game.players[s].void = suit
        game._emit("void", suits=[choices.text(choice, v) for v in values])
    elif choice.effect == "exchange":
        _exchange(game, choice, values)
    else:
        shown = [choices.json_value(choice, v) for v in values]
        game._emit("choice", name=choice.name, values=shown)


def _exchange(game: Game, choice: choices.Choice, given: tuple[Any, ...]) -> None:
    """Each seat's chosen tiles pass to another seat, all in one direction."""
    n = game.n
    for s, tiles in enumerate(given):
        for t in tiles:
            game.players[s].add(t, -1)
    direction, dice = _direction(game, choice.direction)
    shift = _shift(direction, n)
    received: dict[int, tuple[Tile, ...]] = {}
    for s in range(n):
        to = (s + shift) % n
        received[to] = given[s]
        for t in given[s]:
            game.players[to].add(t)
    dealer = game.dealer
    if game.drawn is not None and not game.players[dealer].counts[game.drawn]:
        game.drawn = max(received[dealer])  # the dealer's 14th tile was given away
    game.exchanged = {s: (list(given[s]), list(received[s])) for s in range(n)}
    game._emit(
        "exchange", direction=direction, dice=dice,
        gave=[fmt(sorted(given[s])) for s in range(n)],
        received=[fmt(sorted(received[s])) for s in range(n)],
        hands=[p.notation() for p in game.players],
    )  # fmt: skip


def _direction(game: Game, direction: str) -> tuple[str, list[int]]:
    """The direction, and the die rolled for it (``dice``: 1-2 clockwise, 3-4 across,
    5-6 counterclockwise; ``random``: one of the three, no die shown)."""
    if direction == "dice":
        die = game.rng.randint(1, 6)
        return _BY_DIE[(die - 1) // 2], [die]
    if direction == "random":
        return _BY_DIE[game.rng.randrange(3)], []
    return direction, []


# --- hands declared during play (declarations) ----------------------------------------------


def declarations(ruleset: Any) -> dict[str, list[tuple[str, Any]]]:
    """The enabled declarations looked for after each moment (``draw``, ``kong``), read
    once per game (empty: none, the engine's draws pay nothing for them)."""
    found: dict[str, list[tuple[str, Any]]] = {}
    for name, spec in (ruleset.get("declarations") or {}).items():
        if spec.get("enabled", True):
            for moment in spec.get("after") or ("draw",):
                found.setdefault(moment, []).append((name, spec))
    return found


def declare(game: Game, seat: int, tile: Tile, moment: str) -> None:
    """After ``seat`` drew or konged ``tile``: each declaration whose condition holds is
    declared (a ``declaration`` event) and paid by its payers."""
    found = game.declarations.get(moment)
    if not found:
        return
    p = game.players[seat]
    for name, spec in found:
        if spec.get("once") and (seat, name) in game.declared:
            continue
        base = choices.situation(game.ruleset, seat, game.dealer, game.n, p.keys, game.chosen)
        here = replace(base, melds=p.melds, tile=tile, players_in_game=frozenset(game._in_game()))
        if not spec["when"](here):
            continue
        game.declared.add((seat, name))
        title = display_name(spec.get("name"), name)
        payments = []
        for payer in sorted(spec["payers"](here)):
            if payer == seat:
                continue
            amount = int(spec["amount"](replace(here, payer=payer)))
            if amount:
                payments.append(Payment(payer, seat, amount, (f"{title} (seat {seat})",)))
        game._emit("declaration", seat=seat, name=name, tile=tile_name(tile))
        game._record(Settlement(game.n, (), tuple(payments)))
