"""The turn: the seat to move has drawn (or claimed) and wins, kongs or discards; others
then answer the discard in a claim round."""

from __future__ import annotations

from typing import Any

from handcore.tiles import Tile
from interpreter.engine import events
from interpreter.engine.actions import Action
from interpreter.engine.flow import lift_locks, start_turn
from interpreter.engine.kongs import self_kong
from interpreter.engine.legal import first_turn, turn_actions
from interpreter.engine.rounds import open_round
from interpreter.engine.state import EMPTY, Phase, Table
from interpreter.engine.wins import self_discarder, win

_DISCARD_CONTEXTS = {
    (after_kong, last): frozenset(
        name for name, flag in (("kong_discard", after_kong), ("last_tile", last)) if flag
    )
    for after_kong in (False, True)
    for last in (False, True)
}
"""A discard's context: after a kong (杠后打), of the last tile."""
_CLAIMS = ("win", "kong", "pung", "chow")


def _act(t: Table, seat: int, action: Action) -> None:
    if action.kind == "win":
        first = first_turn(t, seat)
        win(t, (seat,), (action.tile,), self_discarder(t), t.draw_ctx, "self",
            firsts={seat: first})  # fmt: skip
    elif action.kind == "kong":
        self_kong(t, seat, action.tile, action.option)
    else:
        discard(t, seat, action.tile)


TURN = Phase(turn_actions, _act)


def discard(t: Table, seat: int, tile: Tile) -> None:
    """``seat`` discards ``tile``; the others may answer it (a win only once the wall is
    empty)."""
    p = t.players[seat]
    p.add(tile, -1)
    p.discards.append(tile)
    p.turns += 1
    t.events.append(events.discard(seat, tile))
    lift_locks(t, seat, "discard")
    context = _DISCARD_CONTEXTS[t.after_kong, "last_tile" in t.draw_ctx]
    t.drawn = None
    t.draw_ctx = EMPTY
    t.after_kong = False
    kinds = _CLAIMS if t.wall.drawable else ("win",)
    open_round(t, tile, seat, context, kinds, "discard", _next_turn)


def _next_turn(t: Table, discarder: int, data: tuple[Any, ...]) -> None:
    """Nobody claimed the discard: the next seat still in draws."""
    order = t.orders[discarder]
    start_turn(t, order[0] if len(t.in_game_seats) > 1 else discarder)
