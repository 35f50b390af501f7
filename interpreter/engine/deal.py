"""The deal: who receives each tile, and what the dealt hands are paid (起手胡)."""

from __future__ import annotations

from random import Random
from typing import TYPE_CHECKING

from interpreter import opening
from interpreter.engine import choices
from interpreter.engine.rules import Rules
from interpreter.engine.state import tile_name
from interpreter.settle import Settlement
from interpreter.tiles import Tile

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
        if not choices.start(self, "after_deal"):  # choices: after the deal
            self._phase("turn", self.dealer)

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
        for s in seats:
            hits = opening.bird_hits(ruleset, dealer, n, s, birds, dice)
            self._emit(
                "opening", seat=s,
                hands=[{"id": h.id, "name": h.name, "value": h.value} for h in found[s]],
                birds=[tile_name(t) for t in birds], dice=dice,
                hits={str(k): v for k, v in sorted(hits.items())}, settle=when,
            )  # fmt: skip
        payments = opening.settle_opening(ruleset, dealer, n, dealt, birds, dice, found)
        settlement = Settlement(n, (), tuple(payments))
        if when == "at_end":
            self.opening_due = settlement
        else:
            self._record(settlement)
