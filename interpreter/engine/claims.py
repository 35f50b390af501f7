"""The claim phase: each seat a round asks answers in turn (nearest first), the answers
held until all are in; then the round is resolved: wins first (all, or the nearest), else
the kong, pung or chow the ruleset ranks first, else play goes on as the round's opener
said (``Round.after``).  Rounds are opened in ``rounds``."""

from __future__ import annotations

from dsl.situation import HandMeld
from interpreter.engine import events
from interpreter.engine.actions import Action
from interpreter.engine.flow import lift_locks, rest_of_kong_tiles, take_discard
from interpreter.engine.kongs import claimed_kong, kong_again
from interpreter.engine.state import EMPTY, Phase, Round, Table
from interpreter.engine.wins import win

MELD_KINDS = ("kong", "pung", "chow")


def _options(t: Table, seat: int) -> list[Action]:
    assert t.round is not None
    return t.round.options[seat]


def _answer(t: Table, seat: int, action: Action) -> None:
    """``seat``'s answer is held; a win passed sets its missed-win lock (过水)."""
    rnd = t.round
    assert rnd is not None
    rnd.choices[seat] = action
    rnd.queue.pop(0)
    if seat in rnd.values and action.kind != "win" and t.rules.missed_win is not None:
        p = t.players[seat]
        p.lock_tiles.update(rnd.win_tiles.get(seat) or (rnd.tile,))
        p.lock_value = max(p.lock_value, rnd.values[seat])
    if not rnd.queue:
        _resolve(t, rnd)


CLAIM = Phase(_options, _answer)


def _resolve(t: Table, rnd: Round) -> None:
    chosen = rnd.choices
    if not chosen:
        rnd.after(t, rnd.discarder, rnd.data)
        return
    order = t.orders[rnd.discarder]
    winners = [s for s in order if s in chosen and chosen[s].kind == "win"]
    if winners:
        if t.rules.multiple_winners == "nearest":
            winners = winners[:1]
        if not rnd.tiles:
            win(t, tuple(winners), (rnd.tile,), rnd.discarder, rnd.context, rnd.then)
            return
        each = {s: rnd.win_tiles[s] for s in winners}
        tiles = tuple(tile for tile in rnd.tiles if any(tile in won for won in each.values()))
        win(t, tuple(winners), tiles, rnd.discarder, rnd.context, rnd.then, seat_tiles=each)
        return
    if rnd.discarder in chosen:  # the kong's owner, nearest to itself (kong_again)
        order = [rnd.discarder, *order]
    seat = _first_meld_claim(t, order, chosen)
    if seat == rnd.discarder:
        kong_again(t, seat, chosen[seat])
        return
    if seat is not None:
        _claim(t, seat, chosen[seat], rnd)
        return
    rnd.after(t, rnd.discarder, rnd.data)


def _first_meld_claim(t: Table, order: list[int], chosen: dict[int, Action]) -> int | None:
    """The seat whose kong, pung or chow is made: the ruleset's priority, then the
    nearest seat."""
    ranks = t.rules.claim_rank
    best: tuple[int, int] | None = None
    found = None
    for i, seat in enumerate(order):
        action = chosen.get(seat)
        if action is not None and action.kind in MELD_KINDS:
            rank = (ranks.get(action.kind, len(ranks)), i)
            if best is None or rank < best:
                best, found = rank, seat
    return found


def _claim(t: Table, seat: int, action: Action, rnd: Round) -> None:
    """``seat`` takes the tile for its pung, chow or kong, and plays on."""
    tile = rnd.claimed(action)
    take_discard(t, rnd.discarder, tile)
    rest_of_kong_tiles(t, rnd)
    p = t.players[seat]
    t.claims_made = True
    lift_locks(t, seat, "claim")
    t.facts.claimed()
    t.events.append(events.claim(seat, action.kind, action.tile, rnd.discarder,
                                 taken=tile if rnd.tiles else None))  # fmt: skip
    t.round = None
    t.current = seat
    t.drawn = None
    t.draw_ctx = EMPTY
    t.after_kong = False
    if action.kind == "pung":
        p.add(tile, -2)
        p.melds = (*p.melds, HandMeld("pung", tile, False))
    elif action.kind == "chow":
        for other in (action.tile, action.tile + 1, action.tile + 2):
            if other != tile:
                p.add(other, -1)
        p.melds = (*p.melds, HandMeld("chow", action.tile, False))
    else:
        claimed_kong(t, seat, tile, rnd.discarder, action.option)
        return
    t.phase = "turn"
