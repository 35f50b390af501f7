"""Opening hands (起手胡): hands judged as dealt, and what they are paid.

Everything is read from the ruleset's ``opening_hands`` section: whether they are
``allowed``, the hand types (``when``, ``value``, ``enabled``), whether several ``stack``,
the ``payment`` each other player makes, and how ``birds`` are found for them (``dice``,
``wall``, ``none``); the bird seat mapping, count and multiplier are the ruleset's
``birds``.  Each hand type is judged on a :class:`~dsl.situation.Situation` with
``opening`` true, the seat's dealt tiles (13, or the dealer's 14) as its concealed tiles,
no melds and no winning tile; ``winner`` is the seat holding the hand.

Amounts, for a seat with opening hands and each other seat as payer::

    times  = sum of the found hands' values (stack) or the largest value (no stack)
    amount = payment × times × birds.multiplier   (the multiplier when birds apply)

Settlement pays them (``interpreter.settle.settle_opening``), at the deal in play and first
in a scenario; simulations and statistics may call these on any dealt hands to count or price
opening hands exactly.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dsl.ruleset import Ruleset, display_name
from dsl.situation import NOBODY, Situation
from handcore import shapes
from handcore.tiles import Tile
from interpreter import prefilter
from interpreter.context import build_situation
from interpreter.ruleset_memo import ruleset_memo


@dataclass(frozen=True)
class OpeningHand:
    seat: int
    id: str
    name: str
    value: int
    """How many times it is paid (the hand type's ``value``)."""


def section(ruleset: Ruleset) -> Mapping[str, Any]:
    """The ruleset's ``opening_hands`` section (empty when there is none)."""
    return ruleset.get("opening_hands") or {}


def allowed(ruleset: Ruleset) -> bool:
    return bool(section(ruleset).get("allowed", False))


def opening_situation(
    ruleset: Ruleset, dealer: int, players: int, seat: int, tiles: Sequence[Tile],
    choices: Mapping[str, tuple[Any, ...]] | None = None,
) -> Situation:  # fmt: skip
    """The situation an opening hand of ``seat`` holding ``tiles`` is judged in (``choices``:
    those made, which its payment and ``declared`` may read)."""
    return build_situation(
        tiles=tiles, opening=True, winner=seat, dealer=dealer,
        players=players, options=ruleset.option_values, tileset=ruleset.tileset,
        choices=choices or {},
    )  # fmt: skip


def find_opening(
    ruleset: Ruleset, dealer: int, players: int, hands: Sequence[Sequence[Tile]],
    seats: Collection[int] | None = None,
) -> list[list[OpeningHand]]:  # fmt: skip
    """Each seat's opening hands, in the ruleset's order (all empty when not allowed);
    ``seats``: those whose dealt tiles are known (None: every seat)."""
    found: list[list[OpeningHand]] = [[] for _ in range(players)]
    if not allowed(ruleset):
        return found
    types = _types(ruleset)
    ts = ruleset.tileset
    for seat, tiles in enumerate(hands):
        if seats is not None and seat not in seats:
            continue
        probe = prefilter.probe_of(shapes.keys_of(ts.counts(tiles), ts), (), _OPENING)
        situation: Situation | None = None
        for hand_id, spec, need in types:
            if need is not None and not need(probe):
                continue  # its cheap necessary condition fails
            if situation is None:
                situation = opening_situation(ruleset, dealer, players, seat, tiles)
            if not spec["when"](situation):
                continue
            found[seat].append(
                OpeningHand(
                    seat,
                    hand_id,
                    display_name(spec.get("name"), hand_id),
                    number(spec.get("value", 1), situation),
                )
            )
    return found


_OPENING = tuple(name == "opening" for name in prefilter.FLAGS)


def _types(ruleset: Ruleset) -> list[tuple[str, Any, prefilter.Need | None]]:
    """The enabled opening hand types with a cheap necessary condition each, read once."""
    memo = ruleset_memo(ruleset, "opening types")
    if not memo:
        memo["types"] = [
            (hand_id, spec, prefilter.test_of(prefilter.necessary(spec["when"].ast, False)))
            for hand_id, spec in (section(ruleset).get("hands") or {}).items()
            if spec.get("enabled", True)
        ]
    return memo["types"]


def bird_count(ruleset: Ruleset, dealer: int, players: int, seat: int) -> int:
    """How many birds an opening hand of ``seat`` turns (0 when birds do not apply)."""
    memo = ruleset_memo(ruleset, "opening bird count")
    key = (dealer, players, seat)
    if key not in memo:
        memo[key] = _bird_count(ruleset, dealer, players, seat)
    return memo[key]


def _bird_count(ruleset: Ruleset, dealer: int, players: int, seat: int) -> int:
    birds = ruleset.get("birds") or {}
    if section(ruleset).get("birds", "none") == "none" or not birds.get("count"):
        return 0
    base = build_situation(
        dealer=dealer, players=players,
        options=ruleset.option_values, winner=seat,
    )  # fmt: skip
    return max(0, int(birds["count"](base)))


def bird_hits(
    ruleset: Ruleset, dealer: int, players: int, seat: int,
    birds: Sequence[Tile] = (), bird_dice: Sequence[int] = (),
) -> dict[int, int]:  # fmt: skip
    """Seats hit by the birds of ``seat``'s opening hands: the first ``bird_count`` of the
    bird tiles, or of the dice (a die of value v reads as a tile of rank v)."""
    spec = ruleset.get("birds") or {}
    if "seat" not in spec:
        return {}
    tiles = bird_tiles(ruleset, dealer, players, seat, birds, bird_dice)
    memo = ruleset_memo(ruleset, "opening bird seat")
    hits: dict[int, int] = {}
    for tile in tiles:
        key = (dealer, players, seat, tile)
        if key not in memo:
            base = build_situation(
                dealer=dealer, players=players,
                options=ruleset.option_values, winner=seat, tile=tile,
            )  # fmt: skip
            found = int(spec["seat"](base))
            memo[key] = found if found == NOBODY else found % players
        hit = memo[key]
        if hit != NOBODY:
            hits[hit] = hits.get(hit, 0) + 1
    return hits


def bird_tiles(
    ruleset: Ruleset, dealer: int, players: int, seat: int,
    birds: Sequence[Tile] = (), bird_dice: Sequence[int] = (),
) -> tuple[Tile, ...]:  # fmt: skip
    """The bird tiles counted for ``seat``'s opening hands: the first ``bird_count``."""
    count = bird_count(ruleset, dealer, players, seat)
    return tuple([*birds, *(value - 1 for value in bird_dice)][:count])


def number(value: Any, situation: Situation) -> int:
    """A number of the section: written as is, or an expression read in ``situation``."""
    return int(value(situation)) if callable(value) else int(value)
