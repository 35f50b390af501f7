"""Kongs made: robbable or not, the kong recorded (and its money paid), and the replacement
draw the ruleset names (from the tail, the front, a stack chosen by dice; one tile into
the hand, or several shown apart and discarded when unused: the ``kong_tiles`` phase).
Which kongs a seat may make is asked in ``legal``."""

from __future__ import annotations

from typing import Any

from dsl.errors import EvaluationError
from dsl.situation import HandMeld
from handcore.tiles import Tile
from interpreter.context import build_situation
from interpreter.engine import events
from interpreter.engine.actions import Action
from interpreter.engine.declarations import declare
from interpreter.engine.flow import end, lift_locks, start_turn, take_discard, took_last
from interpreter.engine.flowers import replaced
from interpreter.engine.legal import kong_context, replacement, win_or_pass
from interpreter.engine.payments import hand_record, record
from interpreter.engine.rounds import open_joint_round, open_round
from interpreter.engine.rules import Replacement
from interpreter.engine.state import EMPTY, Phase, Table
from interpreter.engine.wins import shown_discarder, shown_wins, win
from interpreter.hand_record import Kong
from interpreter.settle import settle

_LAST = frozenset(("last_tile",))
_CLAIMS = ("win", "kong", "pung", "chow")


def self_kong(t: Table, seat: int, tile: Tile, option: str) -> None:
    """``seat`` kongs in its turn: four concealed, or its pung with the fourth tile."""
    p = t.players[seat]
    r = t.rules
    t.claims_made = True
    t.facts.kong_made(tile, t.drawn)
    if p.counts[tile] == 4:
        kind = "concealed"
        p.add(tile, -4)
        p.melds = (*p.melds, HandMeld("kong", tile, True))
        robbable = r.rob_concealed
    else:
        kind = "added"
        p.add(tile, -1)
        index = next(i for i, m in enumerate(p.melds) if m.kind == "pung" and m.tile == tile)
        p.melds = (*p.melds[:index], HandMeld("kong", tile, False), *p.melds[index + 1 :])
        robbable = r.rob_added
    t.drawn = None
    t.draw_ctx = EMPTY
    shown = kind != "concealed" or r.concealed_shown
    t.events.append(events.kong(seat, kind, tile if shown else None))
    rob_or_complete(t, seat, tile, kind, None, option, robbable)


def claimed_kong(t: Table, seat: int, tile: Tile, provider: int, option: str) -> None:
    """``seat`` kongs with its three tiles on ``provider``'s discard (a claim)."""
    p = t.players[seat]
    p.add(tile, -3)
    p.melds = (*p.melds, HandMeld("kong", tile, False))
    t.events.append(events.kong(seat, "direct", tile, provider))
    rob_or_complete(t, seat, tile, "direct", provider, option, t.rules.rob_exposed)


def rob_or_complete(
    t: Table, seat: int, tile: Tile, kind: str, provider: int | None, option: str,
    robbable: bool,
) -> None:  # fmt: skip
    """Others may win on the kong's tile before its replacement is drawn: as 抢杠 when
    the replacement counts as a kong, else as a plain win on the kong-er's tile.  A kong
    on a discard is robbed only as 抢杠: as a plain win the discard itself was open."""
    context = kong_context(replacement(t, option), "robbing_kong")
    if robbable and (kind != "direct" or context):
        data = (seat, tile, option, kind, provider)
        open_round(t, tile, seat, context, ("win",), "rob", _unrobbed, data)
    else:
        complete_kong(t, seat, tile, kind, provider, option)


def _unrobbed(t: Table, discarder: int, data: tuple[Any, ...]) -> None:
    seat, tile, option, kind, provider = data
    complete_kong(t, seat, tile, kind, provider, option)


def complete_kong(
    t: Table, seat: int, tile: Tile, kind: str, provider: int | None, option: str
) -> None:
    """The kong of ``tile`` stands (nobody robbed it): the one place a kong is recorded, its
    money paid, the hands declared on it, then its replacement drawn."""
    t.round = None
    drawn = kind != "direct" and t.facts.kong_from_draw
    kong = Kong(seat, kind, provider, t.in_game_seats, from_draw=drawn)
    t.kongs.append(kong)
    if t.rules.kong_payments:
        record(t, settle(t.ruleset, hand_record(t, (), (), kongs=(kong,))))
    declare(t, seat, tile, "kong")
    _replace(t, seat, option, provider)


def _dice(t: Table, seat: int, rep: Replacement, stacks: int) -> int:
    """How many dice count the stack (``dice``); two are thrown at least, so that the same
    seed throws the same dice whatever the count."""
    if rep.dice is None:  # the replacement of a ruleset that names none
        return 2
    situation = build_situation(
        kong_seat=seat, stacks=stacks, dealer=t.dealer,
        players=t.n, options=t.rules.options,
    )  # fmt: skip
    thrown = int(rep.dice(situation))
    if not 1 <= thrown <= 6:
        error = EvaluationError(f"{thrown} dice: 1 to 6 are thrown", 0, len(rep.dice.text),
                                text=rep.dice.text)  # fmt: skip
        if rep.dice.origin is not None:
            error.problem = rep.dice.origin(error)
        raise error
    return thrown


def _replace(t: Table, seat: int, name: str, provider: int | None) -> None:
    rep = replacement(t, name)
    w = t.wall
    p = t.players[seat]
    if w.drawable == 0:
        end(t, "wall")
        return
    dice: list[int] = []
    tiles: list[Tile] = []
    takes_last = w.drawable <= t.rules.last_tiles
    last = t.rules.last_kong_draws and takes_last
    context = kong_context(rep, "kong_draw") | (_LAST if last else EMPTY)
    if rep.source == "front":
        tiles = [w.draw_front() for _ in range(min(rep.tiles, w.drawable))]
    elif rep.source == "tail":
        tiles = [w.draw_tail(rep.order) for _ in range(min(rep.tiles, w.drawable))]
    else:
        stacks = w.stacks_from_tail()
        chosen = next((k for k in reversed(stacks) if w.holds(k, rep.order)), None)
        thrown = _dice(t, seat, rep, len(stacks))
        for _ in range(20):
            rolls = [t.rng.randint(1, 6) for _ in range(max(2, thrown))]
            dice = rolls[:thrown]
            count = sum(dice)
            if count <= len(stacks) and w.holds(stacks[count - 1], rep.order):
                chosen = stacks[count - 1]
                break
            if rep.when_missing == "none":
                chosen = None
                break
            if rep.when_missing == "last_stack":
                break
        tiles = w.draw_stack(chosen, rep.order, rep.tiles) if chosen is not None else []
    t.events.append(events.replacement(seat, name, tiles, dice))
    tiles = replaced(t, seat, tiles)
    t.facts.replaced(provider)
    if takes_last:
        took_last(t, seat, tiles, counted=last)
    t.after_kong = rep.counts_as_kong
    t.kong_provider = provider
    t.kong_self_draw = rep.self_draw or provider is None
    t.kong_method = rep
    lift_locks(t, seat, "draw")
    if rep.locks_hand:
        p.locked = True
    t.current = seat
    if not tiles:
        start_turn(t, t.orders[seat][0])
    elif rep.into_hand:
        p.add(tiles[0])
        declare(t, seat, tiles[0], "draw")
        t.drawn = tiles[0]
        t.draw_ctx = context
        t.phase = "turn"
    else:
        t.kong_tiles = list(tiles)
        t.drawn = None
        t.draw_ctx = context
        t.phase = "kong_tiles"


# --- tiles shown apart (the kong_tiles phase) -------------------------------------------------


def _act_kong_tiles(t: Table, seat: int, action: Action) -> None:
    """The kong's maker wins on the tiles shown apart that win for it, or they are
    discarded, one by one or together, for others to answer."""
    if action.kind == "win":
        tiles = tuple(shown_wins(t, seat))
        win(t, (seat,), tiles, shown_discarder(t), t.draw_ctx, "kong_tiles")
        return
    tiles = list(t.kong_tiles)
    if t.kong_method is not None and t.kong_method.joint_round:
        _kong_tiles_together(t, seat, tiles)
        return
    _kong_tile_discards(t, seat, tiles, 0)


KONG_TILES = Phase(win_or_pass, _act_kong_tiles)


def _kong_tile_discards(t: Table, seat: int, tiles: list[Tile], index: int) -> None:
    """Unused kong tiles are discarded one by one; others may answer each."""
    if index >= len(tiles):
        t.kong_tiles = []
        t.after_kong = False
        start_turn(t, t.orders[seat][0])
        return
    tile = tiles[index]
    t.kong_tiles.remove(tile)
    t.players[seat].discards.append(tile)
    t.events.append(events.discard(seat, tile, claimable=True))
    rep = t.kong_method
    claimable = rep is not None and rep.unused_claimable and t.wall.drawable > 0
    kinds = _CLAIMS if claimable else ("win",)
    t.drawn = None
    open_round(t, tile, seat, kong_context(rep, "kong_discard"), kinds, "kong_tile",
               _next_kong_tile, (seat, tiles, index))  # fmt: skip


def _next_kong_tile(t: Table, discarder: int, data: tuple[Any, ...]) -> None:
    seat, tiles, index = data
    _kong_tile_discards(t, seat, tiles, index + 1)


def _kong_tiles_together(t: Table, seat: int, tiles: list[Tile]) -> None:
    """Unused kong tiles are discarded together and answered in one joint round
    (``unused_round: joint``)."""
    p = t.players[seat]
    for tile in tiles:
        p.discards.append(tile)
        t.events.append(events.discard(seat, tile, claimable=True))
    t.kong_tiles = []
    t.drawn = None
    rep = t.kong_method
    assert rep is not None
    live = t.wall.drawable > 0
    kinds = _CLAIMS if rep.unused_claimable and live else ("win",)
    data = (seat, tiles, len(tiles) - 1)  # no tile left to answer after this round
    open_joint_round(t, tuple(tiles), seat, kong_context(rep, "kong_discard"), kinds,
                     "kong_tile", _next_kong_tile, data, rep.kong_again and live)  # fmt: skip


def kong_again(t: Table, seat: int, action: Action) -> None:
    """The owner takes one discarded kong tile back and kongs with it as with a draw;
    the other tiles stay discarded."""
    tile = action.tile
    take_discard(t, seat, tile)
    t.events.append(events.claim(seat, "kong", tile, seat, taken=tile))
    t.round = None
    t.players[seat].add(tile)
    self_kong(t, seat, tile, action.option)
