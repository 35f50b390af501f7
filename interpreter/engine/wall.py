"""The wall: stacks of two tiles, broken by the dice, drawn from the front or the tail.

Tiles are kept in draw order from the front: stack ``k`` is ``tiles[2k]`` (top) and
``tiles[2k + 1]`` (bottom).  Replacement draws take tiles from the tail (the last stack
that still holds a tile), from the front, or from a stack counted from the tail by dice.
``reserved`` tiles are never drawn in play (a dead wall); birds may still come from them.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

from handcore.tiles import Tile

_ORDERS = {
    "top_then_bottom": lambda top, bottom: (top, bottom),
    "bottom_then_top": lambda top, bottom: (bottom, top),
    "top_only": lambda top, bottom: (top,),
}


class Wall:
    __slots__ = ("dice", "drawable", "head", "left", "reserved", "tail", "taken", "tiles")

    def __init__(self, tiles: Sequence[Tile], reserved: int = 0, dice: tuple[int, int] = (1, 1)):
        self.tiles = list(tiles)
        self.taken = [False] * len(self.tiles)
        self.head = 0
        self.tail = (len(self.tiles) + 1) // 2 - 1
        self.left = len(self.tiles)
        self.reserved = reserved
        self.drawable = max(0, self.left - reserved)
        """Tiles that may still be drawn in play (the reserved ones excluded)."""
        self.dice = dice

    @classmethod
    def built(cls, tiles: Sequence[Tile], rng: Random, players: int, reserved: int = 0) -> Wall:
        """Shuffle, stack in front of the players and break where two dice say (开小骰)."""
        order = list(tiles)
        rng.shuffle(order)
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        stacks = (len(order) + 1) // 2
        per_wall = max(1, stacks // players)
        # The total picks whose wall (counted from the dealer), the smaller die the stack.
        offset = (((dice[0] + dice[1] - 1) % players) * per_wall + min(dice)) % stacks
        order = order[2 * offset :] + order[: 2 * offset]
        return cls(order, reserved, dice)

    def _take(self, index: int) -> Tile:
        self.taken[index] = True
        self.left -= 1
        self.drawable = max(0, self.left - self.reserved)
        return self.tiles[index]

    def deal(self, count: int) -> list[Tile]:
        """The first ``count`` tiles from the front, all at once: only before any draw."""
        assert self.left == len(self.tiles), "the deal comes before any draw"
        self.taken[:count] = [True] * count
        self.left -= count
        self.drawable = max(0, self.left - self.reserved)
        return self.tiles[:count]

    def draw_front(self) -> Tile:
        taken = self.taken
        while taken[self.head]:
            self.head += 1
        return self._take(self.head)

    def _stack_indices(self, stack: int, order: str) -> tuple[int, ...]:
        """The tiles of ``stack`` still there, in the ``order`` they are taken (``top_only``:
        the top tile, if it is still there)."""
        top, bottom = 2 * stack, 2 * stack + 1
        pair = _ORDERS[order](top, bottom)
        return tuple(i for i in pair if i < len(self.tiles) and not self.taken[i])

    def holds(self, stack: int, order: str) -> bool:
        """Whether ``stack`` still has a tile that ``order`` may take."""
        return bool(self._stack_indices(stack, order))

    def draw_tail(self, order: str = "top_then_bottom") -> Tile:
        while not self._stack_indices(self.tail, order):
            self.tail -= 1
        return self._take(self._stack_indices(self.tail, order)[0])

    def stacks_from_tail(self) -> list[int]:
        """Indices of the stacks still holding a tile, the tail's first."""
        return [k for k in range(self.tail, -1, -1) if self._stack_indices(k, "top_then_bottom")]

    def draw_stack(self, stack: int, order: str, count: int) -> list[Tile]:
        """Up to ``count`` tiles from ``stack``, continuing towards the tail if it runs out."""
        drawn: list[Tile] = []
        while len(drawn) < count and self.drawable and stack < (len(self.tiles) + 1) // 2:
            for index in self._stack_indices(stack, order):
                if len(drawn) < count and self.drawable:
                    drawn.append(self._take(index))
            stack += 1
        return drawn

    def peek_front(self, count: int) -> list[Tile]:
        """The next ``count`` tiles from the front, left in the wall."""
        found = []
        for index in range(self.head, len(self.tiles)):
            if len(found) == count:
                break
            if not self.taken[index]:
                found.append(self.tiles[index])
        return found

    def remaining(self) -> list[Tile]:
        return [t for t, gone in zip(self.tiles, self.taken, strict=True) if not gone]
