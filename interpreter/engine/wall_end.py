"""The last tiles offered in turn: the ``last_offer`` phase (take or pass) and
the ``last_turn`` phase (the taker wins, or exposes the tile for others to win on).  The
offer itself and the checks of a drawn end are steps in ``flow``."""

from __future__ import annotations

from typing import Any

from interpreter.engine import events
from interpreter.engine.actions import PASS, Action
from interpreter.engine.flow import draw, end, lift_locks, next_offer, offer, took_last
from interpreter.engine.flowers import replaced
from interpreter.engine.legal import win_or_pass
from interpreter.engine.rounds import open_joint_round, open_round
from interpreter.engine.state import Phase, Table
from interpreter.engine.wins import shown_wins, win

_LAST = frozenset(("last_tile",))


def _offer_actions(t: Table, seat: int) -> list[Action]:
    return [Action("take"), PASS]


def _act_offer(t: Table, seat: int, action: Action) -> None:
    """The seat offered the last tile takes it (or several, shown apart) or passes."""
    if action.kind == "pass":
        t.offer_passes += 1
        offer(t, (seat + 1) % t.n)
        return
    lift_locks(t, seat, "draw")
    t.draw_ctx = _LAST
    t.phase = "last_turn"
    if t.rules.tiles_per_taker > 1 and t.wall.drawable > 1:
        _take_last_tiles(t, seat)
        return
    draw(t, seat, True)


def _take_last_tiles(t: Table, seat: int) -> None:
    """The taker takes several last tiles at once, shown apart (``tiles_per_taker``)."""
    w = t.wall
    tiles = [w.draw_front() for _ in range(min(t.rules.tiles_per_taker, w.drawable))]
    for tile in tiles:
        t.events.append(events.draw(seat, tile, True))
    tiles = replaced(t, seat, tiles)
    if not tiles:  # flowers only, and no tile left to replace them
        end(t, "wall")
        return
    took_last(t, seat, tiles)
    t.kong_tiles = tiles
    t.drawn = None


def _act_last_turn(t: Table, seat: int, action: Action) -> None:
    tile = t.drawn
    if tile is None:
        _last_tiles_turn(t, seat, action)
        return
    if action.kind == "win":
        win(t, (seat,), (tile,), None, t.draw_ctx, "self")
        return
    p = t.players[seat]
    p.add(tile, -1)
    p.discards.append(tile)
    t.events.append(events.discard(seat, tile, exposed=True))
    lift_locks(t, seat, "discard")
    t.drawn = None
    open_round(t, tile, seat, _LAST, ("win",), "last", _after_last)


def _after_last(t: Table, discarder: int, data: tuple[Any, ...]) -> None:
    next_offer(t, discarder)


def _last_tiles_turn(t: Table, seat: int, action: Action) -> None:
    """The taker of several last tiles wins on those that win for him, or all are
    exposed and others may win on them in one round."""
    if action.kind == "win":
        tiles = tuple(shown_wins(t, seat))
        win(t, (seat,), tiles, None, t.draw_ctx, "last_tiles")
        return
    tiles = tuple(t.kong_tiles)
    t.kong_tiles = []
    p = t.players[seat]
    for tile in tiles:
        p.discards.append(tile)
        t.events.append(events.discard(seat, tile, exposed=True))
    open_joint_round(t, tiles, seat, _LAST, ("win",), "last", _after_last, (), owner_kongs=False)


LAST_OFFER = Phase(_offer_actions, _act_offer)
LAST_TURN = Phase(win_or_pass, _act_last_turn)
