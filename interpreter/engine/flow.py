"""The moves of play every part leads to: a phase entered, a tile drawn from the front
(the last ones too), the next turn, the last tiles offered in turn, seats leaving, and the
end of the hand (the ruleset's payment rules at the wall's end and the hand's end, the next
dealer).

Nothing here asks a seat anything: these are the steps the phase handlers take between
decisions."""

from __future__ import annotations

from collections.abc import Sequence

from handcore import shapes
from handcore.tiles import Tile
from interpreter.context import build_situation
from interpreter.engine import events
from interpreter.engine.declarations import declare
from interpreter.engine.facts import dealer_dice, next_dealer_seat
from interpreter.engine.flowers import set_aside
from interpreter.engine.payments import hand_record, record
from interpreter.engine.rules import _NOWHERE
from interpreter.engine.state import EMPTY, Round, Table, seating
from interpreter.hand_record import Unfinished
from interpreter.ruleset_memo import ruleset_memo
from interpreter.settle import settle, settle_hand_end

_LAST = frozenset(("last_tile",))


def set_phase(t: Table, phase: str, seat: int) -> None:
    """Enter ``phase`` with ``seat`` to move, and say so in the log."""
    t.phase = phase
    t.current = seat
    t.events.append(events.phase(phase, seat))


def draw(t: Table, seat: int, last: bool) -> Tile | None:
    """``seat`` draws the front tile into its hand (``last``: one of the last tiles):
    the one place a tile is drawn in turn.  A flower is set aside and replaced; one the
    empty wall cannot replace ends the hand (None)."""
    tile: Tile | None = t.wall.draw_front()
    drawn = events.draw(seat, tile, last)
    if tile >= t.rules.flower_from:
        t.events.append(drawn)
        tile = set_aside(t, seat, tile)
        if tile is None:
            end(t, "wall")
            return None
        drawn = None
    p = t.players[seat]
    p.add(tile)
    t.facts.drew(seat, last)
    if last:
        took_last(t, seat, (tile,))
    lift_locks(t, seat, "draw")
    t.drawn = tile
    if drawn is not None:
        t.events.append(drawn)
    declare(t, seat, tile, "draw")
    return tile


def took_last(t: Table, seat: int, tiles: Sequence[Tile], counted: bool = True) -> None:
    """``seat`` took ``tiles``, among the last ones: in turn, several at once, or as
    a kong's replacement (``counted``: they count as last tiles, which a replacement's do
    only under ``wall_end.kong_draws``).  The one place they are noted: birds on the last
    tile read the counted ones, ``last_tile_taker`` any."""
    if counted:
        t.last_drawn.extend(tiles)
    if tiles:
        t.facts.took_last(seat)


def lift_locks(t: Table, seat: int, moment: str) -> None:
    """``seat`` draws, claims or discards (``moment``): the missed-win locks that
    ``restrictions.missed_win_until`` lifts then are lifted."""
    until = t.rules.missed_win_until
    if moment in _LIFTS[until]:
        t.players[seat].clear_lock()
    elif until == "dealer_discard" and moment == "discard" and seat == t.dealer:
        for p in t.players:
            p.clear_lock()


_LIFTS = {
    "own_draw": ("draw",),
    "own_action": ("draw", "claim"),
    "own_discard": ("discard",),
    "dealer_discard": (),
}
"""The moments of a player's own that lift its lock, by ``missed_win_until``."""


def start_turn(t: Table, seat: int) -> None:
    """``seat`` draws from the front (or is offered the last tile) and must act."""
    r = t.rules
    w = t.wall
    t.round = None
    if w.drawable == 0:
        end(t, "wall")
        return
    if r.roams and w.drawable <= r.last_tiles:
        t.offer_passes = 0
        offer(t, seat)
        return
    last = r.last_tiles > 0 and w.drawable <= r.last_tiles
    t.current = seat
    t.phase = "turn"
    t.draw_ctx = _LAST if last else EMPTY
    t.after_kong = False
    t.kong_self_draw = True  # a front draw: nobody pays as for a kong's replacement
    draw(t, seat, last)


def leave(t: Table, seats: tuple[int, ...]) -> None:
    """``seats`` leave the hand (they won and play goes on without them)."""
    for s in seats:
        t.players[s].in_game = False
    seating(t)


def take_discard(t: Table, seat: int, tile: Tile) -> None:
    """A claimed or won ``tile`` leaves ``seat``'s discards (the latest copy)."""
    discards = t.players[seat].discards
    for i in range(len(discards) - 1, -1, -1):
        if discards[i] == tile:
            del discards[i]
            return
    raise AssertionError("claimed tile not among the discards")


def rest_of_kong_tiles(t: Table, rnd: Round) -> None:
    """A claim or win on one kong tile: the others go to the discards unclaimed."""
    if rnd.then != "kong_tile":
        return
    seat, tiles, index = rnd.data
    for tile in tiles[index + 1 :]:
        t.kong_tiles.remove(tile)
        t.players[seat].discards.append(tile)
        t.events.append(events.discard(seat, tile, claimable=False))


# --- the last tiles offered in turn -------------------------------------------------------


def _eligible(t: Table, seat: int) -> bool:
    p = t.players[seat]
    if not p.in_game:
        return False
    if t.rules.offered_to == "ready":
        keys, wilds = shapes.without_wilds(p.keys, t.rules.tileset)
        return shapes.shanten(keys, len(p.melds), "quads" if not p.melds else None, wilds) == 0
    return True


def offer(t: Table, seat: int) -> None:
    """The last tile is offered to ``seat``, or the next seat that may take it; the hand
    ends when every one of them has passed."""
    eligible = [s for s in range(t.n) if _eligible(t, s)]
    if not eligible or t.offer_passes >= len(eligible):
        end(t, "wall")
        return
    while not _eligible(t, seat):
        seat = (seat + 1) % t.n
    t.facts.offered(seat)
    t.round = None
    t.drawn = None
    set_phase(t, "last_offer", seat)


def next_offer(t: Table, taker: int) -> None:
    """After ``taker``'s last tile: the next one to the next seat, or the end."""
    if t.wall.drawable == 0:
        end(t, "wall")
        return
    t.offer_passes = 0
    offer(t, t.orders[taker][0] if len(t.in_game_seats) > 1 else taker)


# --- the end ---------------------------------------------------------------------------------


def end(t: Table, reason: str) -> None:
    """The hand is over: payments kept for the end, the payment rules at the wall's end
    (a drawn end) and at the hand's end, the next dealer, the ``end`` event."""
    if t.opening_due is not None:
        record(t, t.opening_due)
        t.opening_due = None
    if reason == "wall":
        _end_of_wall(t)
    if t.rules.hand_end:
        won = frozenset(s for seats, _ in t.win_events for s in seats)
        record(t, settle_hand_end(t.ruleset, hand_record(t, (), ()), won))
    t.phase = "over"
    t.round = None
    t.reason = reason
    t.next_dealer, t.next_dealers = _next_dealer(t)
    t.events.append(events.end(
        reason, list(t.deltas), [s for seats, _ in t.win_events for s in seats], t.next_dealer,
        [p.notation() for p in t.players], t.wall.drawable, t.next_dealers,
    ))  # fmt: skip


def _next_dealer(t: Table) -> tuple[int, frozenset[int]]:
    """``dealer.next`` and the seats dealing with it (``dealer.also``), worked out once per
    ruleset for each table they read."""
    expr = t.rules.next_dealer
    if expr is None:
        return t.dealer, frozenset({t.dealer})
    winners: tuple[int, ...] = t.win_events[0][0] if t.win_events else ()
    discarder = t.win_events[0][1] if t.win_events else None
    memo = ruleset_memo(t.ruleset, "next dealer")
    seats = t.facts.for_dealer()
    first = t.facts.first_dealer
    dice = dealer_dice(t.ruleset, expr, t.rng)
    key = (t.dealer, winners, discarder, first, dice, *seats.values())
    if key not in memo:
        situation = build_situation(
            dealer=t.dealer, players=t.n,
            options=t.rules.options, winners=frozenset(winners),
            winner=winners[0] if winners else t.dealer, discarder=discarder,
            self_draw=bool(winners) and discarder is None, first_dealer=first, dice=dice,
            **seats,
        )  # fmt: skip
        seat = next_dealer_seat(int(expr(situation)), t.n)
        also = t.rules.also_dealers
        memo[key] = seat, frozenset({seat, *(also(situation) if also is not None else ())})
    return memo[key]


def _end_of_wall(t: Table) -> None:
    """The wall ran out with players still in: the ruleset's payment rules at ``wall_end``.

    The kongs of the players still in go with it as already paid (by the seats in the
    hand when each was made, winners since included), for rules that take up their
    money; a kong whose money a rule took up at a win is no longer among them.
    """
    if not t.rules.end_checks:
        return
    still_in = t.in_game_seats
    unfinished = tuple(
        Unfinished(s, tuple(t.players[s].hand()), t.players[s].melds, _NOWHERE)
        for s in sorted(still_in)
    )
    kongs = tuple(k for k in t.kongs if k.seat in still_in)
    record(t, settle(t.ruleset, hand_record(t, (), (), (), unfinished, kongs)))
