"""The end of the wall: the last tile(s) offered in turn (海底, 海底漫游), and the ruleset's
checks when the wall runs out with players still in (查叫, 花猪, 退税)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from interpreter import shapes
from interpreter.engine.actions import Action
from interpreter.engine.facts import lift_locks
from interpreter.engine.rules import _NOWHERE
from interpreter.engine.state import tile_name
from interpreter.scenario import Unfinished
from interpreter.settle import settle

if TYPE_CHECKING:
    from interpreter.engine.game import Game

    _Base = Game
else:
    _Base = object

_NAME = tile_name


class WallEnd(_Base):
    """The last tiles and the drawn end (a part of :class:`Game`)."""

    def _eligible(self, seat: int) -> bool:
        p = self.players[seat]
        if not p.in_game:
            return False
        if self.rules.offered_to == "ready":
            return shapes.shanten(p.keys, len(p.melds), "quads" if not p.melds else None) == 0
        return True

    def _offer(self, seat: int) -> None:
        eligible = [s for s in range(self.n) if self._eligible(s)]
        if not eligible or self.offer_passes >= len(eligible):
            self._end("wall")
            return
        while not self._eligible(seat):
            seat = (seat + 1) % self.n
        self.round = None
        self.drawn = None
        self.facts.offered(seat)
        self._phase("last_offer", seat)

    def _do_last_offer(self, seat: int, action: Action) -> None:
        if action.kind == "pass":
            self.offer_passes += 1
            self._offer((seat + 1) % self.n)
            return
        p = self.players[seat]
        lift_locks(self, seat, "draw")
        self.facts.took_last(seat)
        self.draw_ctx = frozenset(("last_tile",))
        self.phase = "last_turn"
        if self.rules.tiles_per_taker > 1 and self.wall.drawable > 1:
            self._take_last_tiles(seat)
            return
        tile = self.wall.draw_front()
        p.add(tile)
        self.last_drawn.append(tile)
        self.drawn = tile
        self._emit("draw", seat=seat, tile=_NAME(tile), source="front", last_tile=True)

    def _take_last_tiles(self, seat: int) -> None:
        """The taker takes several last tiles at once, shown apart (``tiles_per_taker``)."""
        w = self.wall
        tiles = [w.draw_front() for _ in range(min(self.rules.tiles_per_taker, w.drawable))]
        for t in tiles:
            self._emit("draw", seat=seat, tile=_NAME(t), source="front", last_tile=True)
        self.last_drawn.extend(tiles)
        self.kong_tiles = tiles
        self.drawn = None

    def _do_last_turn(self, seat: int, action: Action) -> None:
        tile = self.drawn
        if tile is None:
            self._last_tiles_turn(seat, action)
            return
        if action.kind == "win":
            self._win((seat,), (tile,), None, self.draw_ctx, "self")
            return
        p = self.players[seat]
        p.add(tile, -1)
        p.discards.append(tile)
        self._emit("discard", seat=seat, tile=_NAME(tile), exposed=True)
        lift_locks(self, seat, "discard")
        self.drawn = None
        self._open_round(tile, seat, frozenset(("last_tile",)), ("win",), "last")

    def _last_tiles_turn(self, seat: int, action: Action) -> None:
        """The taker of several last tiles wins on those that win for him, or all are
        exposed and others may win on them in one round (抢海底)."""
        if action.kind == "win":
            tiles = tuple(self._kong_tile_wins(seat))
            self._win((seat,), tiles, None, self.draw_ctx, "last_tiles")
            return
        tiles = tuple(self.kong_tiles)
        self.kong_tiles = []
        p = self.players[seat]
        for t in tiles:
            p.discards.append(t)
            self._emit("discard", seat=seat, tile=_NAME(t), exposed=True)
        context = frozenset(("last_tile",))
        self._open_joint_round(tiles, seat, context, ("win",), "last", (), owner_kongs=False)

    def _next_offer(self, taker: int) -> None:
        if self.wall.drawable == 0:
            self._end("wall")
            return
        self.offer_passes = 0
        self._offer(self._order_from(taker)[0] if len(self._in_game()) > 1 else taker)

    def _end_of_wall(self) -> None:
        """The wall ran out with players still in: the ruleset's end checks (查叫, 花猪, 退税).

        The kongs of the players still in go with it as already paid (by the seats in the
        hand when each was made, winners since included), for the refunds; a kong whose money
        went to a winner (呼叫转移) is no longer among them.
        """
        if not self.rules.end_checks:
            return
        still_in = self._in_game()
        unfinished = tuple(
            Unfinished(s, tuple(self.players[s].hand()), self.players[s].melds, _NOWHERE)
            for s in sorted(still_in)
        )
        kongs = tuple(k for k in self.kongs if k.seat in still_in)
        self._record(settle(self.ruleset, self._scenario((), (), (), unfinished, kongs)))
