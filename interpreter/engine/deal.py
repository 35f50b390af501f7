"""The deal and the table phases before play.

``deal`` deals the tiles, pays the opening hands found (起手胡), then plays the phases the
ruleset lists in ``players.before_play`` (those it enables), in that order, before the
dealer's first turn.  Each such phase is a :class:`~interpreter.engine.state.Phase` in
``BEFORE_PLAY``: ``exchange`` (换三张: each seat gives tiles, then they pass in one
direction) and ``void`` (定缺), both chosen at once (``choose_at_once``)."""

from __future__ import annotations

from random import Random

from handcore.tiles import STANDARD, Tile
from interpreter import opening
from interpreter.engine import events
from interpreter.engine.actions import Action
from interpreter.engine.flow import set_phase
from interpreter.engine.legal import exchange_actions
from interpreter.engine.payments import record
from interpreter.engine.rules import Rules
from interpreter.engine.state import SUIT_LETTERS, Phase, Table, fmt
from interpreter.settle import Settlement


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


_BY_DIE = ("clockwise", "across", "counterclockwise")

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
    for p, tiles in zip(t.players, received, strict=True):
        p.take(tiles)
    t.drawn = received[t.dealer][-1]
    t.events.append(events.deal(t.wall.dice, [p.notation() for p in t.players], t.wall.drawable))
    if t.rules.opening_hands:
        _opening_hands(t, received)
    next_phase(t, None)


def next_phase(t: Table, done: str | None) -> None:
    """Enter the next phase before play that the ruleset plays after ``done`` (None: the
    first), or the dealer's first turn."""
    names = t.rules.before_play
    for name in names[0 if done is None else names.index(done) + 1 :]:
        applies = BEFORE_PLAY[name].applies
        if applies is None or applies(t.rules):
            set_phase(t, name, t.dealer)
            return
    set_phase(t, "turn", t.dealer)


def choose_at_once(t: Table, seat: int, action: Action) -> dict[int, Action] | None:
    """A choice every seat makes at once (换三张, 定缺): asked in turn from the dealer,
    each is held unseen by the others; once all have chosen, they are returned together
    for the phase to carry out.  So no seat's choice can depend on another's."""
    t.held[seat] = action
    following = (seat + 1) % t.n
    if following != t.dealer:
        t.current = following
        return None
    chosen, t.held = t.held, {}
    return chosen


# --- 定缺 (restrictions.declare_void) ----------------------------------------------------------


def _void_actions(t: Table, seat: int) -> list[Action]:
    return [Action("void", option=SUIT_LETTERS[s]) for s in t.rules.suits]


def _act_void(t: Table, seat: int, action: Action) -> None:
    chosen = choose_at_once(t, seat, action)
    if chosen is None:
        return
    for s, choice in chosen.items():
        t.players[s].void = SUIT_LETTERS.index(choice.option)
    t.events.append(events.void([chosen[s].option for s in range(t.n)]))
    next_phase(t, "void")


# --- the exchange (players.exchange) ------------------------------------------------------


def _act_exchange(t: Table, seat: int, action: Action) -> None:
    chosen = choose_at_once(t, seat, action)
    if chosen is None:
        return
    n = t.n
    given = {s: STANDARD.parse(chosen[s].option, check_copies=False) for s in range(n)}
    for s, tiles in given.items():
        for tile in tiles:
            t.players[s].add(tile, -1)
    direction, dice = _exchange_direction(t)
    shift = {"counterclockwise": 1, "clockwise": n - 1, "across": n // 2 or 1}[direction]
    received: dict[int, list[Tile]] = {}
    for s in range(n):
        to = (s + shift) % n
        received[to] = given[s]
        for tile in given[s]:
            t.players[to].add(tile)
    if t.drawn is not None and not t.players[t.dealer].counts[t.drawn]:
        t.drawn = max(received[t.dealer])  # the dealer's 14th tile was given away
    t.exchanged = {s: (given[s], received[s]) for s in range(n)}
    t.events.append(events.exchange(
        direction, dice, [fmt(sorted(t.exchanged[s][0])) for s in range(n)],
        [fmt(sorted(t.exchanged[s][1])) for s in range(n)], [p.notation() for p in t.players],
    ))  # fmt: skip
    next_phase(t, "exchange")


def _exchange_direction(t: Table) -> tuple[str, list[int]]:
    """The direction, and the die rolled for it (``dice``: 1-2 clockwise, 3-4 across,
    5-6 counterclockwise; ``random``: one of the three, no die shown)."""
    direction = t.rules.exchange_direction
    if direction == "dice":
        die = t.rng.randint(1, 6)
        return _BY_DIE[(die - 1) // 2], [die]
    if direction == "random":
        return _BY_DIE[t.rng.randrange(3)], []
    return direction, []


BEFORE_PLAY: dict[str, Phase] = {
    "exchange": Phase(exchange_actions, _act_exchange, lambda r: r.exchange_tiles > 0),
    "void": Phase(_void_actions, _act_void, lambda r: r.declare_void),
}
"""The phases a ruleset may play between the deal and the first turn, by the name
``players.before_play`` lists them with."""


# --- opening hands (起手胡) --------------------------------------------------------------------


def _opening_hands(t: Table, dealt: list[list[Tile]]) -> None:
    """Opening hands (起手胡) found in the ``dealt`` hands: an ``opening`` event per
    seat, then their payments, now or (``settle: at_end``) when the hand ends.  Birds
    are the next wall tiles (looked at, not taken) or dice rolled now."""
    ruleset, dealer, n = t.ruleset, t.dealer, t.n
    found = opening.find_opening(ruleset, dealer, n, dealt)
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
    payments = opening.settle_opening(ruleset, dealer, n, dealt, birds, dice, found)
    settlement = Settlement(n, (), tuple(payments))
    if when == "at_end":
        t.opening_due = settlement
    else:
        record(t, settlement)
