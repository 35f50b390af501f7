"""Settlement: what a finished hand is worth under a ruleset, and who pays whom.

Everything a rule may change is read from the ruleset: which hand types a win has
(``hands``, their ``when``, ``value``, ``replaces``), how values combine (``scoring``),
add-ons (``modifiers``), what a win pays (``payment``, ``birds``), the payment rules that
fire at the moments of a hand (``payments``) and the adjustments to every payment
(``adjustments``).  This module only applies them in order: each win's hand types, value
and own payment; the rules at each kong; the rules at each win; the rules at each false
win claim; the rules when a seat leaves, or else when the wall runs out; the rules when the
hand ends; every payment between players adjusted as it is made (one into the pot is not).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, cached_property
from typing import Any, NamedTuple

from dsl import syntax
from dsl.problems import ERROR, Location, make
from dsl.ruleset import Ruleset, display_name
from dsl.situation import NOBODY, POT, HandMeld, Situation
from dsl.vocabulary import CONSTANTS, GENERIC_FUNCTIONS, HAND_ONLY
from handcore import shapes
from handcore.tiles import EVERY, RANKS, Tile, TileSet
from interpreter import opening, prefilter
from interpreter.context import build_situation
from interpreter.hand_record import Dealt, HandRecord, Kong, Unfinished, Win, meld_text
from interpreter.opening import OpeningHand
from interpreter.ruleset_memo import ruleset_memo

KONG_KIND = {"direct": "exposed", "added": "added", "concealed": "concealed"}
_NOWHERE = Location("<end of wall>", 1, 1)
DERIVED = tuple(name for name, v in vars(Situation).items() if isinstance(v, cached_property))
"""The facts a situation derives from its hand alone (tiles, melds, winning tile): worked
out once per hand and shared by every way of winning it."""
_KNOWN_LIMIT = 50_000


def hand_facts(ruleset: Ruleset, situation: Situation) -> dict[str, Any]:
    """The ``DERIVED`` facts of ``situation``'s hand worked out so far under ``ruleset``,
    put into ``situation``: every situation of that hand (however won, whoever pays; the
    settlement of a win, the wall's end, the bots' valuation) shares them.  Hand them back
    with :func:`keep_facts` once the situation has been asked."""
    memo = ruleset_memo(ruleset, "hand facts")
    key = (situation.keys, situation.melds, situation.win_tile, situation.tileset)
    found = memo.get(key)
    if found is None:
        if len(memo) >= _KNOWN_LIMIT:
            memo.clear()
        found = memo[key] = {}
    situation.__dict__.update(found)
    return found


def keep_facts(known: dict[str, Any], situation: Situation) -> None:
    """Keep in ``known`` (:func:`hand_facts`) the facts ``situation`` worked out."""
    facts = situation.__dict__
    known.update((name, facts[name]) for name in DERIVED if name in facts)


class SettlementError(ValueError):
    """The hand cannot be settled under the ruleset (e.g. a winner whose hand does not win).
    Given the place in the scenario that shows it, it reads as every located problem does:
    ``file:line:col: error: message`` and the line quoted."""

    def __init__(self, message: str, location: Any = None) -> None:
        if isinstance(location, Location):
            message = make(ERROR, message, location).format()
        elif location is not None:  # a hand the engine or a bot made: no file to quote
            message = f"{location}: {message}"
        super().__init__(message)


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
class OpeningResult:
    """A seat's opening hands (起手胡) as settled: the hand types found, and the seats its
    opening birds point at."""

    seat: int
    hands: tuple[OpeningHand, ...]
    bird_hits: Mapping[int, int]


@dataclass(frozen=True)
class Settlement:
    players: int
    wins: tuple[WinResult, ...]
    payments: tuple[Payment, ...]
    bird_hits: Mapping[int, int] = field(default_factory=dict)
    taken: int = 0
    """How many payments made at kongs a rule ``over: kong`` took up (moved on, returned)."""
    taken_kongs: tuple[Kong, ...] = ()
    """The paid kongs (``HandRecord.paid_kongs``) whose money a rule took up, in the order
    they were made."""
    opening: tuple[OpeningResult, ...] = ()
    """The opening hands paid on the deal, by seat (their payments come first)."""

    @property
    def deltas(self) -> list[int]:
        """Net change per seat: what it receives less what it pays (into the pot too)."""
        net = [0] * self.players
        for p in self.payments:
            net[p.payer] -= p.amount
            if p.payee != POT:
                net[p.payee] += p.amount
        return net

    @property
    def pot(self) -> int:
        """What was paid into the pot: the deltas add up to minus this."""
        return sum(p.amount for p in self.payments if p.payee == POT)

    def to_json(self, tileset: TileSet = EVERY) -> dict[str, Any]:
        return {
            "opening_hands": [
                {
                    "seat": o.seat,
                    "hands": [{"id": h.id, "name": h.name, "value": h.value} for h in o.hands],
                    "birds": {str(seat): n for seat, n in sorted(o.bird_hits.items())},
                }
                for o in self.opening
            ],
            "wins": self.wins_json(tileset),
            "birds": {str(seat): n for seat, n in sorted(self.bird_hits.items())},
            "payments": [
                {
                    "from": p.payer,
                    "to": payee_json(p.payee),
                    "amount": p.amount,
                    "reasons": list(p.reasons),
                }
                for p in self.payments
            ],
            "deltas": self.deltas,
        }

    def wins_json(self, tileset: TileSet = EVERY) -> list[dict[str, Any]]:
        """The wins of ``to_json`` (the event log writes them at each win)."""
        return [
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
        ]


def payee_json(payee: int) -> int | str:
    """A payee as settlement output and the event log write it: a seat, or ``"pot"``."""
    return "pot" if payee == POT else payee


def settle(ruleset: Ruleset, scenario: HandRecord) -> Settlement:
    """Settle every win of the scenario, then the payment rules of its moments."""
    _check_table(ruleset, scenario)
    opening, payments = _opening(ruleset, scenario)
    tileset = tiles_of_hand(ruleset, scenario)
    options = _options(ruleset)
    winners = frozenset(w.seat for w in scenario.wins)
    hits, bird_tiles = _bird_hits(ruleset, scenario, options)
    wins: list[WinResult] = []
    scored_wins: list[Situation] = []
    for win in scenario.wins:
        situations = [
            _situation(scenario, win, tile, winners, options, hits, tileset, bird_tiles)
            for tile in win.win_tiles
        ]
        known = [hand_facts(ruleset, situation) for situation in situations]
        try:
            result = hand_types(ruleset, situations, win)
        finally:
            for facts, situation in zip(known, situations, strict=True):
                keep_facts(facts, situation)
        _check_allowed(ruleset, situations[0], result, win)
        wins.append(result)
        scored = _scored(situations[0], result)
        scored_wins.append(scored)
        payments.extend(adjust(ruleset, "win", scored, _win_payments(ruleset, scored, result)))
    held: list[Payment] = []
    paid_for: dict[int, Kong] = {}  # the paid kong of each held payment, by its id
    last: set[int] = set()  # the held payments made at the hand's last kong, by id
    for n, kong in enumerate(scenario.paid_kongs + scenario.kongs):
        made = _at_kong(ruleset, scenario, kong)
        held.extend(made)
        last = {id(p) for p in made}
        if n < len(scenario.paid_kongs):
            paid_for.update((id(p), kong) for p in made)
        else:
            payments.extend(made)
    taken: set[int] = set()  # the held payments a rule took up, by id
    # The winners on one discard each see the same money (一炮多响): a rule that moves it to
    # "the winner" pays each of them in full; it is taken for the moments after.
    for scored in scored_wins:
        mine: set[int] = set()
        payments.extend(fire(ruleset, "win", scored, held, mine, last))
        taken |= mine
    held = [p for p in held if id(p) not in taken]
    for claimer in scenario.false_wins:
        situation = _table(scenario, options, players_in_game=scenario.in_game, claimer=claimer)
        payments.extend(fire(ruleset, "false_win", situation, held, taken, last))
    held = [p for p in held if id(p) not in taken]
    if scenario.leaver != NOBODY:
        known = {"leaver": scenario.leaver, "wall_left": scenario.wall_left}
        situation = _hands_still_in(ruleset, scenario, scenario.in_game, "escape", known)
        payments.extend(fire(ruleset, "escape", situation, held, taken, last))
    elif scenario.unfinished:
        still_in = frozenset(h.seat for h in scenario.unfinished)
        situation = _hands_still_in(ruleset, scenario, still_in, "wall_end", {})
        payments.extend(fire(ruleset, "wall_end", situation, held, taken, last))
    # In the order the kongs were made: ``taken`` holds ids, whose order is the memory's.
    gone = {id(kong): kong for i, kong in paid_for.items() if i in taken}
    return Settlement(
        scenario.players, tuple(wins), tuple(payments), hits, len(taken), tuple(gone.values()),
        opening,
    )  # fmt: skip


def _opening(
    ruleset: Ruleset, scenario: HandRecord
) -> tuple[tuple[OpeningResult, ...], list[Payment]]:
    """The opening hands (起手胡) the scenario states, judged and paid as the engine pays
    them on the deal (``interpreter.opening``); a hand that holds none is refused, as a win
    with no hand type is."""
    if not scenario.opening:
        return (), []
    first = scenario.opening[0].location
    if not opening.allowed(ruleset):
        declared = opening.section(ruleset).get("hands")
        why = "allows none (opening_hands.allowed)" if declared else "has no opening hands"
        raise SettlementError(f"opening_hands: {ruleset.id} {why}", first)
    kind = opening.section(ruleset).get("birds", "none")
    given = (
        ("opening_birds", scenario.opening_birds, "wall"),
        ("opening_bird_dice", scenario.opening_bird_dice, "dice"),
    )
    for key, birds, needs in given:
        if birds and kind != needs:
            turned = {"wall": "turns wall tiles", "dice": "rolls dice"}.get(kind, "has no birds")
            raise SettlementError(
                f"{key}: {ruleset.id} {turned} for opening hands (opening_hands.birds: {kind})",
                first,
            )
    players, dealer = scenario.players, scenario.dealer
    hands: list[tuple[Tile, ...]] = [() for _ in range(players)]
    for hand in scenario.opening:
        need = int(ruleset.get(f"players.{'dealer' if hand.seat == dealer else 'other'}_tiles"))
        if len(hand.tiles) != need:
            who = "the dealer" if hand.seat == dealer else f"seat {hand.seat}, not the dealer,"
            raise SettlementError(
                f"opening_hands: {len(hand.tiles)} tiles; {who} is dealt {need}", hand.location
            )
        hands[hand.seat] = hand.tiles
    seats = {hand.seat for hand in scenario.opening}
    found = opening.find_opening(ruleset, dealer, players, hands, seats)
    for hand in scenario.opening:
        if not found[hand.seat]:
            raise SettlementError(
                f"opening_hands: the hand of seat {hand.seat} is no opening hand under "
                f"{ruleset.id}",
                hand.location,
            )
    birds, dice = scenario.opening_birds, scenario.opening_bird_dice
    payments = settle_opening(ruleset, dealer, players, hands, birds, dice, found, scenario.choices)
    results = tuple(
        OpeningResult(
            seat, tuple(found[seat]),
            opening.bird_hits(ruleset, dealer, players, seat, birds, dice),
        )
        for seat in sorted(seats)
    )  # fmt: skip
    return results, payments


def tiles_of_hand(ruleset: Ruleset, scenario: HandRecord) -> TileSet:
    """The ruleset's tile set, with the wild tiles chosen at the deal of this hand."""
    if scenario.wilds is None:
        return ruleset.tileset
    return replace(ruleset.tileset, wilds=scenario.wilds)


def settle_hand_end(ruleset: Ruleset, scenario: HandRecord, winners: frozenset[int]) -> Settlement:
    """The payments of the rules at ``hand_end``: the seats still in and the hand's winners."""
    situation = _table(
        scenario, _options(ruleset), players_in_game=scenario.in_game, winners=winners
    )
    return Settlement(scenario.players, (), tuple(fire(ruleset, "hand_end", situation)))


def fires(ruleset: Ruleset, moment: str) -> bool:
    """Whether any enabled payment rule fires at ``moment``: the engine asks before settling."""
    return bool(_rules(ruleset, moment))


@dataclass(frozen=True)
class _Rule:
    """A payment rule as settlement applies it, read once per ruleset."""

    reason: str
    over: bool
    together: bool
    when: Any
    payers: Any
    payees: Any
    amount: Any


def _rules(ruleset: Ruleset, moment: str) -> list[_Rule]:
    memo = ruleset_memo(ruleset, "payment rules")
    if moment not in memo:
        memo[moment] = [
            _Rule(
                spec.get("reason") or display_name(spec.get("name"), name),
                spec.get("over", "none") != "none",
                bool(spec.get("together")),
                spec["when"],
                spec["payers"],
                spec["payees"],
                spec["amount"],
            )
            for name, spec in (ruleset.get("payments") or {}).items()
            if spec.get("enabled", True) and spec["at"] == moment
        ]
    return memo[moment]


def fire(
    ruleset: Ruleset,
    moment: str,
    situation: Situation,
    held: Sequence[Payment] = (),
    taken: set[int] | None = None,
    last: Collection[int] = (),
) -> list[Payment]:
    """The payments of the rules at ``moment`` in ``situation``, each adjusted.

    ``held``: the payments made at kongs that are still held; a rule ``over: kong`` takes
    up each one its ``when`` accepts (not yet ``taken``) and adds its id to ``taken``; those
    made at the hand's last kong are ``last`` (``paid_at_last_kong``).  What it pays moves
    money already adjusted: it is not adjusted again."""
    made: list[Payment] = []
    taken = set() if taken is None else taken
    for rule in _rules(ruleset, moment):
        if not rule.over:
            if rule.when(situation):
                made.extend(adjust(ruleset, moment, situation, _pairs(rule, situation)))
            continue
        sums: dict[tuple[int, int], int] = {}
        mine = set()
        for earlier in held:
            if id(earlier) in taken:
                continue
            paid = (earlier.payer, earlier.payee, earlier.amount, id(earlier) in last)
            one = _with(situation, earlier=paid)
            if not rule.when(one):
                continue
            mine.add(id(earlier))
            for p in _pairs(rule, one):
                if rule.together:
                    sums[(p.payer, p.payee)] = sums.get((p.payer, p.payee), 0) + p.amount
                else:
                    made.append(p)
        made.extend(Payment(a, b, n, (rule.reason,)) for (a, b), n in sums.items() if n)
        taken |= mine
    return made


def _with(situation: Situation, **known: Any) -> Situation:
    """``situation`` knowing more for settlement (``known``; ``payer``, ``payee`` as seats)."""
    seats = {seat: known.pop(seat) for seat in ("payer", "payee") if seat in known}
    if known:
        seats["settling"] = {**(situation.settling or {}), **known}
    return _set(situation, **seats)


def _set(situation: Situation, **fields: Any) -> Situation:
    """A copy of ``situation`` with ``fields`` set, for fields no fact derived from the hand
    depends on (seats being paid, the hand types found, the value): the facts already worked
    out stay, and the copy costs far less than ``replace`` (made as ``copy.copy`` makes it,
    without its generic steps)."""
    new = object.__new__(Situation)
    new.__dict__.update(situation.__dict__)
    for name, value in fields.items():
        object.__setattr__(new, name, value)
    return new


def _pairs(rule: _Rule, situation: Situation) -> list[Payment]:
    """One payment from each payer to each payee (none to itself, none of 0)."""
    made: list[Payment] = []
    payers = sorted(rule.payers(situation))
    if not payers:
        return made
    if payers[0] < 0:
        raise SettlementError(f"{rule.reason}: its payers hold no seat (nobody or the pot)")
    payees = sorted(rule.payees(situation))
    for payer in payers:
        for payee in payees:
            if payee == payer:
                continue
            amount = int(rule.amount(_with(situation, payer=payer, payee=payee)))
            if amount:  # a negative one too, for the checker to show
                made.append(Payment(payer, payee, amount, (rule.reason,)))
    return made


def adjust(
    ruleset: Ruleset, moment: str, situation: Situation, payments: Sequence[Payment]
) -> list[Payment]:
    """``payments`` made at ``moment``, each changed by the ruleset's adjustments in order."""
    memo = ruleset_memo(ruleset, "adjustments")
    if moment not in memo:
        memo[moment] = [
            (display_name(spec.get("name"), name), spec)
            for name, spec in (ruleset.get("adjustments") or {}).items()
            if spec.get("enabled", True) and moment in spec["at"]
        ]
    rules = memo[moment]
    if not rules or not payments:
        return list(payments)
    made = []
    for p in payments:
        if p.payee == POT:  # out of the players' hands: no stake or cap between them applies
            made.append(p)
            continue
        amount, reasons = p.amount, list(p.reasons)
        for label, spec in rules:
            one = _with(situation, amount=amount, payer=p.payer, payee=p.payee)
            new = int(spec["amount"](one))
            if new != amount:
                reasons.append(f"{label} {new - amount:+d}")
                amount = new
        if amount:
            made.append(replace(p, amount=amount, reasons=tuple(reasons)))
    return made


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
    return build_situation(
        tiles=[*win.concealed, win_tile],
        context=win.context,
        melds=win.melds,
        win_tile=win_tile,
        winning_tiles=len(win.win_tiles),
        self_draw=win.self_draw,
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
    result = hand_types_found(ruleset, situations, win)
    if result is None:
        tiles = ", ".join(EVERY.name(t) for t in win.win_tiles)
        raise SettlementError(
            f"the hand of seat {win.seat} does not win under {ruleset.id} (no hand type "
            f"applies with {tiles})",
            win.location,
        )
    return result


def hand_types_found(
    ruleset: Ruleset, situations: Sequence[Situation], win: Win
) -> WinResult | None:
    """:func:`hand_types`, or None when no hand type applies (the bots' candidate wins
    often have none)."""
    found: dict[str, _HandType] = {}
    found_with: dict[str, list[Situation]] = {}
    kinds = _hand_types_of(ruleset)
    for situation in situations:
        answers = situation.answers
        shaped = probe = None  # worked out when a test is not answered yet
        for kind in kinds:
            if kind.hand_only:  # answered once per hand (``_answer``): maybe already
                answer = answers.get(id(kind.when), answers)
                if answer is not answers:
                    if answer:
                        found[kind.id] = kind
                        found_with.setdefault(kind.id, []).append(situation)
                    continue
            if shaped is None:
                probe = prefilter.probe_of_situation(situation)
                bare, wilds = situation.bare
                shaped = prefilter.has_shape(bare, len(situation.melds), wilds)
            need = kind.shaped_need if shaped else kind.unshaped_need
            if need is not None and probe is not None and not need(probe):
                continue  # its cheap necessary condition fails
            if _answer(kind.when, situation):
                found[kind.id] = kind
                found_with.setdefault(kind.id, []).append(situation)
    if not any(kind.is_hand for kind in found.values()):
        return None
    replaced = {gone for kind in found.values() for gone in kind.replaces}
    kept = {h: kind for h, kind in found.items() if h not in replaced}
    classes = {h: kind.hand_class for h, kind in kept.items()}
    values: dict[str, int] = {}
    told: dict[int, Situation] = {}  # made when a value is not a number
    for h, kind in kept.items():
        if kind.fixed_value is not None:
            values[h] = kind.fixed_value
            continue
        if not told:
            zeros = dict.fromkeys(kept, 0)
            told = {id(s): _set(s, hand_classes=classes, hands=zeros) for s in situations}
        values[h] = max(int(_answer(kind.value, told[id(s)])) for s in found_with[h])
    total = _combined_value(ruleset, situations[0], classes, values)
    hands = tuple(FoundHand(h, kind.name, kind.hand_class, values[h]) for h, kind in kept.items())
    return WinResult(win.seat, win.win_tiles[0], hands, total, win.concealed, win.melds)


def _combined_value(
    ruleset: Ruleset, situation: Situation, classes: dict[str, str], values: dict[str, int]
) -> int:
    """``scoring.value`` of the hand types found (``classes``, ``values``); remembered by
    them when it reads nothing else (hand types, classes, ``hands``, constants and generic
    functions): most wins of a ruleset share a few combinations."""
    combine = ruleset.scoring["value"]
    memo = ruleset_memo(ruleset, "combined values")
    if not memo:
        kinds = _hand_types_of(ruleset)
        memo[_READS_FOUND_ONLY] = combine.names <= _FOUND_ONLY | {
            name for kind in kinds for name in (kind.id, kind.hand_class)
        }
    if not memo[_READS_FOUND_ONLY]:
        return int(combine(_set(situation, hand_classes=classes, hands=values)))
    key = tuple(values.items())
    found = memo.get(key)
    if found is None:
        found = int(combine(_set(situation, hand_classes=classes, hands=values)))
        if len(memo) < _KNOWN_LIMIT:
            memo[key] = found
    return found


_READS_FOUND_ONLY = "reads the hand types found alone"
_FOUND_ONLY = frozenset(e.name for e in (*CONSTANTS, *GENERIC_FUNCTIONS)) | {"hands"}
"""Names that read no fact of a win but the hand types found (``hands``)."""


def _answer(expression: Any, situation: Situation) -> Any:
    """``expression``'s value in ``situation``; once per hand when it reads the hand alone."""
    if not expression.names <= HAND_ONLY:
        return expression(situation)
    answers = situation.answers
    found = answers.get(id(expression), answers)
    if found is answers:
        found = answers[id(expression)] = expression(situation)
    return found


def refusal(situation: Situation, void: int | None, requires: Any) -> str | None:
    """Why ``restrictions`` refuse a win that has a hand type (None: they allow it): it
    holds its declared void suit (定缺), or ``requires`` (``win_requires``) is false.  Play
    and settlement ask it alike."""
    if void is not None:
        held = {i for i, key in enumerate(situation.keys) if key}
        held.update(m.tile // RANKS for m in situation.melds)
        if void in held:
            return "it holds the suit declared void"
    if requires is not None and not _answer(requires, situation):
        return f"restrictions.win_requires is false ({requires.text})"
    return None


def worth(ruleset: Ruleset, situation: Situation, void: int | None = None) -> WinResult | None:
    """What a win is worth: its hand types and combined value in ``situation`` (the
    winner's concealed tiles with the winning tile, its melds, how it was won), or None when
    it does not win under the ruleset: no hand type, the restrictions refuse it (``void``:
    the suit the winner declared void, 定缺), or its value is below ``scoring.min_value``.
    Settlement, the engine, the bots and advice all ask it."""
    if _refused(ruleset, situation, void) is not None:
        return None
    result = situation_hand_types(ruleset, situation)
    return None if result is None or _below_least(ruleset, result) else result


def situation_hand_types(ruleset: Ruleset, situation: Situation) -> WinResult | None:
    """:func:`hand_types_found` of the one win ``situation`` describes (no restriction
    asked)."""
    assert situation.win_tile is not None
    win = Win(situation.winner, (), situation.melds, (situation.win_tile,),
              situation.discarder, frozenset(), _NOWHERE)  # fmt: skip
    return hand_types_found(ruleset, (situation,), win)


def _restrictions(ruleset: Ruleset) -> tuple[Any, int]:
    """The restrictions on a win, read once per ruleset: win_requires (None when always
    true), scoring.min_value."""
    memo = ruleset_memo(ruleset, "restrictions")
    if not memo:
        restrictions = ruleset.get("restrictions") or {}
        requires = restrictions.get("win_requires")
        memo["found"] = (
            None if getattr(requires, "text", "true") == "true" else requires,
            int(ruleset.get("scoring.min_value") or 0),
        )
    return memo["found"]


def _refused(ruleset: Ruleset, situation: Situation, void: int | None) -> str | None:
    return refusal(situation, void, _restrictions(ruleset)[0])


def _below_least(ruleset: Ruleset, result: WinResult) -> str | None:
    least = _restrictions(ruleset)[1]
    if result.total < least:
        return f"its value {result.total} is below scoring.min_value {least}"
    return None


def _check_table(ruleset: Ruleset, scenario: HandRecord) -> None:
    """Refuse a hand written for another table: another number of seats, or a tile of a
    suit the ruleset leaves out (a two-suit table without 万, say)."""
    hands = (*scenario.opening, *scenario.wins, *scenario.unfinished)
    seats = int(ruleset.get("players.count") or 4)
    if scenario.players != seats:
        raise SettlementError(
            f"the hand has {scenario.players} players, {ruleset.id} is played by {seats} "
            f"(write players: {seats})",
            hands[0].location if hands else None,
        )
    tileset = ruleset.tileset
    playable = _playable(tileset)
    for hand in hands:
        if isinstance(hand, Dealt):
            tiles = hand.tiles
        else:
            tiles = (*hand.concealed, *(t for m in hand.melds for t in m.tiles))
        if isinstance(hand, Win):
            tiles += hand.win_tiles
        wrong = sorted({t for t in tiles if not playable >> t & 1})
        if wrong:
            raise SettlementError(
                f"the hand of seat {hand.seat} holds "
                f"{', '.join(EVERY.name(t) for t in wrong)}, out of {ruleset.id}'s tiles",
                hand.location,
            )


def _check_allowed(ruleset: Ruleset, situation: Situation, result: WinResult, win: Win) -> None:
    """Refuse a win that the ruleset's restrictions or ``scoring.min_value`` forbid."""
    why = _refused(ruleset, situation, None) or _below_least(ruleset, result)
    if why is not None:
        raise SettlementError(
            f"the hand of seat {win.seat} does not win under {ruleset.id}: {why}", win.location
        )


def _options(ruleset: Ruleset) -> Mapping[str, Any]:
    """The ruleset's option values, read once (``option_values`` builds them on each read)."""
    memo = ruleset_memo(ruleset, "options")
    if not memo:
        memo[True] = ruleset.option_values
    return memo[True]


class _HandType(NamedTuple):
    """A hand type or modifier as settlement asks it, read once per ruleset."""

    id: str
    when: Any
    value: Any
    name: str
    hand_class: str
    replaces: tuple[str, ...]
    is_hand: bool
    """Its id is a hand type's (a win needs one)."""
    hand_only: bool
    """Its ``when`` reads the hand alone (``HAND_ONLY``): answered once per hand."""
    fixed_value: int | None
    """Its ``value`` when written as a number (most are): then never evaluated."""
    shaped_need: prefilter.Need | None
    unshaped_need: prefilter.Need | None
    """The cheap necessary conditions of ``when`` (``prefilter``) for a hand that may have
    a shape and for one that has none."""


def _hand_types_of(ruleset: Ruleset) -> list[_HandType]:
    """The enabled hand types, then the enabled modifiers, in the order written."""
    memo = ruleset_memo(ruleset, "hand types")
    if not memo:
        hands = ruleset.get("hands") or {}
        modifiers = ruleset.get("modifiers") or {}
        memo["all"] = [
            _HandType(
                hand_id, spec["when"], spec["value"], display_name(spec.get("name"), hand_id),
                spec.get("class") or default_class,
                tuple((hands.get(hand_id) or modifiers.get(hand_id) or {}).get("replaces", ())),
                hand_id in hands,
                spec["when"].names <= HAND_ONLY,
                _number(spec["value"]),
                *(prefilter.test_of(prefilter.necessary(spec["when"].ast, unshaped))
                  for unshaped in (False, True)),
            )
            for section, default_class in ((hands, None), (modifiers, "bonus"))
            for hand_id, spec in section.items()
            if spec.get("enabled", True)
        ]  # fmt: skip
    return memo["all"]


def _number(expression: Any) -> int | None:
    """The value of an expression written as a whole number; None for any other."""
    node = expression.ast
    return node.value if isinstance(node, syntax.Literal) and node.kind == "int" else None


def _table(scenario: HandRecord, options: Mapping[str, Any], **seats: Any) -> Situation:
    """A situation about the table rather than a hand: seats, dealers, options."""
    return build_situation(
        dealer=scenario.dealer,
        dealers=scenario.dealers,
        players=scenario.players,
        options=options,
        choices=scenario.choices,
        **seats,
    )


def _bird_hits(
    ruleset: Ruleset, scenario: HandRecord, options: Mapping[str, Any]
) -> tuple[dict[int, int], tuple[Tile, ...]]:
    """How many birds point at each seat, by the ruleset's bird count and seat mapping (a
    bird on ``nobody`` hits no one), and the bird tiles counted."""
    birds = ruleset.get("birds") or {}
    if not birds or not scenario.wins:  # birds are for a win
        return {}, ()
    first = scenario.wins[0]
    win_tile = first.win_tiles[0] if first.win_tiles else None
    base = _table(
        scenario,
        options,
        winner=first.seat,
        discarder=first.discarder,
        win_tile=win_tile,
        last_tile="last_tile" in first.context,
        tiles=(*first.concealed, *first.win_tiles[:1]),
        melds=first.melds,
        tileset=tiles_of_hand(ruleset, scenario),
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


def _scored(situation: Situation, result: WinResult) -> Situation:
    """The win's situation once its hand types and value are known."""
    values = {h.id: h.value for h in result.hands}
    classes = {h.id: h.hand_class for h in result.hands}
    return _set(situation, hands=values, hand_classes=classes, value=result.total)


def _win_payments(ruleset: Ruleset, scored: Situation, result: WinResult) -> list[Payment]:
    """The win's own payment (``payment`` and ``birds``) from each payer."""
    payment = ruleset.payment
    birds = ruleset.get("birds") or {}
    payers = sorted(set(payment["payers"](scored)) - {result.seat})
    names = ", ".join(f"{h.name} {h.value}" for h in result.hands if h.value)  # worth something
    worth = f"{names} (total {result.total})" if names else f"total {result.total}"
    after = payment.get("bonus_after_birds", False)
    cap_after_birds = payment.get("cap_after_birds", True)
    made = []
    for payer in payers:
        one = _set(scored, payer=payer)
        base = int(payment["base"](one))
        dealer_bonus = int(payment["dealer_bonus"](one))
        self_draw_bonus = int(payment["self_draw_bonus"](one)) if one.self_draw else 0
        multiplier = int(birds["multiplier"](one)) if birds else 1
        cap = int(payment["cap"](one))
        reasons = [worth, f"base {base}"]
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


def _at_kong(ruleset: Ruleset, scenario: HandRecord, kong: Kong) -> list[Payment]:
    """The payments of the rules at a kong, for one declared kong."""
    situation = _table(
        scenario,
        _options(ruleset),
        players_in_game=scenario.in_game if kong.in_game is None else kong.in_game,
        kong_seat=kong.seat,
        provider=kong.provider,
        settling={"kong_kind": KONG_KIND[kong.kind]},
        kong_from_draw=kong.from_draw,
    )
    return fire(ruleset, "kong", situation)


def _hands_still_in(
    ruleset: Ruleset,
    scenario: HandRecord,
    still_in: frozenset[int],
    moment: str,
    known: dict[str, Any],
) -> Situation:
    """The situation when the wall ran out or a seat left (``known``: who, when): the seats
    still in and what the hands given (``unfinished``) hold.

    ``ready_seats`` is worked out only for a ruleset whose rules at ``moment`` read it."""
    table = _Hands(ruleset, scenario, still_in)
    reads = _reads_ready(ruleset, moment)
    ready = frozenset(h.seat for h in scenario.unfinished if reads and table.ready(h.seat))
    return _table(
        scenario, _options(ruleset), players_in_game=still_in, ready=ready,
        settling={"table": table, **known},
    )  # fmt: skip


def _reads_ready(ruleset: Ruleset, moment: str) -> bool:
    """Whether an expression of the payment rules or adjustments at ``moment`` reads
    ``ready_seats``, read once per ruleset and moment."""
    memo = ruleset_memo(ruleset, f"{moment} reads ready_seats")
    if not memo:
        specs = [
            *((ruleset.get("payments") or {}).values()),
            *((ruleset.get("adjustments") or {}).values()),
        ]
        memo[True] = any(
            syntax.mentions(expr, "ready_seats")
            for spec in specs
            if moment in ((spec["at"],) if isinstance(spec["at"], str) else spec["at"])
            for expr in spec.values()
        )
    return memo[True]


@cache
def _playable(tileset: TileSet) -> int:
    """``tileset.playable()``, worked out once per tile set."""
    return tileset.playable()


def _reads_discarder(ruleset: Ruleset) -> bool:
    """Whether the hand types, the combined value or the restrictions on a win read
    ``discarder`` (read once per ruleset)."""
    memo = ruleset_memo(ruleset, "hand types read discarder")
    if not memo:
        expressions = [e for kind in _hand_types_of(ruleset) for e in (kind.when, kind.value)]
        expressions += [ruleset.scoring["value"], _restrictions(ruleset)[0]]
        memo[True] = any(syntax.mentions(e, "discarder") for e in expressions if e is not None)
    return memo[True]


class _Hands:
    """What the payment rules at the wall's end may ask about the hands still in."""

    def __init__(self, ruleset: Ruleset, scenario: HandRecord, still_in: frozenset[int]):
        self.ruleset = ruleset
        self.scenario = scenario
        self.still_in = still_in
        self.hands = {h.seat: h for h in scenario.unfinished}
        self.waits: dict[int, list[Tile]] = {}
        self.held_suits: dict[int, frozenset[int]] = {}
        self.end: HandRecord | None = None
        """The hand as the wins imagined here see it, made when one is first asked."""
        self.situations: dict[tuple[int, Tile, bool], Situation] = {}
        """The situation of each imagined win, by seat, tile and whether self-drawn."""
        self.found: dict[tuple[int, Tile, Any], WinResult | SettlementError] = {}
        """What each imagined win makes (its hand types, or why it does not win), by seat,
        tile and discarder: by whether it is self-drawn alone when no hand type, the
        combined value nor the restrictions read who discarded (``_reads_discarder``)."""

    def hand(self, seat: int) -> Unfinished:
        if seat not in self.hands:
            raise SettlementError(f"seat {seat} is not among the players still in")
        return self.hands[seat]

    def suits(self, seat: int) -> frozenset[int]:
        if seat not in self.held_suits:
            hand = self.hand(seat)
            suits = {t // RANKS for t in hand.concealed}
            suits.update(m.tile // RANKS for m in hand.melds)
            self.held_suits[seat] = frozenset(suits)
        return self.held_suits[seat]

    def winning_tiles(self, seat: int) -> list[Tile]:
        """The tiles on which the hand would win: a hand type, and the restrictions allow it."""
        if seat not in self.waits:
            hand = self.hand(seat)
            found: list[Tile] = []
            ts = tiles_of_hand(self.ruleset, self.scenario)
            keys, wilds = shapes.without_wilds(shapes.keys_of_tiles(hand.concealed, ts), ts)
            for tile in shapes.waits(keys, "quads", ts.copies, _playable(ts), wilds):
                try:
                    self.win(hand, tile, None)
                except SettlementError:
                    continue
                found.append(tile)
            self.waits[seat] = found
        return self.waits[seat]

    def ready(self, seat: int) -> bool:
        return bool(self.winning_tiles(seat))

    def win(self, hand: Unfinished, tile: Tile, payer: int | None) -> tuple[Situation, WinResult]:
        """The hand as if it won on ``tile`` discarded by ``payer`` (None: self-drawn); a
        SettlementError when the ruleset would not let it win."""
        win = Win(hand.seat, hand.concealed, hand.melds, (tile,), payer, frozenset(), _NOWHERE)
        if self.end is None:
            self.end = replace(self.scenario, in_game=self.still_in, wins=(), birds=(),
                               bird_dice=())  # fmt: skip
        first = self.situations.get((hand.seat, tile, payer is None))
        if first is None:
            situation = self.situations[(hand.seat, tile, payer is None)] = _situation(
                self.end, win, tile, frozenset({hand.seat}), _options(self.ruleset), {},
                tiles_of_hand(self.ruleset, self.scenario),
            )  # fmt: skip
        else:  # another discarder of the same win: nothing derived from the hand changes
            situation = first if first.discarder == payer else _set(first, discarder=payer)
        memo = (hand.seat, tile, payer if _reads_discarder(self.ruleset) else payer is None)
        known = hand_facts(self.ruleset, situation)
        found = self.found.get(memo)
        if found is None:
            try:
                found = hand_types(self.ruleset, [situation], win)
                _check_allowed(self.ruleset, situation, found, win)
            except SettlementError as error:
                found = error
            finally:
                keep_facts(known, situation)
            self.found[memo] = found
        if isinstance(found, SettlementError):
            raise found
        return situation, found

    def win_amount(self, seat: int, payer: int | None, pick: Any) -> int:
        """The most or least (``pick``) ``payer`` would pay ``seat``'s hand for a win on a
        tile it waits on, discarded by ``payer``: the win's own payment."""
        amounts = []
        for tile in self.winning_tiles(seat):
            won, result = self.win(self.hand(seat), tile, payer)
            amounts.extend(
                p.amount
                for p in _win_payments(self.ruleset, _scored(won, result), result)
                if p.payer == payer
            )
        return pick(amounts) if amounts else 0


def settle_opening(
    ruleset: Ruleset, dealer: int, players: int, hands: Sequence[Sequence[Tile]],
    birds: Sequence[Tile] = (), bird_dice: Sequence[int] = (),
    found: Sequence[Sequence[OpeningHand]] | None = None,
    choices: Mapping[str, tuple[Any, ...]] | None = None,
) -> list[Payment]:  # fmt: skip
    """The payments for every seat's opening hands (``hands``: each seat's dealt tiles).

    ``birds`` are the bird tiles (``birds: wall``) or ``bird_dice`` the dice rolled
    (``birds: dice``); the same birds serve every seat.  ``found`` may pass what
    :func:`interpreter.opening.find_opening` returned, to avoid judging the hands twice;
    ``choices`` the choices made before the deal (a stake the adjustments add, 飘)."""
    if found is None:
        found = opening.find_opening(ruleset, dealer, players, hands)
    spec = opening.section(ruleset)
    stack = bool(spec.get("stack", False))
    bird_spec = ruleset.get("birds") or {}
    payments: list[Payment] = []
    for seat, seat_hands in enumerate(found):
        if not seat_hands:
            continue
        situation = opening.opening_situation(ruleset, dealer, players, seat, hands[seat], choices)
        hits = opening.bird_hits(ruleset, dealer, players, seat, birds, bird_dice)
        counted = opening.bird_tiles(ruleset, dealer, players, seat, birds, bird_dice)
        scored = replace(situation, bird_hits=hits, bird_tiles=counted)
        values = [h.value for h in seat_hands]
        times = sum(values) if stack else max(values)
        names = ", ".join(h.name for h in seat_hands)
        use_birds = (
            opening.bird_count(ruleset, dealer, players, seat) > 0 and "multiplier" in bird_spec
        )
        made: list[Payment] = []
        for payer in range(players):
            if payer == seat:
                continue
            one = replace(scored, payer=payer)
            base = opening.number(spec.get("payment", 0), one)
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
