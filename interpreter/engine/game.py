"""One hand of mahjong played by the ruleset's mechanics.

A :class:`Game` is created from a ruleset, a seed and the dealer's seat.  It deals, then
waits for decisions: ``to_move()`` says whose, ``legal_actions(seat)`` what they may do,
``observation(seat)`` what that seat may see, ``apply(action)`` carries one out.  Every
win is settled by ``interpreter.settle`` from a :class:`~interpreter.scenario.Scenario`
built here; kong money likewise.  Everything random comes from ``random.Random(seed)``,
so a game is a pure function of (ruleset, options, seed, dealer, decisions), and its event
list (``events``) is the same, byte for byte, every time.

Phases: ``void`` (定缺 declarations), ``turn`` (the player to move has drawn or claimed),
``claim`` (others answer a discard, a robbable kong, an exposed last tile, a kong tile),
``last_offer`` (the last tile(s) offered in turn, 海底漫游), ``last_turn`` (the taker of a
last tile decides), ``kong_tiles`` (replacement tiles shown apart decide), ``over``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from random import Random
from typing import Any

from dsl.ruleset import Ruleset
from dsl.situation import HandMeld, Situation
from interpreter import shapes
from interpreter.engine.actions import PASS, Action
from interpreter.engine.events import SCHEMA_VERSION, option_settings
from interpreter.engine.rules import _NOWHERE, Replacement, Rules
from interpreter.engine.wall import Wall
from interpreter.scenario import Kong, Scenario, Unfinished, Win
from interpreter.settle import Settlement, settle
from interpreter.tiles import RANKS, STANDARD, Tile

SUIT_LETTERS = tuple(s.letter for s in STANDARD.suits)
_NAME = STANDARD.name
_EMPTY: frozenset[str] = frozenset()


class IllegalAction(ValueError):
    """An action that is not legal now; the game is unchanged."""


def _fmt(tiles: list[Tile] | tuple[Tile, ...]) -> str:
    return STANDARD.format(tiles) if tiles else ""


@dataclass
class Player:
    counts: list[int]
    keys: tuple[int, ...]
    melds: list[HandMeld] = field(default_factory=list)
    discards: list[Tile] = field(default_factory=list)
    won: list[Tile] = field(default_factory=list)
    in_game: bool = True
    locked: bool = False
    void: int | None = None
    lock_all: bool = False
    lock_tiles: set[Tile] = field(default_factory=set)
    lock_value: int = -1
    turns: int = 0

    def add(self, tile: Tile, n: int = 1) -> None:
        self.counts[tile] += n
        self.keys = shapes.add_tile(self.keys, tile, n)

    def hand(self) -> list[Tile]:
        return [t for t, n in enumerate(self.counts) for _ in range(n)]

    def clear_lock(self) -> None:
        self.lock_all = False
        self.lock_tiles.clear()
        self.lock_value = -1


@dataclass
class Round:
    """Others answering one tile: a discard, a robbable kong, a last tile, a kong tile."""

    tile: Tile
    discarder: int
    context: frozenset[str]
    then: str
    options: dict[int, list[Action]]
    queue: list[int]
    values: dict[int, int]
    data: tuple[Any, ...] = ()
    choices: dict[int, Action] = field(default_factory=dict)


@dataclass(frozen=True)
class GameResult:
    reason: str
    """How the hand ended: ``win``, ``one_left``, ``wall`` (the wall ran out, 黄庄)."""
    dealer: int
    next_dealer: int
    winners: tuple[int, ...]
    deltas: tuple[int, ...]
    settlements: tuple[Settlement, ...]


class Game:
    def __init__(
        self,
        ruleset: Ruleset,
        seed: int,
        dealer: int = 0,
        *,
        rules: Rules | None = None,
        hand: int = 0,
        wall: Sequence[Tile] | None = None,
    ) -> None:
        """``wall``: the tiles in draw order from the front, for scripted games (tests);
        by default the ruleset's tiles are shuffled and broken by the dice."""
        self.ruleset = ruleset
        self.rules = r = rules or Rules(ruleset)
        if not 0 <= dealer < r.players:
            raise ValueError(f"dealer {dealer} is not a seat 0..{r.players - 1}")
        self.seed = seed
        self.rng = Random(seed)
        self.dealer = dealer
        self.n = r.players
        self.events: list[dict[str, Any]] = []
        self.deltas = [0] * self.n
        self.settlements: list[Settlement] = []
        self.win_events: list[tuple[tuple[int, ...], int | None]] = []
        self.players = [
            Player([0] * STANDARD.kinds, (0,) * len(STANDARD.suits)) for _ in range(self.n)
        ]
        self.phase = "deal"
        self.current = dealer
        self.drawn: Tile | None = None
        self.draw_ctx: frozenset[str] = _EMPTY
        self.kong_provider: int | None = None
        self.kong_self_draw = True
        self.after_kong = False
        self.claims_made = False
        self.round: Round | None = None
        self.kong_tiles: list[Tile] = []
        self.kong_method: Replacement | None = None
        self.last_drawn: list[Tile] = []
        self.offer_passes = 0
        self.birds_taken: list[Tile] = []
        self.kongs: list[Kong] = []
        self.reason = ""
        self._legal: tuple[int, list[Action]] | None = None
        self._emit(
            "start", version=SCHEMA_VERSION, ruleset=ruleset.id,
            options=option_settings(ruleset), seed=seed, hand=hand, dealer=dealer,
            players=self.n,
        )  # fmt: skip
        if wall is None:
            self.wall = Wall.built(r.all_tiles, self.rng, self.n, r.reserved)
        elif Counter(wall) != Counter(r.all_tiles):
            raise ValueError("a scripted wall must hold the ruleset's tiles, each copy once")
        else:
            self.wall = Wall(wall, r.reserved)
        self._deal()

    # --- the public contract ----------------------------------------------------------------

    def to_move(self) -> int | None:
        """The seat whose decision it is, or None when the hand is over."""
        if self.phase == "over":
            return None
        if self.phase == "claim":
            assert self.round is not None
            return self.round.queue[0]
        return self.current

    def is_over(self) -> bool:
        return self.phase == "over"

    def legal_actions(self, seat: int) -> list[Action]:
        """What ``seat`` may do now (empty unless it is that seat's decision)."""
        if seat != self.to_move():
            return []
        if self._legal is None or self._legal[0] != seat:
            self._legal = (seat, self._compute_legal(seat))
        return list(self._legal[1])

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Carry out ``action`` for the seat to move; an illegal one raises and changes nothing."""
        mover = self.to_move()
        if mover is None:
            raise IllegalAction("the hand is over: no action is legal")
        if seat is not None and seat != mover:
            raise IllegalAction(f"it is seat {mover}'s decision, not seat {seat}'s")
        legal = self.legal_actions(mover)
        if not isinstance(action, Action) or action not in legal:
            raise IllegalAction(
                f"seat {mover} cannot {action} now (phase {self.phase}); legal: "
                + ", ".join(str(a) for a in legal)
            )
        self._legal = None
        self._emit("act", seat=mover, action=action.to_json())
        getattr(self, "_do_" + self.phase)(mover, action)

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see: its own hand, everyone's melds and discards, the public state."""
        p = self.players[seat]
        melds = []
        for q, other in enumerate(self.players):
            shown = []
            for m in other.melds:
                hidden = q != seat and m.concealed and not self.rules.concealed_shown
                shown.append((m.kind, -1 if hidden else m.tile, m.concealed))
            melds.append(tuple(shown))
        obs: dict[str, Any] = {
            "seat": seat,
            "phase": self.phase,
            "to_move": self.to_move(),
            "dealer": self.dealer,
            "players": self.n,
            "hand": tuple(p.hand()),
            "drawn": self.drawn if self.current == seat and self.phase == "turn" else None,
            "melds": tuple(melds),
            "discards": tuple(tuple(q.discards) for q in self.players),
            "wall": self.wall.drawable,
            "in_game": tuple(q.in_game for q in self.players),
            "void": tuple(q.void for q in self.players),
            "locked": p.locked,
            "scores": tuple(self.deltas),
            "kong_tiles": tuple(self.kong_tiles),
            "claim": None,
        }
        if self.round is not None and self.phase == "claim":
            obs["claim"] = {"tile": self.round.tile, "from": self.round.discarder,
                            "context": tuple(sorted(self.round.context))}  # fmt: skip
        return obs

    def result(self) -> GameResult:
        if self.phase != "over":
            raise ValueError("the hand is not over")
        winners = tuple(s for seats, _ in self.win_events for s in seats)
        return GameResult(
            self.reason, self.dealer, self._next_dealer(), winners, tuple(self.deltas),
            tuple(self.settlements),
        )  # fmt: skip

    def census(self) -> Counter[Tile]:
        """Every tile by where it is; the sum is the tile set exactly once (a test invariant)."""
        found: Counter[Tile] = Counter(self.wall.remaining())
        for p in self.players:
            for t, n in enumerate(p.counts):
                if n:
                    found[t] += n
            for m in p.melds:
                found.update(m.tiles)
            found.update(p.discards)
            found.update(p.won)
        found.update(self.kong_tiles)
        found.update(self.birds_taken)
        return found

    # --- events -----------------------------------------------------------------------------

    def _emit(self, event_type: str, /, **fields: Any) -> None:
        self.events.append({"type": event_type, **fields})

    # --- deal -------------------------------------------------------------------------------

    def _deal(self) -> None:
        for s in deal_order(self.rules, self.dealer):
            tile = self.wall.draw_front()
            self.players[s].add(tile)
            if s == self.dealer:
                self.drawn = tile
        self._emit(
            "deal", dice=list(self.wall.dice),
            hands=[_fmt(p.hand()) for p in self.players], wall=self.wall.drawable,
        )  # fmt: skip
        if self.rules.declare_void:
            self._phase("void", self.dealer)
        else:
            self._phase("turn", self.dealer)

    def _phase(self, phase: str, seat: int) -> None:
        self.phase = phase
        self.current = seat
        self._emit("phase", phase=phase, seat=seat)

    # --- legal actions ----------------------------------------------------------------------

    def _compute_legal(self, seat: int) -> list[Action]:
        phase = self.phase
        if phase == "claim":
            assert self.round is not None
            return self.round.options[seat]
        if phase == "void":
            return [Action("void", option=SUIT_LETTERS[s]) for s in self.rules.suits]
        if phase == "turn":
            return self._turn_actions(seat)
        if phase == "last_offer":
            return [Action("take"), PASS]
        if phase in ("last_turn", "kong_tiles"):
            win = self._phase_win(seat)
            if win is not None:
                return [win] if self._must_win() else [win, PASS]
            return [PASS]
        raise AssertionError(phase)

    def _must_win(self) -> bool:
        """In the last ``must_win_last`` tiles a player who can win must."""
        return self.rules.must_win_last > 0 and self.wall.drawable < self.rules.must_win_last

    def _situation(
        self, seat: int, keys: tuple[int, ...], tile: Tile, discarder: int | None,
        context: frozenset[str], first: bool,
    ) -> Situation:  # fmt: skip
        return Situation(
            keys=keys,
            melds=tuple(self.players[seat].melds),
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
            players=self.n,
            players_in_game=self._in_game(),
            winners=frozenset((seat,)),
            options=self.rules.options,
        )

    def _in_game(self) -> frozenset[int]:
        return frozenset(s for s, p in enumerate(self.players) if p.in_game)

    def _value(
        self, seat: int, keys: tuple[int, ...], tile: Tile, discarder: int | None,
        context: frozenset[str], first: bool,
    ) -> int | None:  # fmt: skip
        p = self.players[seat]
        shaped = self.rules.shape_ok(keys, len(p.melds))
        if not shaped and not self.rules.shape_free:
            return None
        situation = self._situation(seat, keys, tile, discarder, context, first)
        return self.rules.win_value(situation, p.void, shaped)

    def _self_discarder(self) -> int | None:
        return (
            None if self.kong_self_draw or "kong_draw" not in self.draw_ctx else self.kong_provider
        )

    def _turn_actions(self, seat: int) -> list[Action]:
        p = self.players[seat]
        r = self.rules
        actions: list[Action] = []
        drawn = self.drawn
        if drawn is not None:
            first = not self.claims_made and p.turns == 0
            value = self._value(seat, p.keys, drawn, self._self_discarder(), self.draw_ctx, first)
            if value is not None:
                actions.append(Action("win", drawn))
                if self._must_win():
                    return actions
            if r.kongs_allowed:
                actions.extend(self._self_kongs(seat, drawn))
        counts = p.counts
        if p.locked and drawn is not None:
            choices = [drawn]
        else:
            choices = [t for t, n in enumerate(counts) if n]
            if p.void is not None:
                void = [t for t in choices if t // RANKS == p.void]
                choices = void or choices
        actions.extend(Action("discard", t) for t in choices)
        return actions

    def _replacements_for(self, seat: int, keys: tuple[int, ...], melds: int) -> list[str]:
        left = self.wall.drawable
        names = []
        ready: bool | None = None
        for rep in self.rules.replacements:
            if left <= rep.min_wall or left == 0:
                continue
            if rep.requires_ready:
                if ready is None:
                    ready = shapes.shanten(keys, melds, None) == 0
                if not ready:
                    continue
            names.append(rep.name)
        return names

    def _self_kongs(self, seat: int, drawn: Tile) -> list[Action]:
        p = self.players[seat]
        found = []
        pungs = {m.tile for m in p.melds if m.kind == "pung"}
        for t, n in enumerate(p.counts):
            if p.locked and t != drawn:
                continue
            if p.void is not None and t // RANKS == p.void:
                continue
            if n == 4:
                keys, melds = shapes.add_tile(p.keys, t, -4), len(p.melds) + 1
            elif n >= 1 and t in pungs:
                keys, melds = shapes.add_tile(p.keys, t, -1), len(p.melds)
            else:
                continue
            found.extend(
                Action("kong", t, name) for name in self._replacements_for(seat, keys, melds)
            )
        return found

    # --- turn -------------------------------------------------------------------------------

    def _do_void(self, seat: int, action: Action) -> None:
        self.players[seat].void = SUIT_LETTERS.index(action.option)
        following = (seat + 1) % self.n
        if following == self.dealer:
            self._phase("turn", self.dealer)
        else:
            self.current = following

    def _do_turn(self, seat: int, action: Action) -> None:
        p = self.players[seat]
        if action.kind == "win":
            first = not self.claims_made and p.turns == 0
            self._win((seat,), (action.tile,), self._self_discarder(), self.draw_ctx, "self",
                      firsts={seat: first})  # fmt: skip
        elif action.kind == "kong":
            self._self_kong(seat, action.tile, action.option)
        else:
            self._discard(seat, action.tile)

    def _start_turn(self, seat: int) -> None:
        """``seat`` draws from the front (or is offered the last tile) and must act."""
        r = self.rules
        w = self.wall
        self.round = None
        if w.drawable == 0:
            self._end("wall")
            return
        if r.roams and w.drawable <= r.last_tiles:
            self.offer_passes = 0
            self._offer(seat)
            return
        last = r.last_tiles > 0 and w.drawable <= r.last_tiles
        tile = w.draw_front()
        p = self.players[seat]
        p.add(tile)
        if last:
            self.last_drawn.append(tile)
        p.clear_lock()
        self.current = seat
        self.phase = "turn"
        self.drawn = tile
        self.draw_ctx = frozenset(("last_tile",)) if last else _EMPTY
        self.after_kong = False
        self._emit("draw", seat=seat, tile=_NAME(tile), source="front", last_tile=last)

    def _discard(self, seat: int, tile: Tile) -> None:
        p = self.players[seat]
        p.add(tile, -1)
        p.discards.append(tile)
        p.turns += 1
        self._emit("discard", seat=seat, tile=_NAME(tile))
        context = set()
        if self.after_kong:
            context.add("kong_discard")
        if "last_tile" in self.draw_ctx:
            context.add("last_tile")
        self.drawn = None
        self.draw_ctx = _EMPTY
        self.after_kong = False
        kinds = ("win", "kong", "pung", "chow") if self.wall.drawable else ("win",)
        self._open_round(tile, seat, frozenset(context), kinds, "discard")

    # --- claims -----------------------------------------------------------------------------

    def _order_from(self, seat: int) -> list[int]:
        """Seats still in the hand after ``seat``, nearest first."""
        return [s for i in range(1, self.n) if self.players[s := (seat + i) % self.n].in_game]

    def _claim_allowed(self, kind: str, seat: int, discarder: int, tile: Tile) -> bool:
        spec = self.rules.claims.get(kind)
        if spec is None:
            return False
        source, when = spec
        if source == "previous" and self._order_from(discarder)[:1] != [seat]:
            return False
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
        suit, rank = divmod(tile, RANKS)
        must = self._must_win()
        for seat in self._order_from(discarder):
            p = self.players[seat]
            counts = p.counts
            acts: list[Action] = []
            if "win" in kinds and self._claim_allowed("win", seat, discarder, tile):
                keys = shapes.add_tile(p.keys, tile)
                first = (
                    not self.claims_made and p.turns == 0 and self.players[discarder].turns <= 1
                    and then == "discard"
                )  # fmt: skip
                value = self._value(seat, keys, tile, discarder, context, first)
                if value is not None:
                    values[seat] = value
                    if not self._missed_lock(p, tile, value):
                        acts.append(Action("win", tile))
                        if must:
                            options[seat] = acts
                            continue
            if not p.locked and p.void != suit:
                n = counts[tile]
                if (
                    n == 3
                    and "kong" in kinds
                    and self.rules.kongs_allowed
                    and self._claim_allowed("kong", seat, discarder, tile)
                ):
                    keys = shapes.add_tile(p.keys, tile, -3)
                    acts.extend(
                        Action("kong", tile, name)
                        for name in self._replacements_for(seat, keys, len(p.melds) + 1)
                    )
                if (
                    n >= 2
                    and "pung" in kinds
                    and self._claim_allowed("pung", seat, discarder, tile)
                ):
                    acts.append(Action("pung", tile))
                if "chow" in kinds and self._claim_allowed("chow", seat, discarder, tile):
                    base = suit * RANKS
                    for low in range(max(0, rank - 2), min(rank, self.rules.ranks - 3) + 1):
                        run = (base + low, base + low + 1, base + low + 2)
                        if all(t == tile or counts[t] for t in run):
                            acts.append(Action("chow", run[0]))
            if acts:
                options[seat] = [*acts, PASS]
        rnd = Round(tile, discarder, context, then, options, list(options), values, data)
        self.round = rnd
        if options:
            self.phase = "claim"
        else:
            self._resolve(rnd)

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
                p.lock_tiles.add(rnd.tile)
            elif mode == "not_lower_value":
                p.lock_value = max(p.lock_value, rnd.values[seat])
        if not rnd.queue:
            self._resolve(rnd)

    def _resolve(self, rnd: Round) -> None:
        order = self._order_from(rnd.discarder)
        chosen = rnd.choices
        winners = [s for s in order if s in chosen and chosen[s].kind == "win"]
        if winners:
            if self.rules.multiple_winners == "nearest":
                winners = winners[:1]
            self._win(tuple(winners), (rnd.tile,), rnd.discarder, rnd.context, rnd.then)
            return
        priority = self.rules.priority
        melds = sorted(
            (priority.index(chosen[s].kind), i, s)
            for i, s in enumerate(order)
            if s in chosen and chosen[s].kind in ("kong", "pung", "chow")
        )
        if melds:
            seat = melds[0][2]
            self._claim(seat, chosen[seat], rnd)
            return
        self._round_done(rnd)

    def _round_done(self, rnd: Round) -> None:
        if rnd.then == "discard":
            self._start_turn(
                self._order_from(rnd.discarder)[0] if len(self._in_game()) > 1 else rnd.discarder
            )
        elif rnd.then == "rob":
            seat, _, option, kind = rnd.data
            self._complete_kong(seat, kind, None, option)
        elif rnd.then == "last":
            self._next_offer(rnd.discarder)
        elif rnd.then == "kong_tile":
            seat, tiles, index = rnd.data
            self._kong_tile_discards(seat, tiles, index + 1)
        else:
            raise AssertionError(rnd.then)

    def _claim(self, seat: int, action: Action, rnd: Round) -> None:
        tile = rnd.tile
        self._take_discard(rnd.discarder, tile)
        self._rest_of_kong_tiles(rnd)
        p = self.players[seat]
        self.claims_made = True
        if self.rules.missed_win_until == "own_action":
            p.clear_lock()
        self._emit(
            "claim", seat=seat, kind=action.kind, tile=_NAME(action.tile), **{"from": rnd.discarder}
        )
        self.round = None
        self.current = seat
        self.drawn = None
        self.draw_ctx = _EMPTY
        self.after_kong = False
        if action.kind == "pung":
            p.add(tile, -2)
            p.melds.append(HandMeld("pung", tile, False))
        elif action.kind == "chow":
            for t in (action.tile, action.tile + 1, action.tile + 2):
                if t != tile:
                    p.add(t, -1)
            p.melds.append(HandMeld("chow", action.tile, False))
        else:
            p.add(tile, -3)
            p.melds.append(HandMeld("kong", tile, False))
            self._emit(
                "kong", seat=seat, kind="direct", tile=_NAME(tile), **{"from": rnd.discarder}
            )
            self._complete_kong(seat, "direct", rnd.discarder, action.option)
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

    # --- kongs ------------------------------------------------------------------------------

    def _self_kong(self, seat: int, tile: Tile, option: str) -> None:
        p = self.players[seat]
        r = self.rules
        self.claims_made = True
        if p.counts[tile] == 4:
            kind = "concealed"
            p.add(tile, -4)
            p.melds.append(HandMeld("kong", tile, True))
            robbable = r.rob_concealed
        else:
            kind = "added"
            p.add(tile, -1)
            index = next(i for i, m in enumerate(p.melds) if m.kind == "pung" and m.tile == tile)
            p.melds[index] = HandMeld("kong", tile, False)
            robbable = r.rob_added
        self.drawn = None
        self.draw_ctx = _EMPTY
        shown = kind != "concealed" or r.concealed_shown
        self._emit("kong", seat=seat, kind=kind, tile=_NAME(tile) if shown else None)
        if robbable:
            data = (seat, tile, option, kind)
            self._open_round(tile, seat, frozenset(("robbing_kong",)), ("win",), "rob", data)
        else:
            self._complete_kong(seat, kind, None, option)

    def _complete_kong(self, seat: int, kind: str, provider: int | None, option: str) -> None:
        self.round = None
        kong = Kong(seat, kind, provider)
        self.kongs.append(kong)
        if self.rules.kong_payments:
            self._record(settle(self.ruleset, self._scenario((), (), kongs=(kong,))))
        self._replace(seat, option, provider)

    def _replace(self, seat: int, name: str, provider: int | None) -> None:
        rep = next(x for x in self.rules.replacements if x.name == name)
        w = self.wall
        p = self.players[seat]
        if w.drawable == 0:
            self._end("wall")
            return
        dice: list[int] = []
        tiles: list[Tile] = []
        if rep.source == "front":
            tiles = [w.draw_front() for _ in range(min(rep.tiles, w.drawable))]
        elif rep.source == "tail":
            tiles = [w.draw_tail(rep.order) for _ in range(min(rep.tiles, w.drawable))]
        else:
            stacks = w.stacks_from_tail()
            chosen: int | None = stacks[-1]
            for _ in range(20):
                a, b = self.rng.randint(1, 6), self.rng.randint(1, 6)
                one = rep.dice == "one_die" or (
                    rep.dice == "one_die_below_12_stacks" and len(stacks) < 12
                )
                dice = [a] if one else [a, b]
                count = sum(dice)
                if count <= len(stacks):
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
        self.after_kong = True
        self.kong_provider = provider
        self.kong_self_draw = rep.self_draw or provider is None
        self.kong_method = rep
        p.clear_lock()
        if rep.locks_hand:
            p.locked = True
        self.current = seat
        if not tiles:
            self._start_turn(self._order_from(seat)[0])
        elif rep.into_hand:
            p.add(tiles[0])
            self.drawn = tiles[0]
            self.draw_ctx = frozenset(("kong_draw",))
            self.phase = "turn"
        else:
            self.kong_tiles = list(tiles)
            self.drawn = None
            self.draw_ctx = frozenset(("kong_draw",))
            self.phase = "kong_tiles"

    def _phase_win(self, seat: int) -> Action | None:
        """The win open to the seat deciding on a last tile or on kong tiles, if any."""
        p = self.players[seat]
        if self.phase == "last_turn":
            assert self.drawn is not None
            first = False
            value = self._value(seat, p.keys, self.drawn, None, self.draw_ctx, first)
            return None if value is None else Action("win", self.drawn)
        if any(self._kong_tile_wins(seat)):
            return Action("win")
        return None

    def _kong_tile_wins(self, seat: int) -> list[Tile]:
        p = self.players[seat]
        discarder = None if self.kong_self_draw else self.kong_provider
        ctx = self.draw_ctx
        return [
            t
            for t in self.kong_tiles
            if self._value(seat, shapes.add_tile(p.keys, t), t, discarder, ctx, False) is not None
        ]

    def _do_kong_tiles(self, seat: int, action: Action) -> None:
        if action.kind == "win":
            tiles = tuple(self._kong_tile_wins(seat))
            discarder = None if self.kong_self_draw else self.kong_provider
            self._win((seat,), tiles, discarder, self.draw_ctx, "kong_tiles")
            return
        tiles = list(self.kong_tiles)
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
            tile, seat, frozenset(("kong_discard",)), kinds, "kong_tile", (seat, tiles, index)
        )

    # --- the last tiles (海底) ----------------------------------------------------------------

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
        self._phase("last_offer", seat)

    def _do_last_offer(self, seat: int, action: Action) -> None:
        if action.kind == "pass":
            self.offer_passes += 1
            self._offer((seat + 1) % self.n)
            return
        tile = self.wall.draw_front()
        p = self.players[seat]
        p.add(tile)
        p.clear_lock()
        self.last_drawn.append(tile)
        self.drawn = tile
        self.draw_ctx = frozenset(("last_tile",))
        self._emit("draw", seat=seat, tile=_NAME(tile), source="front", last_tile=True)
        self.phase = "last_turn"

    def _do_last_turn(self, seat: int, action: Action) -> None:
        tile = self.drawn
        assert tile is not None
        if action.kind == "win":
            self._win((seat,), (tile,), None, self.draw_ctx, "self")
            return
        p = self.players[seat]
        p.add(tile, -1)
        p.discards.append(tile)
        self._emit("discard", seat=seat, tile=_NAME(tile), exposed=True)
        self.drawn = None
        self._open_round(tile, seat, frozenset(("last_tile",)), ("win",), "last")

    def _next_offer(self, taker: int) -> None:
        if self.wall.drawable == 0:
            self._end("wall")
            return
        self.offer_passes = 0
        self._offer(self._order_from(taker)[0] if len(self._in_game()) > 1 else taker)

    # --- wins and settlement ----------------------------------------------------------------

    def _scenario(
        self, wins: tuple[Win, ...], birds: tuple[Tile, ...], kongs: tuple[Kong, ...] = (),
        unfinished: tuple[Unfinished, ...] = (),
    ) -> Scenario:  # fmt: skip
        return Scenario(
            path="<engine>", ruleset=self.ruleset.id, options={}, players=self.n,
            dealer=self.dealer, wins=wins, birds=birds, bird_dice=(), kongs=kongs,
            in_game=self._in_game(), unfinished=unfinished, raw={},
        )  # fmt: skip

    def _record(self, settlement: Settlement) -> None:
        self.settlements.append(settlement)
        for pay in settlement.payments:
            self.deltas[pay.payer] -= pay.amount
            self.deltas[pay.payee] += pay.amount
            self._emit("payment", amount=pay.amount, reasons=list(pay.reasons),
                       **{"from": pay.payer, "to": pay.payee})  # fmt: skip

    def _birds(
        self, first_seat: int, discarder: int | None, context: frozenset[str], ends: bool
    ) -> tuple[Tile, ...]:
        count_expr = self.rules.bird_count
        if count_expr is None:
            return ()
        base = Situation(
            keys=(0,) * len(STANDARD.suits), dealer=self.dealer, players=self.n,
            options=self.rules.options, winner=first_seat, discarder=discarder,
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
    ) -> None:  # fmt: skip
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
                    tuple(p.melds),
                    tiles,
                    discarder,
                    frozenset(ctx),
                    _NOWHERE,
                )
            )
        left_after = len(self._in_game()) - (len(winners) if r.mode == "until_one_left" else 0)
        ends = r.mode == "first_win" or (r.mode == "until_one_left" and left_after <= 1)
        birds = self._birds(winners[0], discarder, context, ends)
        settlement = settle(self.ruleset, self._scenario(tuple(wins), birds))
        self._emit(
            "win", seats=list(winners), tiles=[_NAME(t) for t in tiles],
            context=sorted(context), hands=settlement.to_json()["wins"], **{"from": discarder},
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
        elif source == "kong_tiles":
            for t in tiles:
                self.kong_tiles.remove(t)
            for t in list(self.kong_tiles):
                self.kong_tiles.remove(t)
                self.players[winners[0]].discards.append(t)
                self._emit("discard", seat=winners[0], tile=_NAME(t), claimable=False)
        elif source == "rob":
            assert rnd is not None
            seat, tile, _, _ = rnd.data
            robbed = self.players[seat]
            index = next(
                i for i, m in enumerate(robbed.melds) if m.kind == "kong" and m.tile == tile
            )
            if robbed.melds[index].concealed:
                robbed.melds.pop(index)
                robbed.add(tile, 3)
            else:
                robbed.melds[index] = HandMeld("pung", tile, False)
        else:
            assert discarder is not None
            self._take_discard(discarder, tiles[0])
        first.won.extend(tiles)
        self.round = None
        self.kong_tiles = []
        self.drawn = None
        self.draw_ctx = _EMPTY
        self.after_kong = False
        if ends:
            self._end("win" if r.mode == "first_win" else "one_left")
            return
        if r.mode == "until_one_left":
            for s in winners:
                self.players[s].in_game = False
        last = winners[-1]
        if source == "last":
            self._next_offer(last)
            return
        self._start_turn(self._order_from(last)[0] if self._order_from(last) else last)

    # --- the end ----------------------------------------------------------------------------

    def _next_dealer(self) -> int:
        expr = self.rules.next_dealer
        if expr is None:
            return self.dealer
        winners: tuple[int, ...] = self.win_events[0][0] if self.win_events else ()
        discarder = self.win_events[0][1] if self.win_events else None
        situation = Situation(
            keys=(0,) * len(STANDARD.suits), dealer=self.dealer, players=self.n,
            options=self.rules.options, winners=frozenset(winners),
            winner=winners[0] if winners else self.dealer, discarder=discarder,
        )  # fmt: skip
        return int(expr(situation)) % self.n

    def _end_of_wall(self) -> None:
        """The wall ran out with players still in: the ruleset's end checks (查叫, 花猪, 退税).

        Settled with the kongs of the players still in, so that refunds can be worked out;
        the kong money itself was paid when each kong was made and is left out here.
        """
        rules = self.ruleset.get("settlement") or {}
        checks = (rules.get("ready_check") or {}, rules.get("flower_pig") or {})
        if not (rules.get("refund") or any(c.get("enabled") for c in checks)):
            return
        still_in = self._in_game()
        unfinished = tuple(
            Unfinished(s, tuple(self.players[s].hand()), tuple(self.players[s].melds), _NOWHERE)
            for s in sorted(still_in)
        )
        kongs = tuple(k for k in self.kongs if k.seat in still_in)
        settlement = settle(self.ruleset, self._scenario((), (), kongs, unfinished))
        kong_money = len(_kong_only(self.ruleset, self._scenario((), (), kongs)).payments)
        self._record(replace(settlement, payments=settlement.payments[kong_money:]))

    def _end(self, reason: str) -> None:
        if reason == "wall":
            self._end_of_wall()
        self.phase = "over"
        self.round = None
        self.reason = reason
        self._emit(
            "end", reason=reason, deltas=list(self.deltas),
            winners=[s for seats, _ in self.win_events for s in seats],
            next_dealer=self._next_dealer(),
            hands=[_fmt(p.hand()) for p in self.players], wall=self.wall.drawable,
        )  # fmt: skip


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


def _kong_only(ruleset: Ruleset, scenario: Scenario) -> Settlement:
    return settle(ruleset, scenario) if scenario.kongs else Settlement(scenario.players, (), ())


def run(game: Game, agents: list[Any]) -> GameResult:
    """Play ``game`` to its end, asking each seat's agent for its decisions."""
    while (seat := game.to_move()) is not None:
        legal = game.legal_actions(seat)
        game.apply(agents[seat].act(game.observation(seat), legal), seat)
    return game.result()
