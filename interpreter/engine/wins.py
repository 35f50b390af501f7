"""Does a hand win, for how much, and what happens when it does: the win is settled by
``interpreter.settle`` from a :class:`~interpreter.hand_record.HandRecord` (``payments``),
birds are turned, payments recorded, the winning tiles set apart, and play goes on or
ends (``win``, the one place a win is carried out)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from dsl.situation import HandMeld, Situation
from handcore import shapes
from handcore.tiles import Tile
from interpreter import prefilter
from interpreter.context import build_situation
from interpreter.engine import events
from interpreter.engine.flow import (
    end,
    leave,
    next_offer,
    rest_of_kong_tiles,
    start_turn,
    take_discard,
)
from interpreter.engine.payments import hand_record, record
from interpreter.engine.rules import _NOWHERE
from interpreter.engine.state import EMPTY, Table
from interpreter.hand_record import Win
from interpreter.settle import settle


def must_win(t: Table) -> bool:
    """In the last ``must_win_last`` tiles a player who can win must."""
    return t.rules.must_win_last > 0 and t.wall.drawable < t.rules.must_win_last


def situation(
    t: Table, seat: int, keys: tuple[int, ...], melds: tuple[HandMeld, ...], tile: Tile,
    discarder: int | None, context: frozenset[str], first: bool, seen: tuple[Tile, ...] = (),
) -> Situation:  # fmt: skip
    return build_situation(
        keys=keys,
        melds=melds,
        win_tile=tile,
        self_draw=discarder is None,
        kong_draw="kong_draw" in context,
        kong_discard="kong_discard" in context,
        robbing_kong="robbing_kong" in context,
        last_tile="last_tile" in context,
        first_turn=first,
        winner=seat,
        discarder=discarder,
        dealer=t.dealer,
        dealers=t.dealers,
        players=t.n,
        players_in_game=t.in_game_seats,
        winners=frozenset((seat,)),
        options=t.rules.options,
        visible=Counter(seen),
        choices=t.chosen,
        tileset=t.rules.tileset,
    )


def value(
    t: Table, seat: int, tile: Tile, discarder: int | None, context: frozenset[str],
    first: bool, *, in_hand: bool,
) -> int | None:  # fmt: skip
    """The value of the win ``seat`` would make on ``tile``, or None.

    ``in_hand``: the tile was drawn and is among the seat's concealed tiles; else it
    would join them.  A tile that neither completes the hand's shape nor may make a
    shape-free hand type is ruled out first, by an answer kept while the hand is
    unchanged (``Rules.chances``); a hand that is neither complete nor seven pairs next
    by the cheap necessary conditions of the ruleset's shape-free hand types
    (``prefilter``).  What is left is worked out once per game and remembered.
    """
    p = t.players[seat]
    before = shapes.add_tile(p.keys, tile, -1) if in_hand else p.keys
    waits, unshaped = p.chances(before, t.rules)
    shaped = waits >> tile & 1 == 1
    if not shaped and not unshaped:
        return None
    keys = p.keys if in_hand else shapes.add_tile(before, tile)
    seen = visible(t, (tile,), not in_hand) if t.facts.reads_visible else ()
    return value_of(t, seat, keys, p.melds, tile, discarder, context, first, seen, shaped)


def value_of(
    t: Table, seat: int, keys: tuple[int, ...], melds: tuple[HandMeld, ...], tile: Tile,
    discarder: int | None, context: frozenset[str], first: bool, seen: tuple[Tile, ...] = (),
    shaped: bool | None = None,
) -> int | None:  # fmt: skip
    """The value of ``seat`` winning with concealed ``keys`` (``tile`` among them) and
    ``melds``, or None; ``value`` without its first test, for a hand not yet held.
    ``seen``: the tiles face up (``visible``); ``shaped``: ``shape_ok`` of the hand when
    already known."""
    r = t.rules
    p = t.players[seat]
    if shaped is None:
        shaped = r.shape_ok(keys, len(melds))
    if not shaped and not r.shape_free:
        return None
    if not shaped and r.unshaped_need is not None:
        flags = (discarder is None, *prefilter.context_flags(context), first, False)
        if not r.unshaped_need(prefilter.probe_of(keys, melds, flags)):
            return None
    key = (seat, keys, melds, tile, discarder, context, first, p.void, t.in_game_seats, seen)
    memo = t.win_values
    if key in memo:
        return memo[key]
    found = situation(t, seat, keys, melds, tile, discarder, context, first, seen)
    result = memo[key] = r.win_value(found, p.void, shaped)
    return result


def _face_up(t: Table) -> Counter[Tile]:
    """Every tile face up on the table: discards, claimed melds and kongs (concealed ones
    where they are shown), kong tiles shown apart."""
    shown = t.rules.concealed_shown
    found: Counter[Tile] = Counter(t.kong_tiles)
    if t.indicator is not None:
        found[t.indicator] += 1
    for p in t.players:
        found.update(p.discards)
        for m in p.melds:
            if shown or not m.concealed:
                found.update(m.tiles)
    return found


def visible(t: Table, tiles: Iterable[Tile], winning_face_up: bool) -> tuple[Tile, ...]:
    """The face-up tiles as a win on ``tiles`` sees them (``visible``, 绝张): the winning
    tiles, when they are themselves face up (a discard, a robbed kong's tile, kong tiles),
    left out once each.  Empty unless the ruleset reads ``visible``."""
    if not t.facts.reads_visible:
        return ()
    found = _face_up(t)
    if winning_face_up:
        found.subtract(tiles)
    return tuple(sorted(found.elements()))


def self_discarder(t: Table) -> int | None:
    """Who pays as discarder for a win on the tile just drawn: the player who gave the
    kong when it is a replacement not counted as a self-draw (whether or not the
    replacement counts as a kong), else nobody."""
    return None if t.kong_self_draw else t.kong_provider


def shown_discarder(t: Table) -> int | None:
    """Who pays as discarder for a win on tiles shown apart: nobody for the last tiles or a
    replacement counted as a self-draw, else the player who gave the kong."""
    if t.phase == "last_turn" or t.kong_self_draw:
        return None
    return t.kong_provider


def shown_wins(t: Table, seat: int) -> list[Tile]:
    """The tiles shown apart (kong tiles, last tiles taken together) that win for ``seat``."""
    discarder = shown_discarder(t)
    ctx = t.draw_ctx
    return [
        tile
        for tile in t.kong_tiles
        if value(t, seat, tile, discarder, ctx, False, in_hand=False) is not None
    ]


def _birds(t: Table, first: Win, discarder: int | None, context: frozenset[str], ends: bool,
           ) -> tuple[Tile, ...]:  # fmt: skip
    count_expr = t.rules.bird_count
    if count_expr is None:
        return ()
    win_tile = first.win_tiles[0]
    base = build_situation(
        dealer=t.dealer, players=t.n,
        options=t.rules.options, winner=first.seat, discarder=discarder,
        last_tile="last_tile" in context, win_tile=win_tile,
        tiles=(*first.concealed, win_tile), melds=first.melds, tileset=t.rules.tileset,
    )  # fmt: skip
    count = int(count_expr(base))
    if count <= 0:
        return ()
    from_last = t.rules.birds_from_last
    if "last_tile" in context and t.last_drawn and (from_last is None or from_last(base)):
        return tuple(t.last_drawn[-max(1, t.rules.last_tiles) :])
    w = t.wall
    if ends:
        tiles = [w.draw_front() for _ in range(min(count, w.left))]
        t.birds_taken.extend(tiles)
    else:  # play goes on: the birds are looked at, not taken
        tiles = w.peek_front(count)
    return tuple(tiles)


def win(
    t: Table, winners: tuple[int, ...], tiles: tuple[Tile, ...], discarder: int | None,
    context: frozenset[str], source: str, firsts: dict[int, bool] | None = None,
    seat_tiles: dict[int, tuple[Tile, ...]] | None = None,
) -> None:  # fmt: skip
    """``winners`` win on ``tiles``; ``source`` says where the tiles are: ``self`` (in the
    winner's hand), ``kong_tiles`` / ``last_tiles`` (shown apart), ``rob`` (a kong's tile),
    else a claim round's discard.  ``seat_tiles``: in a joint round, the tiles each
    winner wins on (``tiles`` holds them all)."""
    r = t.rules
    rnd = t.round
    if rnd is not None:
        rest_of_kong_tiles(t, rnd)
    wins = []
    for seat in winners:
        p = t.players[seat]
        concealed = p.hand()
        if source == "self":
            for tile in tiles:
                concealed.remove(tile)
        ctx = set(context)
        if (firsts and firsts.get(seat)) or (
            rnd is not None
            and rnd.then == "discard"
            and not t.claims_made
            and p.turns == 0
            and (t.players[rnd.discarder].turns <= 1)
        ):
            ctx.add("first_turn")
        wins.append(
            Win(
                seat,
                tuple(concealed),
                p.melds,
                seat_tiles[seat] if seat_tiles else tiles,
                discarder,
                frozenset(ctx),
                _NOWHERE,
            )
        )
    leave_after, ends = r.after_win(build_situation(
        dealer=t.dealer, players=t.n,
        options=r.options, winner=winners[0], discarder=discarder,
        winners=frozenset(winners), players_in_game=t.in_game_seats,
    ))  # fmt: skip
    birds = _birds(t, wins[0], discarder, context, ends)
    # On the discard that followed a kong, a payment rule may take up its money.
    last_kong = tuple(k for k in t.kongs[-1:] if "kong_discard" in context and k.seat == discarder)
    t.facts.won()
    seen = visible(t, tiles, source != "self")
    hand = hand_record(t, tuple(wins), birds, paid_kongs=last_kong, seen=seen)
    settlement = settle(t.ruleset, hand)
    if last_kong and settlement.taken:  # its money has moved on: nothing left to take up
        t.kongs.pop()
    apart = None
    if seat_tiles and any(won != tiles for won in seat_tiles.values()):
        apart = {s: seat_tiles[s] for s in winners}
    t.events.append(events.win(
        winners, tiles, context, settlement.wins_json(), discarder, apart
    ))  # fmt: skip
    if birds:
        t.events.append(events.bird(birds, settlement.bird_hits))
    record(t, settlement)
    t.win_events.append((winners, discarder))
    # Where the winning tiles go: set apart with the (nearest) winner.
    first = t.players[winners[0]]
    if source == "self":
        for tile in tiles:
            first.add(tile, -1)
    elif source in ("kong_tiles", "last_tiles"):
        for tile in tiles:
            t.kong_tiles.remove(tile)
        for tile in list(t.kong_tiles):
            t.kong_tiles.remove(tile)
            first.discards.append(tile)
            t.events.append(events.discard(winners[0], tile, claimable=False))
    elif source == "rob":
        assert rnd is not None
        seat, tile = rnd.data[:2]
        robbed = t.players[seat]
        index = next(i for i, m in enumerate(robbed.melds) if m.kind == "kong" and m.tile == tile)
        before, after = robbed.melds[:index], robbed.melds[index + 1 :]
        if robbed.melds[index].concealed:
            robbed.melds = (*before, *after)
            robbed.add(tile, 3)
        else:
            robbed.melds = (*before, HandMeld("pung", tile, False), *after)
    else:
        assert discarder is not None
        for tile in tiles:
            take_discard(t, discarder, tile)
    if seat_tiles:  # each tile goes to the nearest seat that won on it
        for tile in tiles:
            t.players[next(s for s in winners if tile in seat_tiles[s])].won.append(tile)
    else:
        first.won.extend(tiles)
    t.round = None
    t.kong_tiles = []
    t.drawn = None
    t.draw_ctx = EMPTY
    t.after_kong = False
    if ends:
        end(t, "one_left" if leave_after else "win")
        return
    if leave_after:
        leave(t, winners)
    last = winners[-1]
    if source in ("last", "last_tiles"):
        next_offer(t, last)
        return
    order = t.orders[last]
    start_turn(t, order[0] if order else last)
