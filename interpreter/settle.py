"""Settlement: what a finished hand is worth under a ruleset, and who pays whom.

Everything a rule may change is read from the ruleset: which hand types a win has
(``hands``, their ``when``, ``value``, ``replaces``), how values combine (``scoring``),
add-ons (``modifiers``), who pays and how much (``payment``), birds (``birds``), caps, and
kong money (``kong_payments``, ``settlement.transfer``).  This module only applies them in
order: hand types, value, then for each payer base and bonuses, birds, cap.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from dsl.problems import Location
from dsl.ruleset import Ruleset
from dsl.situation import NOBODY, HandMeld, Situation
from handcore import shapes
from handcore.tiles import RANKS, STANDARD, Tile, TileSet
from interpreter import prefilter
from interpreter.hand_record import HandRecord, Kong, Unfinished, Win, meld_text

KONG_KIND = {"direct": "exposed", "added": "added", "concealed": "concealed"}
_NOWHERE = Location("<end of wall>", 1, 1)


class SettlementError(ValueError):
    """The hand cannot be settled under the ruleset (e.g. a winner whose hand does not win)."""


@dataclass(frozen=True)
class FoundHand:
    id: str
    name: str
    hand_class: str
    value: int


@dataclass(frozen=True)
class WinResult:
    seat: int
    win_tile: Tile
    hands: tuple[FoundHand, ...]
    total: int
    """The combined value (scoring.value) in the ruleset's unit."""
    concealed: tuple[Tile, ...] = ()
    """The winner's concealed tiles without the winning tile."""
    melds: tuple[HandMeld, ...] = ()


@dataclass(frozen=True)
class Payment:
    payer: int
    payee: int
    amount: int
    reasons: tuple[str, ...]
    cap: int = 0
    """The cap that applied to a win's payment (0: none)."""


@dataclass(frozen=True)
class Settlement:
    players: int
    wins: tuple[WinResult, ...]
    payments: tuple[Payment, ...]
    bird_hits: Mapping[int, int] = field(default_factory=dict)

    @property
    def deltas(self) -> list[int]:
        """Net change per seat: what it receives less what it pays."""
        net = [0] * self.players
        for p in self.payments:
            net[p.payer] -= p.amount
            net[p.payee] += p.amount
        return net

    def to_json(self, tileset: TileSet = STANDARD) -> dict[str, Any]:
        return {
            "wins": [
                {
                    "seat": w.seat,
                    "win_tile": tileset.name(w.win_tile),
                    "hands": [
                        {"id": h.id, "name": h.name, "class": h.hand_class, "value": h.value}
                        for h in w.hands
                    ],
                    "total": w.total,
                    "hand": tileset.format(sorted((*w.concealed, w.win_tile))),
                    "melds": [meld_text(m, tileset) for m in w.melds],
                }
                for w in self.wins
            ],
            "birds": {str(seat): n for seat, n in sorted(self.bird_hits.items())},
            "payments": [
                {"from": p.payer, "to": p.payee, "amount": p.amount, "reasons": list(p.reasons)}
                for p in self.payments
            ],
            "deltas": self.deltas,
        }


def settle(ruleset: Ruleset, scenario: HandRecord) -> Settlement:
    """Settle every win of the hand record, then its kongs."""
    tileset = STANDARD
    options = ruleset.option_values
    winners = frozenset(w.seat for w in scenario.wins)
    hits, bird_tiles = _bird_hits(ruleset, scenario, options)
    wins: list[WinResult] = []
    payments: list[Payment] = []
    for win in scenario.wins:
        situations = [
            _situation(scenario, win, tile, winners, options, hits, tileset, bird_tiles)
            for tile in win.win_tiles
        ]
        result = hand_types(ruleset, situations, win)
        _check_allowed(ruleset, situations[0], result, win)
        wins.append(result)
        payments.extend(_win_payments(ruleset, situations[0], result))
    kong_money = [p for kong in scenario.kongs for p in _kong_payments(ruleset, scenario, kong)]
    paid_before = [
        p for kong in scenario.paid_kongs for p in _kong_payments(ruleset, scenario, kong)
    ]
    payments.extend(kong_money)
    payments.extend(_transfers(ruleset, scenario, paid_before + kong_money))
    payments.extend(_end_of_wall(ruleset, scenario, paid_before + kong_money, tileset))
    return Settlement(scenario.players, tuple(wins), tuple(payments), hits)


def _situation(
    scenario: HandRecord,
    win: Win,
    win_tile: Tile,
    winners: frozenset[int],
    options: Mapping[str, Any],
    hits: Mapping[int, int],
    tileset: TileSet,
    bird_tiles: tuple[Tile, ...] = (),
) -> Situation:
    keys = shapes.keys_of(tileset.counts([*win.concealed, win_tile]))
    return Situation(
        keys=keys,
        melds=win.melds,
        win_tile=win_tile,
        winning_tiles=len(win.win_tiles),
        self_draw=win.self_draw,
        kong_draw="kong_draw" in win.context,
        kong_discard="kong_discard" in win.context,
        robbing_kong="robbing_kong" in win.context,
        last_tile="last_tile" in win.context,
        first_turn="first_turn" in win.context,
        opening="opening" in win.context,
        winner=win.seat,
        discarder=win.discarder,
        dealer=scenario.dealer,
        dealers=scenario.dealers,
        players=scenario.players,
        players_in_game=scenario.in_game,
        winners=winners,
        options=options,
        bird_hits=hits,
        tileset=tileset,
        bird_tiles=bird_tiles,
        kong_provider=scenario.kong_provider,
        last_tile_taker=scenario.last_tile_taker,
        last_tile_offered=scenario.last_tile_offered,
        visible=Counter(scenario.visible),
        choices=scenario.choices,
    )


def hand_types(ruleset: Ruleset, situations: Sequence[Situation], win: Win) -> WinResult:
    """The hand types and modifiers that count, after ``replaces``, and the combined value.

    With several winning tiles at once (``winning_tiles``), what each tile makes counts,
    once per hand type, at the best value it reaches."""
    found: dict[str, tuple[str, str, Any]] = {}
    found_with: dict[str, list[Situation]] = {}
    for situation in situations:
        probe = prefilter.probe_of_situation(situation)
        shaped = prefilter.has_shape(situation.keys, len(situation.melds))
        for section, default_class in (("hands", None), ("modifiers", "bonus")):
            for hand_id, spec, shaped_need, unshaped_need in _conditions(ruleset, section):
                need = shaped_need if shaped else unshaped_need
                if need is not None and probe is not None and not need(probe):
                    continue  # its cheap necessary condition fails
                if spec["when"](situation):
                    found[hand_id] = (
                        display_name(spec.get("name"), hand_id),
                        spec.get("class") or default_class,
                        spec["value"],
                    )
                    found_with.setdefault(hand_id, []).append(situation)
    if not any(h in (ruleset.get("hands") or {}) for h in found):
        tiles = ", ".join(STANDARD.name(t) for t in win.win_tiles)
        raise SettlementError(
            f"{win.location}: the hand of seat {win.seat} does not win under "
            f"{ruleset.id} (no hand type applies with {tiles})"
        )
    modifiers = ruleset.get("modifiers") or {}
    replaced = {
        gone
        for hand_id in found
        for gone in (ruleset.hands.get(hand_id) or modifiers.get(hand_id) or {}).get("replaces", ())
    }
    kept = {h: v for h, v in found.items() if h not in replaced}
    classes = {h: v[1] for h, v in kept.items()}
    values = {
        h: max(
            int(v[2](replace(s, hand_classes=classes, hands=dict.fromkeys(kept, 0))))
            for s in found_with[h]
        )
        for h, v in kept.items()
    }
    scored = replace(situations[0], hand_classes=classes, hands=values)
    total = int(ruleset.scoring["value"](scored))
    hands = tuple(FoundHand(h, kept[h][0], kept[h][1], values[h]) for h in kept)
    return WinResult(win.seat, win.win_tiles[0], hands, total, win.concealed, win.melds)


def refusal(situation: Situation, void: int | None, requires: Any) -> str | None:
    """Why ``restrictions`` refuse a win that has a hand type (None: they allow it): it
    holds its declared void suit (定缺), or ``requires`` (``win_requires``) is false.  Play
    and settlement ask it alike."""
    if void is not None:
        held = {i for i, key in enumerate(situation.keys) if key}
        held.update(m.tile // RANKS for m in situation.melds)
        if void in held:
            return "it holds the suit declared void"
    if requires is not None and not requires(situation):
        return f"restrictions.win_requires is false ({requires.text})"
    return None


def _check_allowed(ruleset: Ruleset, situation: Situation, result: WinResult, win: Win) -> None:
    """Refuse a win that the ruleset's restrictions or ``scoring.min_value`` forbid."""
    restrictions = ruleset.get("restrictions") or {}
    requires = restrictions.get("win_requires")
    why = refusal(
        situation, None, None if getattr(requires, "text", "true") == "true" else requires
    )
    least = int(ruleset.get("scoring.min_value") or 0)
    if why is None and result.total < least:
        why = f"its value {result.total} is below scoring.min_value {least}"
    if why is not None:
        raise SettlementError(
            f"{win.location}: the hand of seat {win.seat} does not win under {ruleset.id}: {why}"
        )


_MEMOS: dict[tuple[int, str], tuple[Ruleset, dict[Any, Any]]] = {}


def ruleset_memo(ruleset: Ruleset, name: str) -> dict[Any, Any]:
    """Where the answers of ``name``, a pure function of ``ruleset``, are remembered."""
    found = _MEMOS.get((id(ruleset), name))
    if found is None or found[0] is not ruleset:
        found = _MEMOS[(id(ruleset), name)] = (ruleset, {})
    return found[1]


_Condition = tuple[str, Mapping[str, Any], prefilter.Need | None, prefilter.Need | None]


def _conditions(ruleset: Ruleset, section: str) -> list[_Condition]:
    """The section's enabled hand types, each with the cheap necessary conditions of its
    ``when`` (``prefilter``) for a hand that may have a shape and for one that has none,
    read once per ruleset."""
    memo = ruleset_memo(ruleset, "conditions")
    if section not in memo:
        memo[section] = [
            (hand_id, spec, *(prefilter.test_of(prefilter.necessary(spec["when"].ast, unshaped))
                              for unshaped in (False, True)))
            for hand_id, spec in (ruleset.get(section) or {}).items()
            if spec.get("enabled", True)
        ]  # fmt: skip
    return memo[section]


def _table(scenario: HandRecord, options: Mapping[str, Any], **seats: Any) -> Situation:
    """A situation about the table rather than a hand: seats, dealers, options."""
    return Situation(
        keys=(0, 0, 0),
        dealer=scenario.dealer,
        dealers=scenario.dealers,
        players=scenario.players,
        options=options,
        choices=scenario.choices,
        **seats,
    )


def display_name(name: Any, fallback: str) -> str:
    """A rule's name as players read it: the Chinese of a ``{zh:, en:}`` map, else its text,
    else ``fallback`` (the rule's id)."""
    if isinstance(name, Mapping):
        return str(name.get("zh") or name.get("en") or fallback)
    return str(name) if name else fallback


def _bird_hits(
    ruleset: Ruleset, scenario: HandRecord, options: Mapping[str, Any]
) -> tuple[dict[int, int], tuple[Tile, ...]]:
    """How many birds point at each seat, by the ruleset's bird count and seat mapping (a
    bird on ``nobody`` hits no one), and the bird tiles counted."""
    birds = ruleset.get("birds") or {}
    if not birds or not scenario.wins:  # birds are for a win
        return {}, ()
    first = scenario.wins[0]
    base = _table(
        scenario,
        options,
        winner=first.seat,
        discarder=first.discarder,
        win_tile=first.win_tiles[0] if first.win_tiles else None,
        last_tile="last_tile" in first.context,
    )
    count = int(birds["count"](base))
    tiles: list[Tile] = list(scenario.birds)
    # A die is read as a bird tile of its rank: the same seat mapping applies.
    tiles += [value - 1 for value in scenario.bird_dice]
    if "last_tile" in first.context and not tiles:
        tiles = list(first.win_tiles)
    if birds["first_counts_all"](base):
        tiles = tiles[:1] * count
    hits: dict[int, int] = {}
    for tile in tiles[:count]:
        seat = int(birds["seat"](replace(base, tile=tile)))
        if seat != NOBODY:
            hits[seat] = hits.get(seat, 0) + 1
    return hits, tuple(tiles[:count])


def _win_payments(ruleset: Ruleset, situation: Situation, result: WinResult) -> list[Payment]:
    payment = ruleset.payment
    birds = ruleset.get("birds") or {}
    values = {h.id: h.value for h in result.hands}
    classes = {h.id: h.hand_class for h in result.hands}
    scored = replace(situation, hands=values, hand_classes=classes, value=result.total)
    payers = sorted(set(payment["payers"](scored)) - {result.seat})
    names = ", ".join(f"{h.name} {h.value}" for h in result.hands)
    after = payment.get("bonus_after_birds", False)
    cap_after_birds = payment.get("cap_after_birds", True)
    made = []
    for payer in payers:
        one = replace(scored, payer=payer)
        base = int(payment["base"](one))
        dealer_bonus = int(payment["dealer_bonus"](one))
        self_draw_bonus = int(payment["self_draw_bonus"](one)) if one.self_draw else 0
        multiplier = int(birds["multiplier"](one)) if birds else 1
        cap = int(payment["cap"](one))
        reasons = [f"{names} (total {result.total})", f"base {base}"]
        if dealer_bonus:
            reasons.append(f"dealer bonus {dealer_bonus:+d}")
        amount = base + dealer_bonus
        if self_draw_bonus and not after:
            amount += self_draw_bonus
            reasons.append(f"self-draw bonus {self_draw_bonus:+d}")
        if cap and not cap_after_birds and amount > cap:
            amount = cap
            reasons.append(f"capped at {cap} before birds")
        if multiplier != 1:
            amount *= multiplier
            reasons.append(f"birds ×{multiplier}")
        if self_draw_bonus and after:
            amount += self_draw_bonus
            reasons.append(f"self-draw bonus {self_draw_bonus:+d} after birds")
        fixed_bonus = int(payment["fixed_bonus"](one))
        if fixed_bonus:
            amount += fixed_bonus
            reasons.append(f"fixed bonus {fixed_bonus:+d}, not doubled by birds")
        if cap and cap_after_birds and amount > cap:
            amount = cap
            reasons.append(f"capped at {cap}")
        if amount < 0:
            raise SettlementError(f"{ruleset.id} makes seat {payer} pay {amount}: {reasons}")
        if amount:
            made.append(Payment(payer, result.seat, amount, tuple(reasons), cap))
    return made


def _kong_payments(ruleset: Ruleset, scenario: HandRecord, kong: Kong) -> list[Payment]:
    """Kong money (刮风下雨) for one declared kong, from the ruleset's kong_payments."""
    made = []
    situation = _table(
        scenario,
        ruleset.option_values,
        players_in_game=scenario.in_game if kong.in_game is None else kong.in_game,
        kong_seat=kong.seat,
        provider=kong.provider,
        kong_from_draw=kong.from_draw,
    )
    for name, spec in (ruleset.get("kong_payments") or {}).items():
        if not spec.get("enabled", True) or spec["kind"] != KONG_KIND[kong.kind]:
            continue
        amount = int(spec["amount"](situation))
        for payer in sorted(set(spec["payers"](situation)) - {kong.seat}):
            if amount:
                label = display_name(spec.get("name"), name)
                made.append(Payment(payer, kong.seat, amount, (f"{label} ({kong.kind} kong)",)))
    return made


def _transfers(
    ruleset: Ruleset, scenario: HandRecord, kong_money: Sequence[Payment]
) -> list[Payment]:
    """呼叫转移: after a win on the discard that followed a kong, the kong money moves on."""
    settlement = ruleset.get("settlement") or {}
    if not settlement.get("transfer"):
        return []
    made = []
    for win in scenario.wins:
        if "kong_discard" not in win.context or win.discarder is None:
            continue
        received = sum(p.amount for p in kong_money if p.payee == win.discarder)
        if received:
            made.append(Payment(win.discarder, win.seat, received, ("kong money transferred",)))
    return made


def _end_of_wall(
    ruleset: Ruleset, scenario: HandRecord, kong_money: Sequence[Payment], tileset: TileSet
) -> list[Payment]:
    """When the wall runs out with players still in: flower pigs (花猪), the ready-hand
    check (查叫) and kong-money refunds (退税), each as the ruleset's settlement says."""
    rules = ruleset.get("settlement") or {}
    if not scenario.unfinished or not rules:
        return []
    still_in = frozenset(h.seat for h in scenario.unfinished)
    end = replace(scenario, in_game=still_in, wins=(), birds=(), bird_dice=())
    pigs = {
        h.seat
        for h in scenario.unfinished
        if len({t // 9 for t in _tiles_of(h)}) == len(tileset.suits) > 2
    }
    ready = {
        h.seat: h
        for h in scenario.unfinished
        if h.seat not in pigs and _winning_tiles(ruleset, end, h)
    }
    base = _table(scenario, ruleset.option_values, players_in_game=still_in, ready=frozenset(ready))
    made: list[Payment] = []
    pig_rule = rules.get("flower_pig") or {}
    if pig_rule.get("enabled"):
        for pig in sorted(pigs):
            for payee in sorted(still_in - pigs):
                one = replace(base, payer=pig, payee=payee)
                amount = _end_amount(ruleset, end, pig_rule, one, ready.get(payee))
                if amount:
                    made.append(Payment(pig, payee, amount, ("花猪: holds every suit",)))
    check = rules.get("ready_check") or {}
    if check.get("enabled") and ready:
        exempt = set(ready) if check.get("flower_pigs_pay", True) else set(ready) | pigs
        for payer in sorted(still_in - exempt):
            for payee in sorted(ready):
                one = replace(base, payer=payer, payee=payee)
                amount = _end_amount(ruleset, end, check, one, ready[payee])
                if amount:
                    made.append(
                        Payment(payer, payee, amount, (f"查叫: not ready, {check['value']} value",))
                    )
    if rules.get("refund"):
        for p in kong_money:
            if p.payee in still_in and p.payee not in ready:
                made.append(Payment(p.payee, p.payer, p.amount, ("退税: kong money returned",)))
    return made


def _tiles_of(hand: Unfinished) -> tuple[Tile, ...]:
    return (*hand.concealed, *(t for m in hand.melds for t in m.tiles))


def _winning_tiles(ruleset: Ruleset, scenario: HandRecord, hand: Unfinished) -> list[Tile]:
    """The tiles that would complete the hand into one the ruleset accepts as a win."""
    keys = shapes.keys_of(STANDARD.counts(hand.concealed))
    found = []
    for tile in shapes.waits(keys, "quads"):
        try:
            _end_win(ruleset, scenario, hand, tile, None)
        except SettlementError:
            continue
        found.append(tile)
    return found


def _end_win(
    ruleset: Ruleset, scenario: HandRecord, hand: Unfinished, tile: Tile, payer: int | None
) -> tuple[Situation, WinResult]:
    """Settle the hand as if it won on ``tile`` discarded by ``payer`` (None: self-drawn)."""
    win = Win(hand.seat, hand.concealed, hand.melds, (tile,), payer, frozenset(), _NOWHERE)
    situation = _situation(
        scenario, win, tile, frozenset({hand.seat}), ruleset.option_values, {}, STANDARD
    )
    return situation, hand_types(ruleset, [situation], win)


def _end_amount(
    ruleset: Ruleset,
    scenario: HandRecord,
    rule: Mapping[str, Any],
    situation: Situation,
    payee_hand: Unfinished | None,
) -> int:
    """A fixed amount, or the most or least the payee's ready hand could take from the payer."""
    if rule.get("value") == "fixed" or payee_hand is None:
        return int(rule["amount"](situation))
    amounts = []
    for tile in _winning_tiles(ruleset, scenario, payee_hand):
        won, result = _end_win(ruleset, scenario, payee_hand, tile, situation.payer)
        amounts.extend(
            p.amount for p in _win_payments(ruleset, won, result) if p.payer == situation.payer
        )
    if not amounts:
        return 0
    return max(amounts) if rule["value"] == "max" else min(amounts)
