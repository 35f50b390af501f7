"""One hand of mahjong played by the ruleset's mechanics.

A :class:`Game` is created from a ruleset, a seed and the dealer's seat.  It deals, then
waits for decisions: ``to_move()`` says whose, ``legal_actions(seat)`` what they may do,
``observation(seat)`` what that seat may see, ``apply(action)`` carries one out.  Every
win is settled by ``interpreter.settle`` from a :class:`~interpreter.scenario.Scenario`
built here; kong money likewise.  Everything random comes from ``random.Random(seed)``,
so a game is a pure function of (ruleset, options, seed, dealer, decisions), and its event
list (``events``) is the same, byte for byte, every time.

Phases: ``exchange`` (each seat gives tiles, then they pass in one direction), ``void``
(定缺 declarations) — both chosen at once, each seat's choice unseen until all have
chosen — ``turn`` (the player to move has drawn or claimed),
``claim`` (others answer a discard, a robbable kong, an exposed last tile, a kong tile),
``last_offer`` (the last tile(s) offered in turn, 海底漫游), ``last_turn`` (the taker of
the last tile(s) decides), ``kong_tiles`` (replacement tiles shown apart decide), ``over``.

The parts of a hand live in modules named by what they answer: ``deal`` (the deal and
opening hands), ``claims`` (claim rounds), ``kongs`` (kongs and replacement draws),
``wins`` (does a hand win, settling a win), ``wall_end`` (the last tiles, a drawn end),
``observation`` (what a seat sees).  This module holds the turn and the public contract.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from itertools import compress
from random import Random
from typing import Any

from dsl.ruleset import Ruleset
from dsl.situation import Situation
from interpreter.engine.actions import DISCARDS, PASS, Action
from interpreter.engine.claims import Claims
from interpreter.engine.deal import Deal, deal_order
from interpreter.engine.events import SCHEMA_VERSION
from interpreter.engine.facts import dealer_dice, lift_locks, next_dealer_seat, table_facts
from interpreter.engine.kongs import Kongs
from interpreter.engine.observation import Observation
from interpreter.engine.rules import Replacement, Rules
from interpreter.engine.state import (
    EMPTY,
    SUIT_LETTERS,
    GameResult,
    IllegalAction,
    Player,
    Round,
    tile_name,
)
from interpreter.engine.wall import Wall
from interpreter.engine.wall_end import WallEnd
from interpreter.engine.wins import Wins
from interpreter.scenario import Kong
from interpreter.settle import Settlement, ruleset_memo
from interpreter.tiles import RANKS, STANDARD, Tile

_NAME = tile_name
_DISCARD_CONTEXTS = {
    (after_kong, last): frozenset(
        name for name, flag in (("kong_discard", after_kong), ("last_tile", last)) if flag
    )
    for after_kong in (False, True)
    for last in (False, True)
}
"""A discard's context: after a kong (杠后打), of the last tile."""

__all__ = ["Game", "GameResult", "IllegalAction", "Player", "Round", "deal_order", "run"]


class Game(Deal, Wins, Claims, Kongs, WallEnd):
    def __init__(
        self,
        ruleset: Ruleset,
        seed: int,
        dealer: int = 0,
        *,
        rules: Rules | None = None,
        hand: int = 0,
        wall: Sequence[Tile] | None = None,
        first_dealer: int | None = None,
        dealers: Collection[int] = (),
    ) -> None:
        """``wall``: the tiles in draw order from the front, for scripted games (tests);
        by default the ruleset's tiles are shuffled and broken by the dice.
        ``first_dealer``: who dealt the match's first hand (this hand's dealer by default);
        ``dealers``: more seats dealing this hand with ``dealer`` (通庄)."""
        self.ruleset = ruleset
        self.rules = r = rules or Rules(ruleset)
        if not 0 <= dealer < r.players:
            raise ValueError(f"dealer {dealer} is not a seat 0..{r.players - 1}")
        self.seed = seed
        self.rng = Random(seed)
        self.dealer = dealer
        self.dealers = frozenset({dealer, *dealers})
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
        self.draw_ctx: frozenset[str] = EMPTY
        self.kong_provider: int | None = None
        self.kong_self_draw = True
        self.after_kong = False
        self.claims_made = False
        self.round: Round | None = None
        self.kong_tiles: list[Tile] = []
        """Tiles shown apart: a kong's replacement tiles, or 海底 tiles taken together."""
        self.kong_method: Replacement | None = None
        self.last_drawn: list[Tile] = []
        self.offer_passes = 0
        self.birds_taken: list[Tile] = []
        self.kongs: list[Kong] = []
        """Kongs made whose money their maker still holds (for transfers and refunds)."""
        self.reason = ""
        self.next_dealer = dealer
        """Who deals the next hand, worked out when the hand ends."""
        self.next_dealers = frozenset({dealer})
        self._legal: tuple[int, list[Action]] | None = None
        self.opening_due: Settlement | None = None
        """Opening-hand payments kept for the end of the hand (``settle: at_end``)."""
        self.held: dict[int, Action] = {}
        """Choices made at once (``_choose_at_once``), unseen until every seat has chosen."""
        self.exchanged: dict[int, tuple[list[Tile], list[Tile]]] = {}
        """Each seat's (given, received) tiles once the exchange is done."""
        self.win_values: dict[tuple[Any, ...], int | None] = {}
        """Win values worked out in this hand, by everything they depend on."""
        self.in_game_seats: frozenset[int] = frozenset()
        self.orders: list[list[int]] = []
        self.claimers: dict[str, list[list[int]]] = {}
        self.facts = table_facts(ruleset, dealer if first_dealer is None else first_dealer)
        self._seating()
        found = {"ruleset_file": ruleset.given_path} if ruleset.given_path else {}
        if len(self.dealers) > 1:
            found["dealers"] = sorted(self.dealers)
        self._emit(
            "start", version=SCHEMA_VERSION, ruleset=ruleset.id, ruleset_sha256=ruleset.sha256,
            **found, options=dict(r.option_settings), seed=seed, hand=hand, dealer=dealer,
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
        return list(self._legal_now(seat))

    def _legal_now(self, seat: int) -> list[Action]:
        """The legal actions of ``seat``, whose decision it is, worked out once (do not change
        the list)."""
        legal = self._legal
        if legal is None or legal[0] != seat:
            legal = self._legal = (seat, self._compute_legal(seat))
        return legal[1]

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Carry out ``action`` for the seat to move; an illegal one raises and changes nothing."""
        mover = self.to_move()
        if mover is None:
            raise IllegalAction("the hand is over: no action is legal")
        if seat is not None and seat != mover:
            raise IllegalAction(f"it is seat {mover}'s decision, not seat {seat}'s")
        legal = self._legal_now(mover)
        if not isinstance(action, Action) or action not in legal:
            raise IllegalAction(
                f"seat {mover} cannot {action} now (phase {self.phase}); legal: "
                + ", ".join(str(a) for a in legal)
            )
        self._legal = None
        self._emit("act", seat=mover, action=action.to_json())
        getattr(self, "_do_" + self.phase)(mover, action)

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may see: its own hand, everyone's melds and discards, the public state.

        A read-only mapping whose fields are worked out when first read (see
        ``observation.FIELDS``); read it before the next ``apply``."""
        return Observation(self, seat)

    def result(self) -> GameResult:
        if self.phase != "over":
            raise ValueError("the hand is not over")
        winners = tuple(s for seats, _ in self.win_events for s in seats)
        return GameResult(
            self.reason, self.dealer, self.next_dealer, winners, tuple(self.deltas),
            tuple(self.settlements), self.next_dealers,
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
        if phase == "exchange":
            return self._exchange_actions(seat)
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

    def _turn_actions(self, seat: int) -> list[Action]:
        p = self.players[seat]
        r = self.rules
        actions: list[Action] = []
        drawn = self.drawn
        if drawn is not None:
            first = not self.claims_made and p.turns == 0
            discarder = self._self_discarder()
            value = self._value(seat, drawn, discarder, self.draw_ctx, first, in_hand=True)
            if value is not None:
                actions.append(Action("win", drawn))
                if self._must_win():
                    return actions
            if r.kongs_allowed:
                actions.extend(self._self_kongs(seat, drawn))
        elif r.kong_after_claim and r.kongs_allowed:  # right after a chow or pung
            actions.extend(self._self_kongs(seat, None))
        counts = p.counts
        if p.locked and drawn is not None:
            actions.append(DISCARDS[drawn])
            return actions
        if p.void is not None:
            start = p.void * RANKS
            void = [DISCARDS[t] for t in range(start, start + RANKS) if counts[t]]
            if void:
                actions.extend(void)
                return actions
        actions.extend(compress(DISCARDS, counts))
        return actions

    # --- turn -------------------------------------------------------------------------------

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
        lift_locks(self, seat, "draw")
        self.facts.drew(seat, last)
        self.current = seat
        self.phase = "turn"
        self.drawn = tile
        self.draw_ctx = frozenset(("last_tile",)) if last else EMPTY
        self.after_kong = False
        self.kong_self_draw = True  # a front draw: nobody pays as for a kong's replacement
        self._emit("draw", seat=seat, tile=_NAME(tile), source="front", last_tile=last)

    def _discard(self, seat: int, tile: Tile) -> None:
        p = self.players[seat]
        p.add(tile, -1)
        p.discards.append(tile)
        p.turns += 1
        self._emit("discard", seat=seat, tile=_NAME(tile))
        lift_locks(self, seat, "discard")
        context = _DISCARD_CONTEXTS[self.after_kong, "last_tile" in self.draw_ctx]
        self.drawn = None
        self.draw_ctx = EMPTY
        self.after_kong = False
        kinds = ("win", "kong", "pung", "chow") if self.wall.drawable else ("win",)
        self._open_round(tile, seat, context, kinds, "discard")

    # --- the end ----------------------------------------------------------------------------

    def _next_dealer(self) -> tuple[int, frozenset[int]]:
        """``dealer.next`` and the seats dealing with it (``dealer.also``), worked out once per
        ruleset for each table they read."""
        expr = self.rules.next_dealer
        if expr is None:
            return self.dealer, frozenset({self.dealer})
        winners: tuple[int, ...] = self.win_events[0][0] if self.win_events else ()
        discarder = self.win_events[0][1] if self.win_events else None
        memo = ruleset_memo(self.ruleset, "next dealer")
        seats = self.facts.for_dealer()
        first = self.facts.first_dealer
        dice = dealer_dice(self)
        key = (self.dealer, winners, discarder, first, dice, *seats.values())
        if key not in memo:
            situation = Situation(
                keys=(0,) * len(STANDARD.suits), dealer=self.dealer, players=self.n,
                options=self.rules.options, winners=frozenset(winners),
                winner=winners[0] if winners else self.dealer, discarder=discarder,
                self_draw=bool(winners) and discarder is None, first_dealer=first, dice=dice,
                **seats,
            )  # fmt: skip
            seat = next_dealer_seat(int(expr(situation)), self.n)
            also = self.rules.also_dealers
            memo[key] = seat, frozenset({seat, *(also(situation) if also is not None else ())})
        return memo[key]

    def _end(self, reason: str) -> None:
        if self.opening_due is not None:
            self._record(self.opening_due)
            self.opening_due = None
        if reason == "wall":
            self._end_of_wall()
        self.phase = "over"
        self.round = None
        self.reason = reason
        self.next_dealer, self.next_dealers = self._next_dealer()
        several = {"next_dealers": sorted(self.next_dealers)} if len(self.next_dealers) > 1 else {}
        self._emit(
            "end", reason=reason, deltas=list(self.deltas),
            winners=[s for seats, _ in self.win_events for s in seats],
            next_dealer=self.next_dealer,
            hands=[p.notation() for p in self.players], wall=self.wall.drawable, **several,
        )  # fmt: skip


def run(game: Game, agents: list[Any]) -> GameResult:
    """Play ``game`` to its end, asking each seat's agent for its decisions."""
    while (seat := game.to_move()) is not None:
        legal = game.legal_actions(seat)
        game.apply(agents[seat].act(game.observation(seat), legal), seat)
    return game.result()
