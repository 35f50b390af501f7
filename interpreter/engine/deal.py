"""The deal: who receives each tile, and what the dealt hands are paid (起手胡)."""

from __future__ import annotations

from itertools import combinations
from random import Random
from typing import TYPE_CHECKING

from interpreter import opening
from interpreter.engine.actions import Action
from interpreter.engine.rules import Rules
from interpreter.engine.state import SUIT_LETTERS, fmt, tile_name
from interpreter.settle import Settlement
from interpreter.tiles import RANKS, STANDARD, Tile

if TYPE_CHECKING:
    from interpreter.engine.game import Game

    _Base = Game
else:
    _Base = object


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


class Deal(_Base):
    """The deal (a part of :class:`Game`)."""

    def _deal(self) -> None:
        received: list[list[Tile]] = [[] for _ in self.players]
        order = _order(self.rules, self.dealer)
        for s, tile in zip(order, self.wall.deal(len(order)), strict=True):
            received[s].append(tile)
        for p, tiles in zip(self.players, received, strict=True):
            p.take(tiles)
        self.drawn = received[self.dealer][-1]
        self._emit(
            "deal", dice=list(self.wall.dice), hands=[p.notation() for p in self.players],
            wall=self.wall.drawable,
        )  # fmt: skip
        if self.rules.opening_hands:
            self._opening_hands(received)
        if self.rules.exchange_tiles:
            self._phase("exchange", self.dealer)
        else:
            self._after_exchange()

    def _after_exchange(self) -> None:
        if self.rules.declare_void:
            self._phase("void", self.dealer)
        else:
            self._phase("turn", self.dealer)

    # --- the exchange (players.exchange) ------------------------------------------------------

    def _exchange_actions(self, seat: int) -> list[Action]:
        """Every distinct set of ``tiles`` tiles the seat may give: from one suit when the
        ruleset requires it (any tiles if no suit holds enough), else from the whole hand."""
        r = self.rules
        hand = self.players[seat].hand()
        groups = [hand]
        if r.exchange_same_suit:
            groups = [[t for t in hand if t // RANKS == s] for s in r.suits]
            if not any(len(g) >= r.exchange_tiles for g in groups):
                groups = [hand]
        sets = sorted({c for g in groups for c in combinations(g, r.exchange_tiles)})
        return [Action("exchange", option=fmt(c)) for c in sets]

    def _choose_at_once(self, seat: int, action: Action) -> None:
        """A choice every seat makes at once (换三张, 定缺): asked in turn from the dealer,
        each is held unseen by the others; once all have chosen, ``_reveal_<phase>`` carries
        them out together.  So no seat's choice can depend on another's."""
        self.held[seat] = action
        following = (seat + 1) % self.n
        if following != self.dealer:
            self.current = following
            return
        chosen, self.held = self.held, {}
        getattr(self, "_reveal_" + self.phase)(chosen)

    _do_exchange = _do_void = _choose_at_once

    def _reveal_void(self, chosen: dict[int, Action]) -> None:
        for s, action in chosen.items():
            self.players[s].void = SUIT_LETTERS.index(action.option)
        self._emit("void", suits=[chosen[s].option for s in range(self.n)])
        self._phase("turn", self.dealer)

    def _reveal_exchange(self, chosen: dict[int, Action]) -> None:
        n = self.n
        given = {s: STANDARD.parse(chosen[s].option, check_copies=False) for s in range(n)}
        for s, tiles in given.items():
            for t in tiles:
                self.players[s].add(t, -1)
        direction, dice = self._exchange_direction()
        shift = {"counterclockwise": 1, "clockwise": n - 1, "across": n // 2 or 1}[direction]
        received: dict[int, list[Tile]] = {}
        for s in range(n):
            to = (s + shift) % n
            received[to] = given[s]
            for t in given[s]:
                self.players[to].add(t)
        if self.drawn is not None and not self.players[self.dealer].counts[self.drawn]:
            self.drawn = max(received[self.dealer])  # the dealer's 14th tile was given away
        self.exchanged = {s: (given[s], received[s]) for s in range(n)}
        self._emit(
            "exchange", direction=direction, dice=dice,
            gave=[fmt(sorted(self.exchanged[s][0])) for s in range(n)],
            received=[fmt(sorted(self.exchanged[s][1])) for s in range(n)],
            hands=[p.notation() for p in self.players],
        )  # fmt: skip
        self._after_exchange()

    def _exchange_direction(self) -> tuple[str, list[int]]:
        """The direction, and the die rolled for it (``dice``: 1-2 clockwise, 3-4 across,
        5-6 counterclockwise; ``random``: one of the three, no die shown)."""
        direction = self.rules.exchange_direction
        if direction == "dice":
            die = self.rng.randint(1, 6)
            return _BY_DIE[(die - 1) // 2], [die]
        if direction == "random":
            return _BY_DIE[self.rng.randrange(3)], []
        return direction, []

    def _opening_hands(self, dealt: list[list[Tile]]) -> None:
        """Opening hands (起手胡) found in the ``dealt`` hands: an ``opening`` event per
        seat, then their payments, now or (``settle: at_end``) when the hand ends.  Birds
        are the next wall tiles (looked at, not taken) or dice rolled now."""
        ruleset, dealer, n = self.ruleset, self.dealer, self.n
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
            rolls = Random(f"opening-birds/{self.seed}")
            dice = [rolls.randint(1, 6) for _ in range(count)]
        elif count:
            birds = self.wall.peek_front(count)
        when = spec.get("settle", "immediately")
        hit: set[int] = set()
        for s in seats:
            hits = opening.bird_hits(ruleset, dealer, n, s, birds, dice)
            hit.update(hits)
            self._emit(
                "opening", seat=s,
                hands=[{"id": h.id, "name": h.name, "value": h.value} for h in found[s]],
                birds=[tile_name(t) for t in birds], dice=dice,
                hits={str(k): v for k, v in sorted(hits.items())}, settle=when,
            )  # fmt: skip
        self.facts.opened(seats, hit)
        payments = opening.settle_opening(ruleset, dealer, n, dealt, birds, dice, found)
        settlement = Settlement(n, (), tuple(payments))
        if when == "at_end":
            self.opening_due = settlement
        else:
            self._record(settlement)
