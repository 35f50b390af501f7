"""What the engine records for the ruleset's facts about the table: who fed the kong being
played on (点杠), who took and who was first offered the last tile (海底), the first dealer
of the match, the tiles face up on the table (绝张), whether a kong was made with the tile
just drawn, and when a missed-win lock lifts.

Each step of play that changes one of them calls one function here, so that what is
recorded, and when, stays in one place.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

from dsl import syntax
from dsl.errors import EvaluationError
from dsl.ruleset import Ruleset
from dsl.situation import NOBODY
from interpreter.settle import ruleset_memo
from interpreter.tiles import Tile

if TYPE_CHECKING:
    from interpreter.engine.game import Game

SEATS = ("kong_provider", "last_tile_taker", "last_tile_offered")
"""The seat facts, as named in expressions, in scenarios and on :class:`TableFacts`."""


@dataclass
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
        """``seat`` drew from the front: no kong is being played on; ``last``: it drew the
        last tile in its turn (offered it and took it)."""
        self.kong_provider = NOBODY
        if last:
            self.offered(seat)
            self.last_tile_taker = seat

    def offered(self, seat: int) -> None:
        """The last tile is offered to ``seat`` (the first offer is the one remembered)."""
        if self.last_tile_offered == NOBODY:
            self.last_tile_offered = seat

    def took_last(self, seat: int) -> None:
        self.last_tile_taker = seat

    def replaced(self, seat: int, provider: int | None, takes_last: bool) -> None:
        """``seat`` draws a kong's replacement; the kong took ``provider``'s discard (None:
        none); ``takes_last``: the replacement takes the last tile(s) of the wall."""
        self.kong_provider = NOBODY if provider is None else provider
        if takes_last:
            self.last_tile_taker = seat

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
        """The seat facts now, by name."""
        return {name: getattr(self, name) for name in SEATS}

    def for_dealer(self) -> dict[str, Any]:
        """The facts ``dealer.next`` reads: the seats at the first win (else at the end),
        and the opening hands."""
        seats = self.at_first_win if self.at_first_win is not None else self.seats()
        opening = {"opening_winners": self.opening_winners}
        return {**seats, **opening, "opening_bird_seats": self.opening_bird_seats}


def table_facts(ruleset: Ruleset, first_dealer: int) -> TableFacts:
    memo = ruleset_memo(ruleset, "reads visible")
    if not memo:
        hands = [*(ruleset.get("hands") or {}).values(), *(ruleset.get("modifiers") or {}).values()]
        memo[True] = any(
            _uses(spec.get(key), "visible") for spec in hands for key in ("when", "value")
        )
    return TableFacts(first_dealer, memo[True])


def _uses(expr: Any, name: str) -> bool:
    """Whether the compiled expression ``expr`` reads the name or calls the function
    ``name`` anywhere."""
    node = getattr(expr, "ast", None)
    return node is not None and any(
        (isinstance(n, syntax.Call) and n.function == name)
        or (isinstance(n, syntax.Name) and n.name == name)
        for n in _nodes(node)
    )


def dealer_dice(game: Game) -> int:
    """Two dice thrown for ``dealer.next`` (their total), if it reads ``dice``; else 0.
    Thrown at the hand's end, they change nothing of the hand."""
    memo = ruleset_memo(game.ruleset, "dealer dice")
    if not memo:
        memo[True] = _uses(game.rules.next_dealer, "dice")
    if not memo[True]:
        return 0
    return game.rng.randint(1, 6) + game.rng.randint(1, 6)


def _nodes(node: Any) -> Iterator[Any]:
    yield node
    if isinstance(node, syntax.Node):
        for f in fields(node):
            yield from _children(getattr(node, f.name))


def _children(value: Any) -> Iterator[Any]:
    if isinstance(value, syntax.Node):
        yield from _nodes(value)
    elif isinstance(value, tuple):
        for item in value:
            yield from _children(item)


def face_up(game: Game) -> Counter[Tile]:
    """Every tile face up on the table: discards, claimed melds and kongs (concealed ones
    where they are shown), kong tiles shown apart."""
    shown = game.rules.concealed_shown
    found: Counter[Tile] = Counter(game.kong_tiles)
    for p in game.players:
        found.update(p.discards)
        for m in p.melds:
            if shown or not m.concealed:
                found.update(m.tiles)
    return found


def visible(game: Game, tiles: Iterable[Tile], winning_face_up: bool) -> tuple[Tile, ...]:
    """The face-up tiles as a win on ``tiles`` sees them: the winning tiles, when they are
    themselves face up (a discard, a robbed kong's tile, kong tiles), left out once each.
    Empty unless the ruleset reads ``visible``."""
    if not game.facts.reads_visible:
        return ()
    found = face_up(game)
    if winning_face_up:
        found.subtract(tiles)
    return tuple(sorted(found.elements()))


def lift_locks(game: Game, seat: int, moment: str) -> None:
    """``seat`` draws, claims or discards (``moment``): the missed-win locks that
    ``restrictions.missed_win_until`` lifts then are lifted."""
    until = game.rules.missed_win_until
    if moment in _LIFTS[until]:
        game.players[seat].clear_lock()
    elif until == "dealer_discard" and moment == "discard" and seat == game.dealer:
        for p in game.players:
            p.clear_lock()


_LIFTS = {
    "own_draw": ("draw",),
    "own_action": ("draw", "claim"),
    "own_discard": ("discard",),
    "dealer_discard": (),
}
"""The moments of a player's own that lift its lock, by ``missed_win_until``."""


def next_dealer_seat(value: int, players: int) -> int:
    """The seat ``dealer.next`` gave, which must be one."""
    if value == NOBODY:
        raise EvaluationError("dealer.next gave nobody: the next dealer must be a seat", 0, 0)
    return value % players
