"""Does a hand win, for how much, and what happens when it does: the win is settled by
``interpreter.settle`` from a :class:`~interpreter.scenario.Scenario` built here, birds
are turned, payments recorded, and the winning tiles set apart."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from dsl.situation import HandMeld, Situation
from interpreter import prefilter, shapes
from interpreter.engine.actions import Action
from interpreter.engine.facts import visible
from interpreter.engine.rules import _NOWHERE
from interpreter.engine.state import EMPTY, tile_name
from interpreter.scenario import Kong, Scenario, Unfinished, Win
from interpreter.settle import Settlement, settle
from interpreter.tiles import STANDARD, Tile

if TYPE_CHECKING:
    from interpreter.engine.game import Game

    _Base = Game
else:
    _Base = object

_NAME = tile_name


class Wins(_Base):
    """Win checks, win settlement and payments (a part of :class:`Game`)."""

    def _must_win(self) -> bool:
        """In the last ``must_win_last`` tiles a player who can win must."""
        return self.rules.must_win_last > 0 and self.wall.drawable < self.rules.must_win_last

    def _in_game(self) -> frozenset[int]:
        return self.in_game_seats

    def _situation(
        self, seat: int, keys: tuple[int, ...], melds: tuple[HandMeld, ...], tile: Tile,
        discarder: int | None, context: frozenset[str], first: bool, seen: tuple[Tile, ...] = (),
    ) -> Situation:  # fmt: skip
        return Situation(
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
            dealer=self.dealer,
            dealers=self.dealers,
            players=self.n,
            players_in_game=self.in_game_seats,
            winners=frozenset((seat,)),
            options=self.rules.options,
            visible=Counter(seen),
        )

    def _value(
        self, seat: int, tile: Tile, discarder: int | None, context: frozenset[str],
        first: bool, *, in_hand: bool,
    ) -> int | None:  # fmt: skip
        """The value of the win ``seat`` would make on ``tile``, or None.

        ``in_hand``: the tile was drawn and is among the seat's concealed tiles; else it
        would join them.  A hand that no tile could make win is ruled out first, by an
        answer kept while the hand is unchanged (``Rules.may_win_with_one_more``); a hand
        that is neither complete nor seven pairs next by the cheap necessary conditions of
        the ruleset's shape-free hand types (``prefilter``).  What is left is worked out
        once per game and remembered.
        """
        p = self.players[seat]
        before = shapes.add_tile(p.keys, tile, -1) if in_hand else p.keys
        if not p.may_win_with_one_more(before, self.rules):
            return None
        keys = p.keys if in_hand else shapes.add_tile(before, tile)
        seen = visible(self, (tile,), not in_hand) if self.facts.reads_visible else ()
        return self._value_of(seat, keys, p.melds, tile, discarder, context, first, seen)

    def _value_of(
        self, seat: int, keys: tuple[int, ...], melds: tuple[HandMeld, ...], tile: Tile,
        discarder: int | None, context: frozenset[str], first: bool, seen: tuple[Tile, ...] = (),
    ) -> int | None:  # fmt: skip
        """The value of ``seat`` winning with concealed ``keys`` (``tile`` among them) and
        ``melds``, or None; ``_value`` without its first test, for a hand not yet held.
        ``seen``: the tiles face up (``facts.visible``)."""
        r = self.rules
        p = self.players[seat]
        shaped = r.shape_ok(keys, len(melds))
        if not shaped and not r.shape_free:
            return None
        if not shaped and r.unshaped_need is not None:
            flags = (discarder is None, *prefilter.context_flags(context), first, False)
            if not r.unshaped_need(prefilter.probe_of(keys, melds, flags)):
                return None
        key = (seat, keys, melds, tile, discarder, context, first, p.void, self.in_game_seats, seen)
        memo = self.win_values
        if key in memo:
            return memo[key]
        situation = self._situation(seat, keys, melds, tile, discarder, context, first, seen)
        value = memo[key] = r.win_value(situation, p.void, shaped)
        return value

    def _self_discarder(self) -> int | None:
        """Who pays as discarder for a win on the tile just drawn: the player who gave the
        kong when it is a replacement not counted as a self-draw (whether or not the
        replacement counts as a kong), else nobody."""
        return None if self.kong_self_draw else self.kong_provider

    def _phase_win(self, seat: int) -> Action | None:
        """The win open to the seat deciding on a last tile or on kong tiles, if any."""
        if self.phase == "last_turn" and self.drawn is not None:
            first = False
            value = self._value(seat, self.drawn, None, self.draw_ctx, first, in_hand=True)
            return None if value is None else Action("win", self.drawn)
        if any(self._kong_tile_wins(seat)):
            return Action("win")
        return None

    def _kong_tile_wins(self, seat: int) -> list[Tile]:
        """The tiles shown apart (kong tiles, 海底 tiles taken together) that win for ``seat``."""
        discarder = self._shown_discarder()
        ctx = self.draw_ctx
        return [
            t
            for t in self.kong_tiles
            if self._value(seat, t, discarder, ctx, False, in_hand=False) is not None
        ]

    def _shown_discarder(self) -> int | None:
        """Who pays as discarder for a win on tiles shown apart: nobody for 海底 tiles or a
        replacement counted as a self-draw, else the player who gave the kong."""
        if self.phase == "last_turn" or self.kong_self_draw:
            return None
        return self.kong_provider

    # --- settlement -------------------------------------------------------------------------

    def _scenario(
        self, wins: tuple[Win, ...], birds: tuple[Tile, ...], kongs: tuple[Kong, ...] = (),
        unfinished: tuple[Unfinished, ...] = (), paid_kongs: tuple[Kong, ...] = (),
        seen: tuple[Tile, ...] = (),
    ) -> Scenario:  # fmt: skip
        return Scenario(
            path="<engine>", ruleset=self.ruleset.id, options={}, players=self.n,
            dealer=self.dealer, dealers=self.dealers, wins=wins, birds=birds, bird_dice=(),
            kongs=kongs, in_game=self._in_game(), unfinished=unfinished, raw={},
            paid_kongs=paid_kongs,
            visible=seen, **self.facts.seats(),
        )  # fmt: skip

    def _record(self, settlement: Settlement) -> None:
        self.settlements.append(settlement)
        self._pay(settlement.payments)

    def _pay(self, payments: Any) -> None:
        for pay in payments:
            self.deltas[pay.payer] -= pay.amount
            self.deltas[pay.payee] += pay.amount
            self._emit("payment", amount=pay.amount, reasons=list(pay.reasons),
                       **{"from": pay.payer, "to": pay.payee})  # fmt: skip

    def _birds(
        self, first_seat: int, discarder: int | None, context: frozenset[str], ends: bool,
        win_tile: Tile,
    ) -> tuple[Tile, ...]:  # fmt: skip
        count_expr = self.rules.bird_count
        if count_expr is None:
            return ()
        base = Situation(
            keys=(0,) * len(STANDARD.suits), dealer=self.dealer, players=self.n,
            options=self.rules.options, winner=first_seat, discarder=discarder,
            win_tile=win_tile,
        )  # fmt: skip
        count = int(count_expr(base))
        if count <= 0:
            return ()
        if "last_tile" in context and self.rules.birds_on_last != "next_tiles" and self.last_drawn:
            return tuple(self.last_drawn[-max(1, self.rules.last_tiles) :])
        w = self.wall
        if ends:
            tiles = [w.draw_front() for _ in range(min(count, w.left))]
            self.birds_taken.extend(tiles)
        else:  # play goes on: the birds are looked at, not taken
            tiles = w.peek_front(count)
        return tuple(tiles)

    def _win(
        self, winners: tuple[int, ...], tiles: tuple[Tile, ...], discarder: int | None,
        context: frozenset[str], source: str, firsts: dict[int, bool] | None = None,
        seat_tiles: dict[int, tuple[Tile, ...]] | None = None,
    ) -> None:  # fmt: skip
        """``seat_tiles``: in a joint round, the tiles each winner wins on (``tiles`` holds
        them all)."""
        r = self.rules
        rnd = self.round
        if rnd is not None:
            self._rest_of_kong_tiles(rnd)
        wins = []
        for seat in winners:
            p = self.players[seat]
            concealed = p.hand()
            if source == "self":
                for t in tiles:
                    concealed.remove(t)
            ctx = set(context)
            if (firsts and firsts.get(seat)) or (
                rnd is not None
                and rnd.then == "discard"
                and not self.claims_made
                and p.turns == 0
                and (self.players[rnd.discarder].turns <= 1)
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
        left_after = len(self._in_game()) - (len(winners) if r.mode == "until_one_left" else 0)
        ends = r.mode == "first_win" or (r.mode == "until_one_left" and left_after <= 1)
        birds = self._birds(winners[0], discarder, context, ends, wins[0].win_tiles[0])
        # On the discard that followed a kong, its money may move to the winner (呼叫转移).
        last_kong = tuple(
            k for k in self.kongs[-1:] if "kong_discard" in context and k.seat == discarder
        )
        self.facts.won()
        seen = visible(self, tiles, source != "self")
        scenario = self._scenario(tuple(wins), birds, paid_kongs=last_kong, seen=seen)
        settlement = settle(self.ruleset, scenario)
        if last_kong and r.transfer:  # its money has gone to the winner: nothing left to refund
            self.kongs.pop()
        apart = {}
        if seat_tiles and any(won != tiles for won in seat_tiles.values()):
            apart = {"seat_tiles": {str(s): [_NAME(t) for t in seat_tiles[s]] for s in winners}}
        self._emit(
            "win", seats=list(winners), tiles=[_NAME(t) for t in tiles],
            context=sorted(context), hands=settlement.to_json()["wins"], **{"from": discarder},
            **apart,
        )  # fmt: skip
        if birds:
            hits = {str(s): n for s, n in sorted(settlement.bird_hits.items())}
            self._emit("bird", tiles=[_NAME(t) for t in birds], hits=hits)
        self._record(settlement)
        self.win_events.append((winners, discarder))
        # Where the winning tiles go: set apart with the (nearest) winner.
        first = self.players[winners[0]]
        if source == "self":
            for t in tiles:
                first.add(t, -1)
        elif source in ("kong_tiles", "last_tiles"):
            for t in tiles:
                self.kong_tiles.remove(t)
            for t in list(self.kong_tiles):
                self.kong_tiles.remove(t)
                self.players[winners[0]].discards.append(t)
                self._emit("discard", seat=winners[0], tile=_NAME(t), claimable=False)
        elif source == "rob":
            assert rnd is not None
            seat, tile = rnd.data[:2]
            robbed = self.players[seat]
            index = next(
                i for i, m in enumerate(robbed.melds) if m.kind == "kong" and m.tile == tile
            )
            before, after = robbed.melds[:index], robbed.melds[index + 1 :]
            if robbed.melds[index].concealed:
                robbed.melds = (*before, *after)
                robbed.add(tile, 3)
            else:
                robbed.melds = (*before, HandMeld("pung", tile, False), *after)
        else:
            assert discarder is not None
            for t in tiles:
                self._take_discard(discarder, t)
        if seat_tiles:  # each tile goes to the nearest seat that won on it
            for t in tiles:
                self.players[next(s for s in winners if t in seat_tiles[s])].won.append(t)
        else:
            first.won.extend(tiles)
        self.round = None
        self.kong_tiles = []
        self.drawn = None
        self.draw_ctx = EMPTY
        self.after_kong = False
        if ends:
            self._end("win" if r.mode == "first_win" else "one_left")
            return
        if r.mode == "until_one_left":
            self._leave(winners)
        last = winners[-1]
        if source in ("last", "last_tiles"):
            self._next_offer(last)
            return
        self._start_turn(self._order_from(last)[0] if self._order_from(last) else last)
