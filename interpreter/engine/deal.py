"""The deal.

``deal`` deals the tiles, pays the opening hands found (起手胡), then asks the ruleset's
choices made after the deal (``choices``: 换三张, 定缺 ...) before the dealer's first turn.
Where a seat decides whether to declare its opening hands (``opening_hands.declared`` reads
a choice), they are judged after those choices instead, on the tiles as dealt."""

from __future__ import annotations

from random import Random

from handcore.tiles import RANKS, Tile, TileSet
from interpreter import opening
from interpreter.engine import events
from interpreter.engine.choices import start_choices
from interpreter.engine.flow import set_phase
from interpreter.engine.flowers import set_aside
from interpreter.engine.payments import record
from interpreter.engine.rules import Rules
from interpreter.engine.state import Table
from interpreter.settle import Settlement, settle_opening


def deal_order(rules: Rules, dealer: int) -> list[int]:
    """The seat that receives each dealt tile, in order: rounds of four from the dealer, then
    single tiles (the dealer's last one is its 14th)."""
    n = rules.players
    need = [rules.dealer_tiles if s == dealer else rules.other_tiles for s in range(n)]
    seats = []
    while any(need):
        for s in [(dealer + i) % n for i in range(n)]:
            take = 4 if min(x for x in need if x) >= 4 else 1
            for _ in range(min(take, need[s])):
                seats.append(s)
                need[s] -= 1
    return seats


_ORDERS: dict[tuple[int, int, int, int], list[int]] = {}


def _order(rules: Rules, dealer: int) -> list[int]:
    key = (rules.players, rules.dealer_tiles, rules.other_tiles, dealer)
    found = _ORDERS.get(key)
    if found is None:
        found = _ORDERS[key] = deal_order(rules, dealer)
    return found


def deal(t: Table) -> None:
    """Deal, judge the opening hands, and enter the first phase of play."""
    received: list[list[Tile]] = [[] for _ in t.players]
    order = _order(t.rules, t.dealer)
    for s, tile in zip(order, t.wall.deal(len(order)), strict=True):
        received[s].append(tile)
    flowers = t.rules.tileset.flowers
    for p, tiles in zip(t.players, received, strict=True):
        p.take([tile for tile in tiles if tile < t.rules.flower_from] if flowers else tiles)
    t.drawn = received[t.dealer][-1]
    if t.rules.wild_indicator:
        _turn_indicator(t)
    t.events.append(events.deal(
        t.wall.dice, [p.notation() for p in t.players], t.wall.drawable,
        sorted(t.rules.wilds), t.indicator,
    ))  # fmt: skip
    if flowers:
        _replace_flowers(t, received)
    if not t.rules.opening_hands:
        start_choices(t, "after_deal", _first_turn)
        return
    found = opening.find_opening(t.ruleset, t.dealer, t.n, received)
    t.opening_held = frozenset(s for s in range(t.n) if found[s])
    if t.rules.opening_declared is None:
        _opening_hands(t, received, found)
        start_choices(t, "after_deal", _first_turn)
        return

    def declared_then_play(t: Table) -> None:
        _opening_hands(t, received, found)
        _first_turn(t)

    start_choices(t, "after_deal", declared_then_play)


def _turn_indicator(t: Table) -> None:
    """A tile turned up from the front of the wall, set aside: the tile after it in its
    block's order is wild for this hand (9 wraps to 1, 北 to 东, 白 to 中)."""
    tile = t.wall.draw_front()
    t.indicator = tile
    t.chosen_wilds = (next_in_order(t.rules.tileset, tile),)
    t.rules = t.rules.with_wilds(t.chosen_wilds)


def next_in_order(tileset: TileSet, tile: Tile) -> Tile:
    """The tile an indicator names: the next rank of its suit (9 wraps to 1), the next wind
    of 东南西北 or dragon of 中发白; a flower names itself."""
    block, index = divmod(tile, RANKS)
    if tileset.is_honour(tile):
        start, size = (0, 4) if index < 4 else (4, 3)
        return block * RANKS + start + (index - start + 1) % size
    if tileset.is_flower(tile):
        return tile
    return block * RANKS + (index + 1) % tileset.ranks


def _replace_flowers(t: Table, received: list[list[Tile]]) -> None:
    """Each seat in turn from the dealer sets aside the flowers it was dealt and draws their
    replacements (补花); ``received`` becomes the tiles each seat then holds from the deal."""
    for s in (t.dealer + i for i in range(t.n)):
        s %= t.n
        dealt = received[s]
        received[s] = [tile for tile in dealt if tile < t.rules.flower_from]
        for flower in dealt:
            if flower < t.rules.flower_from:
                continue
            tile = set_aside(t, s, flower)
            if tile is not None:
                t.players[s].add(tile)
                received[s].append(tile)
    if t.drawn is not None and t.drawn >= t.rules.flower_from:
        t.drawn = received[t.dealer][-1]  # the dealer's 14th tile: its last replacement


def _first_turn(t: Table) -> None:
    set_phase(t, "turn", t.dealer)


# --- opening hands (起手胡) --------------------------------------------------------------------


def _opening_hands(
    t: Table, dealt: list[list[Tile]], found: list[list[opening.OpeningHand]]
) -> None:
    """The opening hands (起手胡) ``found`` in the ``dealt`` hands that their seats declare:
    an ``opening`` event per seat, then their payments, now or (``settle: at_end``) when
    the hand ends.  Birds are the next wall tiles (looked at, not taken) or dice rolled now."""
    ruleset, dealer, n = t.ruleset, t.dealer, t.n
    declared = t.rules.opening_declared
    if declared is not None:
        found = [
            hands if hands and declared(opening.opening_situation(
                ruleset, dealer, n, s, dealt[s], t.chosen)) else []
            for s, hands in enumerate(found)
        ]  # fmt: skip
    seats = [s for s in range(n) if found[s]]
    if not seats:
        return
    spec = opening.section(ruleset)
    count = max(opening.bird_count(ruleset, dealer, n, s) for s in seats)
    birds: list[int] = []
    dice: list[int] = []
    if count and spec.get("birds") == "dice":
        # A stream of their own: how many birds a ruleset turns must not move the dice
        # of later kongs, so that variants compared on the same walls play alike.
        rolls = Random(f"opening-birds/{t.seed}")
        dice = [rolls.randint(1, 6) for _ in range(count)]
    elif count:
        birds = t.wall.peek_front(count)
    when = spec.get("settle", "immediately")
    hit: set[int] = set()
    for s in seats:
        hits = opening.bird_hits(ruleset, dealer, n, s, birds, dice)
        hit.update(hits)
        hands = [{"id": h.id, "name": h.name, "value": h.value} for h in found[s]]
        t.events.append(events.opening(s, hands, birds, dice, hits, when))
    t.facts.opened(seats, hit)
    payments = settle_opening(ruleset, dealer, n, dealt, birds, dice, found, t.chosen)
    settlement = Settlement(n, (), tuple(payments))
    if when == "at_end":
        t.opening_due = settlement
    else:
        record(t, settlement)
