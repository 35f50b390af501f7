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

The engine calls these at the deal (``interpreter.engine.deal``); simulations and
statistics may call them on any dealt hands to count or price opening hands exactly.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace
from typing import Any

from dsl.ruleset import Ruleset
from dsl.situation import NOBODY, Situation
from handcore import shapes
from handcore.tiles import Tile
from interpreter import prefilter
from interpreter.context import build_situation
from interpreter.settle import (
    OpeningHand,
    Payment,
    adjust,
    display_name,
    fire,
    ruleset_memo,
)


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
                    _int(spec.get("value", 1), situation),
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


def settle_opening(
    ruleset: Ruleset, dealer: int, players: int, hands: Sequence[Sequence[Tile]],
    birds: Sequence[Tile] = (), bird_dice: Sequence[int] = (),
    found: Sequence[Sequence[OpeningHand]] | None = None,
    choices: Mapping[str, tuple[Any, ...]] | None = None,
) -> list[Payment]:  # fmt: skip
    """The payments for every seat's opening hands (``hands``: each seat's dealt tiles).

    ``birds`` are the bird tiles (``birds: wall``) or ``bird_dice`` the dice rolled
    (``birds: dice``); the same birds serve every seat.  ``found`` may pass what
    :func:`find_opening` returned, to avoid judging the hands twice; ``choices`` the
    choices made before the deal (a stake the adjustments add, 飘)."""
    if found is None:
        found = find_opening(ruleset, dealer, players, hands)
    spec = section(ruleset)
    stack = bool(spec.get("stack", False))
    bird_spec = ruleset.get("birds") or {}
    payments: list[Payment] = []
    for seat, seat_hands in enumerate(found):
        if not seat_hands:
            continue
        situation = opening_situation(ruleset, dealer, players, seat, hands[seat], choices)
        hits = bird_hits(ruleset, dealer, players, seat, birds, bird_dice)
        counted = bird_tiles(ruleset, dealer, players, seat, birds, bird_dice)
        scored = replace(situation, bird_hits=hits, bird_tiles=counted)
        values = [h.value for h in seat_hands]
        times = sum(values) if stack else max(values)
        names = ", ".join(h.name for h in seat_hands)
        use_birds = bird_count(ruleset, dealer, players, seat) > 0 and "multiplier" in bird_spec
        made: list[Payment] = []
        for payer in range(players):
            if payer == seat:
                continue
            one = replace(scored, payer=payer)
            base = _int(spec.get("payment", 0), one)
            reasons = [f"opening hand {names} (seat {seat})", f"payment {base}"]
            amount = base * times
            if times != 1:
                reasons.append(f"×{times} ({'stacked' if stack else 'once'})")
            if use_birds:
                multiplier = int(bird_spec["multiplier"](one))
                if multiplier != 1:
                    amount *= multiplier
                    reasons.append(f"birds ×{multiplier}")
            if amount < 0:
                raise ValueError(f"{ruleset.id} makes seat {payer} pay {amount}: {reasons}")
            if amount:
                made.append(Payment(payer, seat, amount, tuple(reasons)))
        payments.extend(adjust(ruleset, "opening_hand", scored, made))
        payments.extend(fire(ruleset, "opening_hand", scored))
    return payments


def _int(value: Any, situation: Situation) -> int:
    return int(value(situation)) if callable(value) else int(value)
