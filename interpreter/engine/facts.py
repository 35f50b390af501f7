"""What the engine records for the ruleset's facts about the table: who fed the kong being
played on (点杠), who took and who was first offered the last tile, the first dealer
of the match, whether a kong was made with the tile just drawn, the opening hands, and the
seats at the hand's first win (which ``dealer.next`` reads).

The record is :class:`TableFacts`, kept on the table (``Table.facts``); each step of play
that changes one of its facts calls one method of it, so that what is recorded, and when,
stays in one place.  The facts worked out from the table when they are read stand where
they are read: the tiles face up (``wins.visible``), the locks lifted
(``flow.lift_locks``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from random import Random
from typing import Any

from dsl import syntax
from dsl.errors import EvaluationError
from dsl.ruleset import Ruleset
from dsl.situation import NOBODY
from handcore.tiles import Tile
from interpreter.ruleset_memo import ruleset_memo


@dataclass(slots=True)
class TableFacts:
    """The table facts of one hand, as play goes."""

    first_dealer: int
    reads_visible: bool
    """Whether a hand type reads ``visible``: the face-up tiles are counted only then."""
    kong_provider: int = NOBODY
    last_tile_taker: int = NOBODY
    last_tile_offered: int = NOBODY
    kong_from_draw: bool = False
    opening_winners: frozenset[int] = frozenset()
    opening_bird_seats: frozenset[int] = frozenset()
    at_first_win: dict[str, int] | None = None
    """The seat facts when the hand's first win was made (for ``dealer.next``)."""

    def drew(self, seat: int, last: bool) -> None:
        """``seat`` drew from the front: no kong is being played on; ``last``: it drew a
        last tile in its turn (so it was offered one)."""
        self.kong_provider = NOBODY
        if last:
            self.offered(seat)

    def offered(self, seat: int) -> None:
        """The last tile is offered to ``seat`` (the first offer is the one remembered)."""
        if self.last_tile_offered == NOBODY:
            self.last_tile_offered = seat

    def took_last(self, seat: int) -> None:
        self.last_tile_taker = seat

    def replaced(self, provider: int | None) -> None:
        """A kong's replacement is drawn; the kong took ``provider``'s discard (None: none)."""
        self.kong_provider = NOBODY if provider is None else provider

    def claimed(self) -> None:
        """A chow, pung or kong on a discard: play is no longer on a kong's replacement."""
        self.kong_provider = NOBODY

    def kong_made(self, tile: Tile, drawn: Tile | None) -> None:
        """A kong in one's own turn, of ``tile``, just after drawing ``drawn`` (or None)."""
        self.kong_from_draw = tile == drawn

    def opened(self, seats: Iterable[int], hit: Iterable[int]) -> None:
        """``seats`` hold opening hands (起手胡), whose birds point at the seats ``hit``."""
        self.opening_winners = frozenset(seats)
        self.opening_bird_seats = frozenset(hit)

    def won(self) -> None:
        if self.at_first_win is None:
            self.at_first_win = self.seats()

    def seats(self) -> dict[str, int]:
        """The seat facts now, by name (as expressions and hand records name them)."""
        return {
            "kong_provider": self.kong_provider,
            "last_tile_taker": self.last_tile_taker,
            "last_tile_offered": self.last_tile_offered,
        }

    def for_dealer(self) -> dict[str, Any]:
        """The facts ``dealer.next`` reads: the seats at the first win (else at the end),
        and the opening hands."""
        seats = self.at_first_win if self.at_first_win is not None else self.seats()
        opening = {"opening_winners": self.opening_winners}
        return {**seats, **opening, "opening_bird_seats": self.opening_bird_seats}


def table_facts(ruleset: Ruleset, first_dealer: int) -> TableFacts:
    memo = ruleset_memo(ruleset, "reads visible")
    if not memo:  # a hand type, a payment, a bird multiplier ... any rule may read it
        memo[True] = any(syntax.mentions(e, "visible") for e in _expressions(ruleset.data))
    return TableFacts(first_dealer, memo[True])


def _expressions(value: Any) -> Iterator[Any]:
    """Every compiled expression in the ruleset's data."""
    if hasattr(value, "ast"):
        yield value
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _expressions(item)
    elif isinstance(value, tuple | list):
        for item in value:
            yield from _expressions(item)


def dealer_dice(ruleset: Ruleset, next_dealer: Any, rng: Random) -> int:
    """Two dice thrown from ``rng`` for ``dealer.next`` (their total), if it reads ``dice``;
    else 0.  Thrown at the hand's end, they change nothing of the hand."""
    memo = ruleset_memo(ruleset, "dealer dice")
    if not memo:
        memo[True] = syntax.mentions(next_dealer, "dice")
    if not memo[True]:
        return 0
    return rng.randint(1, 6) + rng.randint(1, 6)


def next_dealer_seat(value: int, players: int) -> int:
    """The seat ``dealer.next`` gave, which must be one."""
    if value == NOBODY:
        raise EvaluationError("dealer.next gave nobody: the next dealer must be a seat", 0, 0)
    return value % players
