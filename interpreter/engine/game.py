"""One hand of mahjong played by the ruleset's mechanics.

A :class:`Game` is created from a ruleset, a seed and the dealer's seat.  It deals, then
waits for decisions: ``to_move()`` says whose, ``legal_actions(seat)`` what they may do,
``observation(seat)`` what that seat may see, ``apply(action)`` carries one out.  Every
win is settled by ``interpreter.settle`` from a :class:`~interpreter.hand_record.HandRecord`
built from the table; a kong's payments likewise.  Everything random comes from
``random.Random(seed)``, so a game is a pure function of (ruleset, options, seed, dealer,
decisions), and its event list (``events``) is the same, byte for byte, every time.

How it is built: the hand is one plain record, :class:`~interpreter.engine.state.Table`
(``Game.state``); each phase is a :class:`~interpreter.engine.state.Phase` (its legal
actions and its action, plain functions of the table) in ``PHASES``, keyed by the phase
name, and ``Game`` is a thin façade that looks the phase up and calls it.  The phases:

- before the deal and after it, one phase per choice of the ruleset (``choices``: 换三张,
  定缺, 飘 ...), named after it and handled by ``choices.CHOICE``: every seat chooses at
  once;
- ``turn`` (``turn``: the player to move has drawn or claimed), ``claim`` (``claims``:
  others answer a discard, a robbable kong, an exposed last tile, a kong tile),
  ``kong_tiles`` (``kongs``: replacement tiles shown apart), ``last_offer`` and
  ``last_turn`` (``wall_end``: the last tiles offered in turn), then ``over``.

The modules stand in layers, each importing only modules after it in this order:
``penalties`` (a seat leaving, a false win claim: actions no bot takes), ``turn``,
``claims`` (the claim phase), ``kongs``, ``wall_end``, ``rounds`` (claim rounds opened),
``deal``, ``choices`` (the choice phases), ``legal`` (what a seat may do),
``wins`` (what a win is worth; carrying it out), ``flow`` (draws, the next turn, the end),
``declarations`` (hands declared during play), ``payments`` (settlement recorded), then
``state``, ``facts`` (the table facts rules read, recorded as play goes), ``rules``,
``events`` (one typed constructor per event type), ``wall``.  A claim round carries what
play does when nobody claims (``Round.after``), and the choices of a moment what play does
after them (``Choosing.then``), so opening one needs nothing above ``rounds`` or
``choices``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterator, Sequence
from operator import attrgetter
from random import Random
from typing import Any

from dsl.ruleset import Ruleset
from handcore.shapes import keys_of
from handcore.tiles import Tile
from interpreter.engine import penalties
from interpreter.engine.actions import Action
from interpreter.engine.choices import CHOICE, start_choices
from interpreter.engine.claims import CLAIM
from interpreter.engine.deal import deal, deal_order
from interpreter.engine.events import act as act_event
from interpreter.engine.events import start as start_event
from interpreter.engine.facts import table_facts
from interpreter.engine.kongs import KONG_TILES
from interpreter.engine.observation import Observation
from interpreter.engine.rules import Rules
from interpreter.engine.state import (
    GameResult,
    IllegalAction,
    Phase,
    Player,
    Round,
    Table,
    seating,
    to_move,
)
from interpreter.engine.turn import TURN
from interpreter.engine.wall import Wall
from interpreter.engine.wall_end import LAST_OFFER, LAST_TURN

__all__ = [
    "PHASES", "Game", "GameResult", "IllegalAction", "Player", "Round", "deal_order", "run",
]  # fmt: skip

PHASES: dict[str, Phase] = {
    "turn": TURN,
    "claim": CLAIM,
    "kong_tiles": KONG_TILES,
    "last_offer": LAST_OFFER,
    "last_turn": LAST_TURN,
}
"""Every phase of play in which a seat decides, by name; a game adds one per choice its
ruleset makes (``phases``)."""


def phases(rules: Rules) -> dict[str, Phase]:
    """The phases of a game under ``rules``: those of play, and each choice's, named after it."""
    made = [c.name for at in rules.choices.values() for c in at]
    return {**PHASES, **dict.fromkeys(made, CHOICE)} if made else PHASES


def _read(name: str) -> Any:
    """A field of the table, read through the game (views, environments and tests read
    them; only actions change them)."""
    return property(attrgetter("state." + name), doc=f"The table's ``{name}`` (read only).")


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
        first_dealer: int | None = None,
        dealers: Collection[int] = (),
    ) -> None:
        """``wall``: the tiles in draw order from the front, for scripted games (tests);
        by default the ruleset's tiles are shuffled and broken by the dice.
        ``first_dealer``: who dealt the match's first hand (this hand's dealer by default);
        ``dealers``: more seats dealing this hand with ``dealer`` (通庄)."""
        r = rules or Rules(ruleset)
        if not 0 <= dealer < r.players:
            raise ValueError(f"dealer {dealer} is not a seat 0..{r.players - 1}")
        n = r.players
        ts = r.tileset
        kinds = ts.kinds
        rng = Random(seed)
        several = frozenset({dealer, *dealers})
        start = start_event(ruleset, r.option_settings, seed, hand, dealer, n, several)
        if wall is None:
            built = Wall.built(r.all_tiles, rng, n, r.reserved)
        elif Counter(wall) != Counter(r.all_tiles):
            raise ValueError("a scripted wall must hold the ruleset's tiles, each copy once")
        else:
            built = Wall(wall, r.reserved)
        self.state = t = Table(
            ruleset=ruleset, rules=r, seed=seed, rng=rng, dealer=dealer, n=n, wall=built,
            players=[Player([0] * kinds, keys_of([0] * kinds, ts)) for _ in range(n)],
            events=[start], current=dealer, deltas=[0] * n, next_dealer=dealer,
            facts=table_facts(ruleset, dealer if first_dealer is None else first_dealer),
            dealers=several, next_dealers=frozenset({dealer}),
        )  # fmt: skip
        self.phases = phases(r)
        seating(t)
        start_choices(t, "before_deal", deal)

    ruleset = _read("ruleset")
    rules = _read("rules")
    seed = _read("seed")
    rng = _read("rng")
    dealer = _read("dealer")
    n = _read("n")
    wall = _read("wall")
    players = _read("players")
    events = _read("events")
    deltas = _read("deltas")
    settlements = _read("settlements")
    win_events = _read("win_events")
    phase = _read("phase")
    current = _read("current")
    drawn = _read("drawn")
    round = _read("round")
    kongs = _read("kongs")
    kong_tiles = _read("kong_tiles")
    held = _read("held")
    exchanged = _read("exchanged")
    dealers = _read("dealers")
    facts = _read("facts")
    choosing = _read("choosing")
    chosen = _read("chosen")

    # --- the public contract ----------------------------------------------------------------

    def to_move(self) -> int | None:
        """The seat whose decision it is, or None when the hand is over."""
        return to_move(self.state)

    def is_over(self) -> bool:
        return self.state.phase == "over"

    def legal_actions(self, seat: int) -> list[Action]:
        """What ``seat`` may do now (empty unless it is that seat's decision)."""
        if seat != to_move(self.state):
            return []
        return list(self._legal_now(seat))

    def _legal_now(self, seat: int) -> list[Action]:
        """The legal actions of ``seat``, whose decision it is, worked out once (do not change
        the list)."""
        t = self.state
        legal = t.legal
        if legal is None or legal[0] != seat:
            legal = t.legal = (seat, self.phases[t.phase].legal(t, seat))
        return legal[1]

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Carry out ``action`` for the seat to move; an illegal one raises and changes nothing.

        Besides the legal actions, the seat to move may leave the hand (``escape``) or claim
        a win its hand does not make (``false_win``): see ``penalties``."""
        t = self.state
        mover = to_move(t)
        if mover is None:
            raise IllegalAction("the hand is over: no action is legal")
        if seat is not None and seat != mover:
            raise IllegalAction(f"it is seat {mover}'s decision, not seat {seat}'s")
        legal = self._legal_now(mover)
        if isinstance(action, Action) and action.kind in penalties.ACTIONS:
            why = penalties.refusal(t, action, legal)
            if why is not None:
                raise IllegalAction(f"seat {mover} cannot {action} now: {why}")
            t.legal = None
            t.events.append(act_event(mover, action.to_json()))
            penalties.carry_out(t, mover, action)
            return
        if not isinstance(action, Action) or action not in legal:
            raise IllegalAction(
                f"seat {mover} cannot {action} now (phase {t.phase}); legal: "
                + ", ".join(str(a) for a in legal)
            )
        t.legal = None
        t.events.append(act_event(mover, action.to_json()))
        self.phases[t.phase].act(t, mover, action)

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may see: its own hand, everyone's melds and discards, the public state.

        A read-only mapping whose fields are worked out when first read (see
        ``observation.FIELDS``); read it before the next ``apply``."""
        return Observation(self.state, seat)

    def result(self) -> GameResult:
        t = self.state
        if t.phase != "over":
            raise ValueError("the hand is not over")
        winners = tuple(s for seats, _ in t.win_events for s in seats)
        return GameResult(
            t.reason, t.dealer, t.next_dealer, winners, tuple(t.deltas), tuple(t.settlements),
            t.next_dealers,
        )  # fmt: skip

    def census(self) -> Counter[Tile]:
        """Every tile by where it is; the sum is the tile set exactly once (a test invariant)."""
        return census(self.state)


def census(t: Table) -> Counter[Tile]:
    """Every tile of the table ``t`` by where it is: wall, hands and every tile face up
    (:func:`face_up`)."""
    found: Counter[Tile] = Counter(t.wall.remaining())
    for p in t.players:
        found.update({tile: n for tile, n in enumerate(p.counts) if n})
    for tiles in face_up(t):
        found.update(tiles)
    return found


def face_up(t: Table, shown: Callable[[int, Any], bool] = lambda q, meld: True) -> Iterator[Any]:
    """The tiles out of wall and hands, a group at a time: melds (those ``shown(seat,
    meld)`` accepts), rivers, tiles won, flowers, tiles set apart, birds and the indicator
    of the wild tiles.  The one list of those places, for the census and for what a seat
    cannot see."""
    for q, p in enumerate(t.players):
        yield from (m.tiles for m in p.melds if shown(q, m))
        yield p.discards
        yield p.won
        yield p.flowers
    yield t.kong_tiles
    yield t.birds_taken
    if t.indicator is not None:
        yield (t.indicator,)


def run(game: Game, agents: list[Any]) -> GameResult:
    """Play ``game`` to its end, asking each seat's agent for its decisions."""
    while (seat := game.to_move()) is not None:
        legal = game.legal_actions(seat)
        game.apply(agents[seat].act(game.observation(seat), legal), seat)
    return game.result()
