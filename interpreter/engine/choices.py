"""The choice phases: every seat chooses at once, each unseen by the others until all have
chosen (the ruleset's ``choices``: 换三张, 定缺, 飘 ...), before the deal or after it.

A choice's phase and its actions are named after it (``Action("piao", option="2")``); its
handlers are ``CHOICE``, whatever its name.  Seats are asked in turn from the dealer, each
choice held unseen (``t.held``); once all have chosen, the values are revealed together and
kept in ``t.chosen`` (read as ``choice.NAME(seat)``), then the choice's effect is carried
out: nothing, the tiles passed (``exchange``), or each seat's void suit set (``void``).
The choices of one moment carry what play does after them (``Choosing.then``: the deal, or
the dealer's first turn), so nothing here calls up into the deal."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dsl.situation import Situation
from handcore.tiles import Tile
from interpreter import choices
from interpreter.engine import events
from interpreter.engine.actions import Action
from interpreter.engine.flow import set_phase
from interpreter.engine.state import Choosing, Phase, Table, fmt

_BY_DIE = ("clockwise", "across", "counterclockwise")


def start_choices(t: Table, at: str, then: Callable[[Table], None]) -> None:
    """Ask the choices made at ``at`` (``before_deal``, ``after_deal``) in order, then go on
    with ``then``."""
    queue = list(t.rules.choices[at])
    if not queue:
        then(t)
        return
    t.choosing = Choosing(queue, then)
    _next(t)


def _base(t: Table, choice: choices.Choice, seat: int) -> Situation:
    """What the choice's expressions see for ``seat`` (no tiles before the deal)."""
    if choice.at != "after_deal":
        return choices.situation(t.ruleset, seat, t.dealer, t.n, None, t.chosen)
    keys = t.players[seat].keys
    held = t.opening_held
    return choices.situation(t.ruleset, seat, t.dealer, t.n, keys, t.chosen, opening_winners=held)


def _next(t: Table) -> None:
    """Ask the next choice of the moment, revealing at once one that asks nobody; after the
    last, go on."""
    state = t.choosing
    assert state is not None
    while state.queue:
        choice = state.current = state.queue.pop(0)
        order = [(t.dealer + i) % t.n for i in range(t.n)]
        when = choice.when
        state.asked = [s for s in order if when is None or when(_base(t, choice, s))]
        state.offered = {}
        if state.asked:
            set_phase(t, choice.name, state.asked[0])
            return
        _reveal(t, {})
    t.choosing = None
    state.then(t)


def legal(t: Table, seat: int) -> list[Action]:
    """What ``seat`` may choose now."""
    state = t.choosing
    assert state is not None and state.current is not None
    choice = state.current
    offered = state.offered.get(seat)
    if offered is None:
        hand = t.players[seat].hand()
        base = _base(t, choice, seat)
        offered = state.offered[seat] = choices.options(choice, t.ruleset, base, hand)
    return [Action(choice.name, option=text) for text in offered]


def _choose(t: Table, seat: int, action: Action) -> None:
    """Hold ``seat``'s choice unseen; once every asked seat has chosen, reveal them all."""
    state = t.choosing
    assert state is not None
    t.held[seat] = action
    place = state.asked.index(seat) + 1
    if place < len(state.asked):
        t.current = state.asked[place]
        return
    held, t.held = t.held, {}
    _reveal(t, {s: state.offered[s][a.option] for s, a in held.items()})
    _next(t)


CHOICE = Phase(legal, _choose)
"""The handlers of every choice's phase."""


def _reveal(t: Table, made: dict[int, Any]) -> None:
    state = t.choosing
    assert state is not None and state.current is not None
    choice = state.current
    values = tuple(
        made[s] if s in made else choices.default(choice, _base(t, choice, s)) for s in range(t.n)
    )
    t.chosen = {**t.chosen, choice.name: values}
    if choice.effect == "void":
        for s, suit in enumerate(values):
            t.players[s].void = suit
        t.events.append(events.void([choices.text(choice, v) for v in values]))
    elif choice.effect == "exchange":
        _exchange(t, choice, values)
    else:
        shown = [choices.json_value(choice, v) for v in values]
        t.events.append(events.choice(choice.name, shown))


def _exchange(t: Table, choice: choices.Choice, given: tuple[Any, ...]) -> None:
    """Each seat's chosen tiles pass to another seat, all in one direction."""
    n = t.n
    for s, tiles in enumerate(given):
        for tile in tiles:
            t.players[s].add(tile, -1)
    direction, dice = _direction(t, choice.direction)
    shift = {"counterclockwise": 1, "clockwise": n - 1, "across": n // 2 or 1}[direction]
    received: dict[int, tuple[Tile, ...]] = {}
    for s in range(n):
        to = (s + shift) % n
        received[to] = given[s]
        for tile in given[s]:
            t.players[to].add(tile)
    if t.drawn is not None and not t.players[t.dealer].counts[t.drawn]:
        t.drawn = max(received[t.dealer])  # the dealer's 14th tile was given away
    t.exchanged = {s: (list(given[s]), list(received[s])) for s in range(n)}
    t.events.append(events.exchange(
        direction, dice, [fmt(sorted(given[s])) for s in range(n)],
        [fmt(sorted(received[s])) for s in range(n)], [p.notation() for p in t.players],
    ))  # fmt: skip


def _direction(t: Table, direction: str) -> tuple[str, list[int]]:
    """The direction, and the die rolled for it (``dice``: 1-2 clockwise, 3-4 across,
    5-6 counterclockwise; ``random``: one of the three, no die shown)."""
    if direction == "dice":
        die = t.rng.randint(1, 6)
        return _BY_DIE[(die - 1) // 2], [die]
    if direction == "random":
        return _BY_DIE[t.rng.randrange(3)], []
    return direction, []
