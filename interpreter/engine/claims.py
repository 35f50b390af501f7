"""Who may claim a tile, what each may do with it, and whose claim wins: a claim round
(others answering a discard, a robbable kong, an exposed last tile, a kong tile)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dsl.situation import HandMeld, Situation
from interpreter import shapes
from interpreter.engine.actions import PASS, Action
from interpreter.engine.facts import lift_locks
from interpreter.engine.state import EMPTY, Player, Round, tile_name
from interpreter.tiles import RANKS, STANDARD, Tile

if TYPE_CHECKING:
    from interpreter.engine.game import Game

    _Base = Game
else:
    _Base = object

_NAME = tile_name
MELD_KINDS = ("kong", "pung", "chow")


class Claims(_Base):
    """Claim rounds (a part of :class:`Game`)."""

    def _order_from(self, seat: int) -> list[int]:
        """Seats still in the hand after ``seat``, nearest first (do not change the list)."""
        return self.orders[seat]

    def _leave(self, seats: tuple[int, ...]) -> None:
        """``seats`` leave the hand (they won and play goes on without them)."""
        for s in seats:
            self.players[s].in_game = False
        self._seating()

    def _seating(self) -> None:
        players = self.players
        self.in_game_seats = frozenset(s for s, p in enumerate(players) if p.in_game)
        n = self.n
        self.orders = [
            [s for i in range(1, n) if players[s := (seat + i) % n].in_game] for seat in range(n)
        ]
        self.claimers = {
            kind: [order[:1] if source == "previous" else order for order in self.orders]
            for kind, (source, _) in self.rules.claims.items()
        }
        """For each claim kind and discarder, the seats its ``from`` lets claim a tile."""

    def _by_source(self, kind: str, discarder: int) -> list[int]:
        """The seats the ``from`` of claim ``kind`` lets claim a tile of ``discarder``."""
        return self.claimers[kind][discarder]

    def _claim_allowed(self, kind: str, seat: int, discarder: int, tile: Tile) -> bool:
        spec = self.rules.claims.get(kind)
        if spec is None or seat not in self._by_source(kind, discarder):
            return False
        when = spec[1]
        if when is not None:
            situation = Situation(
                keys=(0,) * len(STANDARD.suits), claimer=seat, discarder=discarder, tile=tile,
                dealer=self.dealer, players=self.n, players_in_game=self._in_game(),
                options=self.rules.options,
            )  # fmt: skip
            return bool(when(situation))
        return True

    def _missed_lock(self, p: Player, tile: Tile, value: int) -> bool:
        mode = self.rules.missed_win
        if mode == "any_tile":
            return p.lock_all
        if mode == "same_tile":
            return tile in p.lock_tiles
        if mode == "not_lower_value":
            return p.lock_value >= 0 and value <= p.lock_value
        return False

    def _open_round(
        self, tile: Tile, discarder: int, context: frozenset[str], kinds: tuple[str, ...],
        then: str, data: tuple[Any, ...] = (),
    ) -> None:  # fmt: skip
        options: dict[int, list[Action]] = {}
        values: dict[int, int] = {}
        suit = tile // RANKS
        rules = self.rules
        can_win = "win" in kinds and "win" in rules.claims
        melds = rules.meld_claims[kinds]
        chowers = self._by_source("chow", discarder) if "chow" in melds else ()
        first_round = not self.claims_made and then == "discard"
        if first_round:
            first_round = self.players[discarder].turns <= 1
        for seat in self.orders[discarder]:
            p = self.players[seat]
            acts: list[Action] = []
            if (
                can_win
                and p.may_win_with_one_more(p.keys, rules)  # cheap: most hands cannot win
                and self._claim_allowed("win", seat, discarder, tile)
            ):
                first = first_round and p.turns == 0
                value = self._value(seat, tile, discarder, context, first, in_hand=False)
                if value is not None:
                    values[seat] = value
                    if not self._missed_lock(p, tile, value):
                        acts.append(Action("win", tile))
                        if self._must_win():
                            options[seat] = acts
                            continue
            if (
                melds
                and not p.locked
                and p.void != suit
                and (p.counts[tile] >= 2 or seat in chowers)  # else no pung, kong or chow
            ):
                acts.extend(self._meld_options(seat, tile, discarder, melds))
            if acts:
                options[seat] = [*acts, PASS]
        if not options:
            self.round = None
            self._nobody_claims(then, discarder, data)
            return
        self.round = Round(tile, discarder, context, then, options, list(options), values, data)
        self.phase = "claim"

    def _open_joint_round(
        self, tiles: tuple[Tile, ...], discarder: int, context: frozenset[str],
        kinds: tuple[str, ...], then: str, data: tuple[Any, ...], owner_kongs: bool,
    ) -> None:  # fmt: skip
        """Others answer several tiles at once: a seat may win on every tile that wins for it
        (one ``win``, no tile named), or make one claim on one tile (a chow names its tile in
        ``option``); with ``owner_kongs`` the discarder may kong again, asked first."""
        options: dict[int, list[Action]] = {}
        values: dict[int, int] = {}
        wins: dict[int, tuple[Tile, ...]] = {}
        rules = self.rules
        can_win = "win" in kinds and "win" in rules.claims
        melds = rules.meld_claims[kinds]
        chowers = self._by_source("chow", discarder) if "chow" in melds else ()
        distinct = tuple(dict.fromkeys(tiles))
        if owner_kongs and (own := self._kong_again_options(discarder, distinct)):
            options[discarder] = [*own, PASS]
        for seat in self.orders[discarder]:
            p = self.players[seat]
            acts: list[Action] = []
            if can_win and p.may_win_with_one_more(p.keys, rules):
                won: dict[Tile, int] = {}
                for t in distinct:
                    if self._claim_allowed("win", seat, discarder, t):
                        value = self._value(seat, t, discarder, context, False, in_hand=False)
                        if value is not None:
                            won[t] = value
                free = {t for t, v in won.items() if not self._missed_lock(p, t, v)}
                if free:
                    values[seat] = max(won.values())
                    wins[seat] = tuple(t for t in tiles if t in free)
                    acts.append(Action("win"))
                    if self._must_win():
                        options[seat] = acts
                        continue
            if melds and not p.locked:
                for t in distinct:
                    if p.void != t // RANKS and (p.counts[t] >= 2 or seat in chowers):
                        acts.extend(
                            a._replace(option=_NAME(t)) if a.kind == "chow" else a
                            for a in self._meld_options(seat, t, discarder, melds)
                        )
            if acts:
                options[seat] = [*acts, PASS]
        self.round = None
        if not options:
            self._nobody_claims(then, discarder, data)
            return
        self.round = Round(tiles[0], discarder, context, then, options, list(options), values,
                           data, tiles=tiles, win_tiles=wins)  # fmt: skip
        self.phase = "claim"

    def _meld_options(
        self, seat: int, tile: Tile, discarder: int, kinds: tuple[str, ...]
    ) -> list[Action]:
        """The kongs, pungs and chows of ``kinds`` that ``seat`` may make with ``tile``."""
        p = self.players[seat]
        counts = p.counts
        n = counts[tile]
        acts: list[Action] = []
        if n == 3 and "kong" in kinds and self._claim_allowed("kong", seat, discarder, tile):
            keys = shapes.add_tile(p.keys, tile, -3)
            acts.extend(
                Action("kong", tile, name)
                for name in self._replacements_for(
                    seat, keys, (*p.melds, HandMeld("kong", tile, False))
                )
            )
        if n >= 2 and "pung" in kinds and self._claim_allowed("pung", seat, discarder, tile):
            acts.append(Action("pung", tile))
        if "chow" in kinds:  # the chows held first: the seat next in turn mostly has none
            lows = [low for low, a, b in self.rules.chows[tile] if counts[a] and counts[b]]
            if lows and self._claim_allowed("chow", seat, discarder, tile):
                acts.extend(Action("chow", low) for low in lows)
        return acts

    def _do_claim(self, seat: int, action: Action) -> None:
        rnd = self.round
        assert rnd is not None
        rnd.choices[seat] = action
        rnd.queue.pop(0)
        if seat in rnd.values and action.kind != "win":
            p = self.players[seat]
            mode = self.rules.missed_win
            if mode == "any_tile":
                p.lock_all = True
            elif mode == "same_tile":
                p.lock_tiles.update(rnd.win_tiles.get(seat) or (rnd.tile,))
            elif mode == "not_lower_value":
                p.lock_value = max(p.lock_value, rnd.values[seat])
        if not rnd.queue:
            self._resolve(rnd)

    def _resolve(self, rnd: Round) -> None:
        chosen = rnd.choices
        if not chosen:
            self._nobody_claims(rnd.then, rnd.discarder, rnd.data)
            return
        order = self._order_from(rnd.discarder)
        winners = [s for s in order if s in chosen and chosen[s].kind == "win"]
        if winners:
            if self.rules.multiple_winners == "nearest":
                winners = winners[:1]
            if not rnd.tiles:
                self._win(tuple(winners), (rnd.tile,), rnd.discarder, rnd.context, rnd.then)
                return
            each = {s: rnd.win_tiles[s] for s in winners}
            tiles = tuple(t for t in rnd.tiles if any(t in won for won in each.values()))
            self._win(tuple(winners), tiles, rnd.discarder, rnd.context, rnd.then,
                      seat_tiles=each)  # fmt: skip
            return
        if rnd.discarder in chosen:  # the kong's owner, nearest to itself (kong_again)
            order = [rnd.discarder, *order]
        seat = self._first_meld_claim(order, chosen)
        if seat == rnd.discarder:
            self._kong_again(seat, chosen[seat])
            return
        if seat is not None:
            self._claim(seat, chosen[seat], rnd)
            return
        self._nobody_claims(rnd.then, rnd.discarder, rnd.data)

    def _first_meld_claim(self, order: list[int], chosen: dict[int, Action]) -> int | None:
        """The seat whose kong, pung or chow is made: the ruleset's priority, then the
        nearest seat."""
        ranks = self.rules.claim_rank
        best: tuple[int, int] | None = None
        found = None
        for i, seat in enumerate(order):
            action = chosen.get(seat)
            if action is not None and action.kind in MELD_KINDS:
                rank = (ranks.get(action.kind, len(ranks)), i)
                if best is None or rank < best:
                    best, found = rank, seat
        return found

    def _nobody_claims(self, then: str, discarder: int, data: tuple[Any, ...]) -> None:
        """Play goes on as ``then`` says: the next turn, the kong, the next offer or kong tile."""
        if then == "discard":
            order = self.orders[discarder]
            self._start_turn(order[0] if len(self.in_game_seats) > 1 else discarder)
        elif then == "rob":
            seat, _, option, kind, provider = data
            self._complete_kong(seat, kind, provider, option)
        elif then == "last":
            self._next_offer(discarder)
        elif then == "kong_tile":
            seat, tiles, index = data
            self._kong_tile_discards(seat, tiles, index + 1)
        else:
            raise AssertionError(then)

    def _claim(self, seat: int, action: Action, rnd: Round) -> None:
        tile = rnd.claimed(action)
        self._take_discard(rnd.discarder, tile)
        self._rest_of_kong_tiles(rnd)
        p = self.players[seat]
        self.claims_made = True
        lift_locks(self, seat, "claim")
        self.facts.claimed()
        taken = {"taken": _NAME(tile)} if rnd.tiles else {}
        self._emit("claim", seat=seat, kind=action.kind, tile=_NAME(action.tile),
                   **{"from": rnd.discarder}, **taken)  # fmt: skip
        self.round = None
        self.current = seat
        self.drawn = None
        self.draw_ctx = EMPTY
        self.after_kong = False
        if action.kind == "pung":
            p.add(tile, -2)
            p.melds = (*p.melds, HandMeld("pung", tile, False))
        elif action.kind == "chow":
            for t in (action.tile, action.tile + 1, action.tile + 2):
                if t != tile:
                    p.add(t, -1)
            p.melds = (*p.melds, HandMeld("chow", action.tile, False))
        else:
            p.add(tile, -3)
            p.melds = (*p.melds, HandMeld("kong", tile, False))
            self._emit(
                "kong", seat=seat, kind="direct", tile=_NAME(tile), **{"from": rnd.discarder}
            )
            rob = self.rules.rob_exposed
            self._rob_or_complete(seat, tile, "direct", rnd.discarder, action.option, rob)
            return
        self.phase = "turn"

    def _take_discard(self, seat: int, tile: Tile) -> None:
        discards = self.players[seat].discards
        for i in range(len(discards) - 1, -1, -1):
            if discards[i] == tile:
                del discards[i]
                return
        raise AssertionError("claimed tile not among the discards")

    def _rest_of_kong_tiles(self, rnd: Round) -> None:
        """A claim or win on one kong tile: the others go to the discards unclaimed."""
        if rnd.then != "kong_tile":
            return
        seat, tiles, index = rnd.data
        for t in tiles[index + 1 :]:
            self.kong_tiles.remove(t)
            self.players[seat].discards.append(t)
            self._emit("discard", seat=seat, tile=_NAME(t), claimable=False)
