"""Kongs: which may be made, how they are made (robbable or not, kong money), and the
replacement draw the ruleset names (from the tail, the front, a stack chosen by dice; one
tile into the hand, or several shown apart and discarded when unused)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from dsl.situation import HandMeld
from interpreter import shapes
from interpreter.engine.actions import Action
from interpreter.engine.facts import lift_locks
from interpreter.engine.rules import Replacement
from interpreter.engine.state import EMPTY, Player, tile_name
from interpreter.scenario import Kong
from interpreter.settle import settle
from interpreter.suit_tables import counts_of
from interpreter.tiles import RANKS, Tile

if TYPE_CHECKING:
    from interpreter.engine.game import Game

    _Base = Game
else:
    _Base = object

_NAME = tile_name
_CONTEXTS = {name: frozenset((name,)) for name in ("kong_draw", "kong_discard", "robbing_kong")}
_LAST = frozenset(("last_tile",))


def kong_context(rep: Replacement | None, name: str) -> frozenset[str]:
    """``{name}`` for a win that ``rep`` makes a kong win (杠上花, 杠上炮, 抢杠), else none."""
    return _CONTEXTS[name] if rep is None or rep.counts_as_kong else EMPTY


def _hand_after_kong(
    p: Player, t: Tile, concealed: bool
) -> tuple[tuple[int, ...], tuple[HandMeld, ...]]:
    """``p``'s concealed tiles and melds once every copy of ``t`` it holds goes into a kong
    of ``t``: a concealed kong, or its pung of ``t`` made a kong."""
    keys = shapes.add_tile(p.keys, t, -p.counts[t])
    if concealed:
        return keys, (*p.melds, HandMeld("kong", t, True))
    kong = HandMeld("kong", t, False)
    return keys, tuple(kong if m.kind == "pung" and m.tile == t else m for m in p.melds)


class Kongs(_Base):
    """Kongs and replacement draws (a part of :class:`Game`)."""

    def _replacements_for(
        self, seat: int, keys: tuple[int, ...], melds: tuple[HandMeld, ...]
    ) -> list[str]:
        """The replacement draws open to ``seat`` after a kong that leaves it ``keys`` and
        ``melds``."""
        left = self.wall.drawable
        return [
            rep.name
            for rep in self.rules.replacements
            if left > rep.min_wall
            and left
            and (not rep.requires_ready or self._ready(seat, keys, melds, rep))
        ]

    def _ready(
        self, seat: int, keys: tuple[int, ...], melds: tuple[HandMeld, ...], rep: Replacement
    ) -> bool:
        """Ready (听牌) for ``rep``: some tile it may draw makes a winning hand of the
        ruleset, as a win on that draw (a wait of a shape-free hand type counts, and so does
        a pair only a kong win allows)."""
        r = self.rules
        if not r.may_win_with_one_more(keys, melds):
            return False
        held = Counter(t for m in melds for t in m.tiles)
        context = kong_context(rep, "kong_draw")
        for suit in r.suits:
            ranks = counts_of(keys[suit])
            for rank in range(r.ranks):
                t = suit * RANKS + rank
                if ranks[rank] + held[t] >= r.copies:
                    continue  # no copy of it left to draw
                full = shapes.add_tile(keys, t)
                if self._value_of(seat, full, melds, t, None, context, False) is not None:
                    return True
        return False

    def _self_kongs(self, seat: int, drawn: Tile | None) -> list[Action]:
        """The kongs ``seat`` may declare in its turn, after drawing ``drawn`` (or None:
        right after a chow or pung)."""
        p = self.players[seat]
        counts = p.counts
        pungs = {m.tile for m in p.melds if m.kind == "pung" and counts[m.tile]} if p.melds else ()
        if not pungs and 4 not in counts:
            return []
        found = []
        for t, n in enumerate(counts):
            if not n or (n < 4 and t not in pungs):
                continue
            if p.locked and t != drawn:
                continue
            if p.void is not None and t // RANKS == p.void:
                continue
            keys, melds = _hand_after_kong(p, t, concealed=n == 4)
            found.extend(
                Action("kong", t, name) for name in self._replacements_for(seat, keys, melds)
            )
        return found

    def _self_kong(self, seat: int, tile: Tile, option: str) -> None:
        p = self.players[seat]
        r = self.rules
        self.claims_made = True
        self.facts.kong_made(tile, self.drawn)
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
        self.drawn = None
        self.draw_ctx = EMPTY
        shown = kind != "concealed" or r.concealed_shown
        self._emit("kong", seat=seat, kind=kind, tile=_NAME(tile) if shown else None)
        self._rob_or_complete(seat, tile, kind, None, option, robbable)

    def _rob_or_complete(
        self, seat: int, tile: Tile, kind: str, provider: int | None, option: str, robbable: bool
    ) -> None:
        """Others may win on the kong's tile before its replacement is drawn: as 抢杠 when
        the replacement counts as a kong, else as a plain win on the kong-er's tile.  A kong
        on a discard is robbed only as 抢杠: as a plain win the discard itself was open."""
        context = kong_context(self._replacement(option), "robbing_kong")
        if robbable and (kind != "direct" or context):
            data = (seat, tile, option, kind, provider)
            self._open_round(tile, seat, context, ("win",), "rob", data)
        else:
            self._complete_kong(seat, kind, provider, option)

    def _replacement(self, name: str) -> Replacement:
        return next(x for x in self.rules.replacements if x.name == name)

    def _complete_kong(self, seat: int, kind: str, provider: int | None, option: str) -> None:
        self.round = None
        drawn = kind != "direct" and self.facts.kong_from_draw
        kong = Kong(seat, kind, provider, self.in_game_seats, from_draw=drawn)
        self.kongs.append(kong)
        if self.rules.kong_payments:
            self._record(settle(self.ruleset, self._scenario((), (), kongs=(kong,))))
        self._replace(seat, option, provider)

    def _replace(self, seat: int, name: str, provider: int | None) -> None:
        rep = self._replacement(name)
        w = self.wall
        p = self.players[seat]
        if w.drawable == 0:
            self._end("wall")
            return
        dice: list[int] = []
        tiles: list[Tile] = []
        takes_last = w.drawable <= self.rules.last_tiles
        last = self.rules.last_kong_draws and takes_last
        context = kong_context(rep, "kong_draw") | (_LAST if last else EMPTY)
        if rep.source == "front":
            tiles = [w.draw_front() for _ in range(min(rep.tiles, w.drawable))]
        elif rep.source == "tail":
            tiles = [w.draw_tail(rep.order) for _ in range(min(rep.tiles, w.drawable))]
        else:
            stacks = w.stacks_from_tail()
            chosen = next((k for k in reversed(stacks) if w.holds(k, rep.order)), None)
            for _ in range(20):
                a, b = self.rng.randint(1, 6), self.rng.randint(1, 6)
                one = rep.dice == "one_die" or (
                    rep.dice == "one_die_below_12_stacks" and len(stacks) < 12
                )
                dice = [a] if one else [a, b]
                count = sum(dice)
                if count <= len(stacks) and w.holds(stacks[count - 1], rep.order):
                    chosen = stacks[count - 1]
                    break
                if rep.when_missing == "none":
                    chosen = None
                    break
                if rep.when_missing != "reroll":
                    break
            tiles = w.draw_stack(chosen, rep.order, rep.tiles) if chosen is not None else []
        self._emit(
            "replacement", seat=seat, method=name, tiles=[_NAME(t) for t in tiles], dice=dice
        )
        self.facts.replaced(seat, provider, takes_last and bool(tiles))
        if last:
            self.last_drawn.extend(tiles)
        self.after_kong = rep.counts_as_kong
        self.kong_provider = provider
        self.kong_self_draw = rep.self_draw or provider is None
        self.kong_method = rep
        lift_locks(self, seat, "draw")
        if rep.locks_hand:
            p.locked = True
        self.current = seat
        if not tiles:
            self._start_turn(self._order_from(seat)[0])
        elif rep.into_hand:
            p.add(tiles[0])
            self.drawn = tiles[0]
            self.draw_ctx = context
            self.phase = "turn"
        else:
            self.kong_tiles = list(tiles)
            self.drawn = None
            self.draw_ctx = context
            self.phase = "kong_tiles"

    def _do_kong_tiles(self, seat: int, action: Action) -> None:
        if action.kind == "win":
            tiles = tuple(self._kong_tile_wins(seat))
            self._win((seat,), tiles, self._shown_discarder(), self.draw_ctx, "kong_tiles")
            return
        tiles = list(self.kong_tiles)
        if self.kong_method is not None and self.kong_method.joint_round:
            self._kong_tiles_together(seat, tiles)
            return
        self._kong_tile_discards(seat, tiles, 0)

    def _kong_tile_discards(self, seat: int, tiles: list[Tile], index: int) -> None:
        """Unused kong tiles are discarded one by one; others may answer each."""
        if index >= len(tiles):
            self.kong_tiles = []
            self.after_kong = False
            self._start_turn(self._order_from(seat)[0])
            return
        tile = tiles[index]
        self.kong_tiles.remove(tile)
        self.players[seat].discards.append(tile)
        self._emit("discard", seat=seat, tile=_NAME(tile), claimable=True)
        rep = self.kong_method
        claimable = rep is not None and rep.unused_claimable and self.wall.drawable > 0
        kinds = ("win", "kong", "pung", "chow") if claimable else ("win",)
        self.drawn = None
        self._open_round(
            tile, seat, kong_context(rep, "kong_discard"), kinds, "kong_tile", (seat, tiles, index)
        )

    def _kong_tiles_together(self, seat: int, tiles: list[Tile]) -> None:
        """Unused kong tiles are discarded together and answered in one joint round
        (``unused_round: joint``)."""
        p = self.players[seat]
        for t in tiles:
            p.discards.append(t)
            self._emit("discard", seat=seat, tile=_NAME(t), claimable=True)
        self.kong_tiles = []
        self.drawn = None
        rep = self.kong_method
        assert rep is not None
        live = self.wall.drawable > 0
        kinds = ("win", "kong", "pung", "chow") if rep.unused_claimable and live else ("win",)
        data = (seat, tiles, len(tiles) - 1)  # no tile left to answer after this round
        self._open_joint_round(tuple(tiles), seat, kong_context(rep, "kong_discard"), kinds,
                               "kong_tile", data, rep.kong_again and live)  # fmt: skip

    def _kong_again_options(self, seat: int, tiles: tuple[Tile, ...]) -> list[Action]:
        """The kongs a kong's owner may make with one of its discarded tiles (继续开杠): with
        three of it concealed, or a pung of it."""
        p = self.players[seat]
        found = []
        for t in tiles:
            if p.void is not None and t // RANKS == p.void:
                continue
            concealed = p.counts[t] == 3
            if not concealed and not any(m.kind == "pung" and m.tile == t for m in p.melds):
                continue
            keys, melds = _hand_after_kong(p, t, concealed)
            names = self._replacements_for(seat, keys, melds)
            found.extend(Action("kong", t, name) for name in names)
        return found

    def _kong_again(self, seat: int, action: Action) -> None:
        """The owner takes one discarded kong tile back and kongs with it as with a draw;
        the other tiles stay discarded."""
        tile = action.tile
        self._take_discard(seat, tile)
        self._emit("claim", seat=seat, kind="kong", tile=_NAME(tile), **{"from": seat},
                   taken=_NAME(tile))  # fmt: skip
        self.round = None
        self.players[seat].add(tile)
        self._self_kong(seat, tile, action.option)
