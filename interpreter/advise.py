"""Which tile to discard, as a ruleset counts it (何切): readiness, chances, value, danger.

Shape alone misleads: a hand ready in shape may never win where a win must lack a suit,
and a hand far in shape may be one tile from a hand type that needs no shape.  So every
question here goes to the ruleset: a hand is ready when its own win test
(``Rules.win_value``) accepts some tile, a win is worth what its settlement pays
(``RuleFacts.points``), and the hand types named are the ruleset's own.

For each discard the advice gives

- **distance**: 0 when the ruleset accepts a win on some tile; otherwise the shape's
  shanten (seven pairs only where the ruleset wins with them), counted without the suit
  to give up when a win must lack one (its tiles must all be replaced); a hand ready in
  shape that no tile wins counts 1;
- **accepted**: the tiles that bring it nearer (the winning tiles when ready) and their
  live copies (not in the hand, not visible);
- **chances** within ``draws`` own draws: exact (hypergeometric) for a ready hand, else
  simulated by playouts that draw from the unseen tiles and discard as the efficiency
  bot does, the suit to give up first (others' discards and claims are not counted);
- **value**: what a win pays this seat by the ruleset's settlement (self-drawn), and the
  expected points (chance to win × value);
- **danger**: how likely the tile deals into an opponent, by the defensive bot's reading
  of what is visible (its rivers, melds and void suits): Σ threat × danger.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from math import prod
from random import Random
from typing import Any

from dsl.ruleset import Ruleset
from dsl.situation import HandMeld
from handcore import shapes
from handcore.discards import accepted_tiles, discard_table
from handcore.shapes import Keys
from handcore.suit_tables import RANKS
from handcore.tiles import EVERY, STANDARD, Tile, TileSet
from interpreter.agents import reading
from interpreter.agents.defensive import DefensiveAgent
from interpreter.agents.reading import View
from interpreter.analysis import HandAnalysis, analyse_hand
from interpreter.context import build_situation
from interpreter.engine.narrate import WINDS

SIMULATED = 5
"""Discards (the nearest first) whose chances are simulated; the others get none."""


_WARN = 0.15
"""Danger (Σ threat × danger) from which the recommendation names a safer discard."""


class AdviceError(ValueError):
    """A position that cannot be advised (wrong tile count, too many copies)."""


@dataclass
class Option:
    """One discard (``discard`` None: a hand of 3n+1 tiles, judged as it stands)."""

    discard: Tile | None
    distance: int
    accepted: list[tuple[Tile, int]]
    """Accepted tiles with their live copies (the winning tiles when ready)."""
    refused: str = ""
    """Why the shape's distance is not the ruleset's (a suit to give up, no tile wins)."""
    p_ready: float | None = None
    p_win: float | None = None
    method: str = ""
    value: float = 0.0
    """Mean points a self-drawn win pays this seat."""
    on_discard: float = 0.0
    """Mean points a win on a discard pays (ready hands)."""
    ev: float | None = None
    hands: list[tuple[str, float]] = field(default_factory=list)
    """Hand types of the wins (ready: of the waits by live copies; else: of simulated wins)."""
    danger: float = 0.0

    @property
    def live(self) -> int:
        return sum(n for _, n in self.accepted)


@dataclass
class Advice:
    ruleset: str
    hand: list[Tile]
    melds: tuple[HandMeld, ...]
    draws: int
    samples: int
    options: list[Option]
    best: Option
    reason: str

    def to_json(self) -> dict[str, Any]:
        name = EVERY.name

        def one(o: Option) -> dict[str, Any]:
            return {
                "discard": None if o.discard is None else name(o.discard),
                "distance": o.distance,
                "ready": o.distance == 0,
                "accepted": {name(t): n for t, n in o.accepted},
                "live": o.live,
                "note": o.refused or None,
                "p_ready": o.p_ready,
                "p_win": o.p_win,
                "method": o.method or None,
                "value": round(o.value, 3),
                "value_on_discard": round(o.on_discard, 3),
                "expected": None if o.ev is None else round(o.ev, 3),
                "hand_types": [{"names": h, "share": round(s, 3)} for h, s in o.hands],
                "danger": round(o.danger, 3),
            }

        return {
            "ruleset": self.ruleset,
            "hand": EVERY.format(self.hand),
            "melds": [m.kind + " " + name(m.tile) for m in self.melds],
            "draws": self.draws,
            "options": [one(o) for o in self.options],
            "recommend": None if self.best.discard is None else name(self.best.discard),
            "reason": self.reason,
        }

    def to_text(self, unicode: bool = False) -> str:
        def tile(t: Tile) -> str:
            return EVERY.format_unicode([t]) if unicode else EVERY.name(t)

        lines = [f"{self.ruleset}: {EVERY.format(self.hand)}"]
        if self.melds:
            lines[0] += "  melds " + " ".join(EVERY.format(list(m.tiles)) for m in self.melds)
        lines.append(
            f"{'discard':8}{'dist':>5}{'live':>5}  {'P(ready)':>8}{'P(win)':>8}"
            f"{'value':>7}{'EV':>7}{'danger':>7}  accepted / hand types"
        )
        for o in self.options:
            what = "—" if o.discard is None else tile(o.discard)
            pct = lambda p: "" if p is None else f"{100 * p:.0f}%"  # noqa: E731
            ev = "" if o.ev is None else f"{o.ev:.2f}"
            acc = " ".join(f"{tile(t)}×{n}" for t, n in o.accepted) or "none live"
            types = ", ".join(f"{h} {100 * s:.0f}%" for h, s in o.hands[:2])
            lines.append(
                f"{what:8}{o.distance:>5}{o.live:>5}  {pct(o.p_ready):>8}{pct(o.p_win):>8}"
                f"{o.value:>7.1f}{ev:>7}{o.danger:>7.2f}  {acc}"
                + (f"; {types}" if types else "")
                + (f"  ({o.refused})" if o.refused else "")
            )
        methods = sorted({o.method for o in self.options if o.method})
        lines.append(f"chances within {self.draws} own draws: " + "; ".join(methods))
        lines.append(self.reason)
        return "\n".join(lines)


def parse_seat(text: str) -> int:
    """A seat by wind (东南西北) or number."""
    text = text.strip()
    if len(text) == 1 and text in WINDS:
        return WINDS.index(text)
    if text.isdigit() and int(text) < len(WINDS):
        return int(text)
    raise AdviceError(f"seat {text!r}: expected one of 东南西北 or 0-3")


def parse_melds(text: str, tileset: TileSet = STANDARD) -> tuple[HandMeld, ...]:
    """Exposed melds written apart by spaces: ``555p 789s 2222m`` (a pung, a chow, a kong)."""
    melds = []
    for group in text.split():
        tiles = sorted(tileset.parse(group))
        if len(tiles) == 3 and tiles[0] == tiles[2]:
            melds.append(HandMeld("pung", tiles[0], False))
        elif len(tiles) == 4 and tiles[0] == tiles[3]:
            melds.append(HandMeld("kong", tiles[0], False))
        elif (
            len(tiles) == 3
            and tiles[1] == tiles[0] + 1
            and tiles[2] == tiles[0] + 2
            and (tiles[0] // RANKS == tiles[2] // RANKS)
            and not tileset.is_honour(tiles[0])
        ):
            melds.append(HandMeld("chow", tiles[0], False))
        else:
            raise AdviceError(f"meld {group!r}: expected a chow, a pung or a kong")
    return tuple(melds)


def observation(
    ruleset: Ruleset,
    hand: list[Tile],
    melds: tuple[HandMeld, ...] = (),
    visible: list[Tile] | None = None,
    seat: int = 0,
    dealer: int = 0,
    rivers: dict[int, list[Tile]] | None = None,
    void: int | None = None,
    wall: int | None = None,
) -> dict[str, Any]:
    """A seat's observation built from a position typed by hand: ``visible`` tiles are seen
    elsewhere (no seat's), ``rivers`` are seats' discards, ``wall`` defaults to the tiles
    neither dealt nor seen."""
    players = reading.facts(ruleset).rules.players
    rivers = rivers or {}
    tileset = ruleset.tileset
    held = tileset.counts([*hand, *(t for m in melds for t in m.tiles)])
    shown = tileset.counts([*(visible or ()), *(t for r in rivers.values() for t in r)])
    for tile, (h, s) in enumerate(zip(held, shown, strict=True)):
        if h + s > tileset.copies:
            raise AdviceError(
                f"{tileset.name(tile)} is held {h} time(s) (hand and melds) and seen {s} "
                f"time(s) (visible and rivers): only {tileset.copies} copies exist"
            )
    discards = [tuple(rivers.get(q, ())) for q in range(players)]
    discards[seat] = (*discards[seat], *(visible or ()))  # seen, but not another's river
    all_melds: list[tuple[Any, ...]] = [() for _ in range(players)]
    all_melds[seat] = tuple((m.kind, m.tile, m.concealed) for m in melds)
    voids: list[int | None] = [None] * players
    voids[seat] = void
    total = len(reading.facts(ruleset).rules.all_tiles)
    seen = sum(len(d) for d in discards)
    return {
        "seat": seat,
        "hand": tuple(hand),
        "melds": tuple(all_melds),
        "discards": tuple(discards),
        "rivers": tuple(tuple((t, None) for t in rivers.get(q, ())) for q in range(players)),
        "kong_tiles": (),
        "won": (),
        "flowers": ((),) * players,
        "wall": wall if wall is not None else max(total - 13 * players - 1 - seen, 0),
        "players": players,
        "dealer": dealer,
        "in_game": (True,) * players,
        "void": tuple(voids),
        "ruleset": ruleset,
    }


def shape_advice(
    ruleset: Ruleset, hand: list[Tile], wilds: int, wild_tile: Tile | None,
    melds: tuple[HandMeld, ...], visible: list[Tile], wilds_seen: int,
) -> HandAnalysis:  # fmt: skip
    """A hand holding wilds, by its shape: shanten, waits and discards with live copies
    (the exposed melds' tiles count as seen), under the ruleset's seven-pairs form."""
    in_melds = [t for m in melds for t in m.tiles]
    form = reading.form_for(len(melds), reading.facts(ruleset).form)
    return analyse_hand(hand, len(melds), visible + in_melds, form, ruleset.tileset,
                        wilds, wild_tile, wilds_seen)  # fmt: skip


def advise(
    ruleset: Ruleset, obs: dict[str, Any], draws: int = 8, samples: int = 200, seed: int = 0
) -> Advice:
    """Advice for the seat of ``obs`` (an engine observation, or one from ``observation``)."""
    f = reading.facts(ruleset)
    view = View.of(obs)
    size = sum(view.counts) + 3 * len(view.melds)
    if size not in (13, 14) or any(n > f.copies for n in view.counts):
        raise AdviceError(
            f"{sum(view.counts)} concealed tiles with {len(view.melds)} meld(s): expected "
            f"{13 - 3 * len(view.melds)} or {14 - 3 * len(view.melds)}, "
            f"at most {f.copies} of a tile"
        )
    draws = max(1, min(draws, int(view.draws_left()) or 1))
    judge = _Judge(f, view, samples, seed)
    if size == 14:
        candidates: list[Tile | None] = [t for t in range(len(view.counts)) if view.counts[t]]
    else:
        candidates = [None]
    options = [judge.option(d) for d in candidates]
    options.sort(key=lambda o: (o.distance, -o.live))
    for o in options[:SIMULATED]:
        judge.chances(o, draws)
    defender = DefensiveAgent()
    threats = defender.threats(obs, view, f)
    for o in options:
        if o.discard is not None:
            o.danger = sum(w * defender.danger(obs, view, q, o.discard) for q, w in threats.items())
    best, reason = _recommend(options)
    hand = EVERY.tiles_of(view.counts)
    return Advice(ruleset.id, hand, view.melds, draws, samples, options, best, reason)


class _Judge:
    """The ruleset's answers for one position, remembered per hand."""

    def __init__(self, f: reading.RuleFacts, view: View, samples: int, seed: int) -> None:
        self.f = f
        self.rules = f.rules
        self.view = view
        self.samples = samples
        self.seed = seed
        self.m = len(view.melds)
        self.form = reading.form_for(self.m, f.form)
        self._waits: dict[Keys, list[Tile]] = {}

    def tiles(self) -> list[Tile]:
        return list(self.rules.hand_tiles)

    def winning(self, keys: Keys, t: Tile, self_draw: bool) -> bool:
        """Does the ruleset accept the win with ``keys`` (``t`` included)?"""
        view = self.view
        n = view.players
        situation = build_situation(
            keys=keys, melds=view.melds, win_tile=t, self_draw=self_draw, winner=view.seat,
            discarder=None if self_draw else (view.seat - 1) % n, dealer=view.dealer,
            players=n, players_in_game=frozenset(range(n)), options=self.rules.options,
        )  # fmt: skip
        shaped = self.rules.shape_ok(keys, self.m)
        return self.rules.win_value(situation, view.void, shaped) is not None

    def waits(self, keys: Keys) -> list[Tile]:
        """The tiles on which the ruleset accepts a win (self-drawn or on a discard)."""
        found = self._waits.get(keys)
        if found is None:
            found = []
            if self.rules.may_win_with_one_more(keys, self.view.melds):
                for t in self.tiles():
                    if shapes.tile_count(keys, t) >= self.f.copies:
                        continue
                    full = shapes.add_tile(keys, t)
                    if self.winning(full, t, True) or self.winning(full, t, False):
                        found.append(t)
            self._waits[keys] = found
        return found

    def give_up(self, keys: Keys) -> tuple[Keys, int | None]:
        """The keys without the suit to give up (the declared void, or under a rule that a
        win lacks a suit the one that leaves the hand nearest), and that suit."""
        void = self.view.void
        if void is None and not self.rules.void_suit:
            return keys, None
        if void is None and sum(1 for k in keys if k) < len(self.rules.suits):
            return keys, None  # already lacks a suit
        choices = [void] if void is not None else list(self.rules.suits)

        def without(s: int) -> Keys:
            return tuple(0 if i == s else k for i, k in enumerate(keys))

        best = min(choices, key=lambda s: (shapes.shanten(without(s), self.m, self.form), s))
        return without(best), best

    def option(self, discard: Tile | None) -> Option:
        keys = self.view.keys if discard is None else shapes.add_tile(self.view.keys, discard, -1)
        visible = list(self.view.visible)
        if discard is not None:
            visible[discard] += 1  # the discard lies in the river
        waits = self.waits(keys)
        if waits:
            live = [(t, reading.live_copies(keys, t, visible, self.f.copies)) for t in waits]
            return Option(discard, 0, live)
        kept, suit = self.give_up(keys)
        distance = shapes.shanten(kept, self.m, self.form)
        note = ""
        if suit is not None and kept != keys:
            note = f"a win must lack a suit: {STANDARD.suits[suit].names[0]} to give up"
        if distance <= 0:
            waits = shapes.waits(kept, self.form, self.f.copies, self.rules.playable)
            shown = " ".join(map(EVERY.name, waits))
            note = f"ready in shape on {shown}, but the ruleset accepts no win on them"
        if distance <= 1:  # one draw from ready: ask the win test which draws get there
            near = [(t, n) for t, n in self.one_away(keys, visible) if n]
            if near or distance == 1:
                return Option(discard, 1, near, note)
            note += "; no draw makes it ready under the ruleset"
            distance = 2
        _, masks = accepted_tiles(kept, self.m, self.form)
        helping = [
            s * RANKS + r
            for s, mask in enumerate(masks)
            for r in range(RANKS)
            if mask >> r & 1 and s != suit
        ]
        live = [(t, reading.live_copies(keys, t, visible, self.f.copies)) for t in helping]
        return Option(discard, distance, [(t, n) for t, n in live if n], note)

    def one_away(self, keys: Keys, visible: list[int]) -> list[tuple[Tile, int]]:
        """The draws after which some discard leaves the hand ready under the ruleset."""
        found = []
        for t in self.tiles():
            if shapes.tile_count(keys, t) >= self.f.copies:
                continue
            full = shapes.add_tile(keys, t)
            counts = shapes.counts_of(full)
            held = (u for u in range(len(counts)) if counts[u])
            if any(self.waits(shapes.add_tile(full, u, -1)) for u in held):
                found.append((t, reading.live_copies(keys, t, visible, self.f.copies)))
        return found

    def points(self, keys: Keys, t: Tile, self_draw: bool) -> float:
        return self.f.points(self.view, keys, self.view.melds, t, self_draw)

    def hand_names(self, keys: Keys, t: Tile) -> str:
        situation = build_situation(
            keys=keys, melds=self.view.melds, win_tile=t, self_draw=True,
            winner=self.view.seat, dealer=self.view.dealer, players=self.view.players,
            options=self.rules.options,
        )  # fmt: skip
        result = self.rules.hand_types(situation)
        if result is None:
            return "?"
        return "、".join(h.name for h in result.hands if h.value) or result.hands[0].name

    def chances(self, o: Option, draws: int) -> None:
        keys = self.view.keys
        if o.discard is not None:
            keys = shapes.add_tile(keys, o.discard, -1)
        visible = list(self.view.visible)
        if o.discard is not None:
            visible[o.discard] += 1
        unseen = sum(reading.live_copies(keys, t, visible, self.f.copies) for t in self.tiles())
        if o.distance == 0:
            live = o.live
            o.p_ready = 1.0
            o.p_win = (
                1 - prod((unseen - live - i) / (unseen - i) for i in range(draws))
                if (live and unseen >= draws)
                else (1.0 if live else 0.0)
            )
            o.method = "exact (hypergeometric) for ready hands"
            names: Counter[str] = Counter()
            total = on_discard = 0.0
            for t, n in o.accepted:
                full = shapes.add_tile(keys, t)
                total += n * self.points(full, t, True)
                on_discard += n * self.points(full, t, False)
                names[self.hand_names(full, t)] += n
            o.value = total / live if live else 0.0
            o.on_discard = on_discard / live if live else 0.0
            o.ev = o.p_win * o.value
            o.hands = [(h, c / live) for h, c in names.most_common()] if live else []
            return
        self._simulate(o, keys, visible, draws)

    def _simulate(self, o: Option, keys: Keys, visible: list[int], draws: int) -> None:
        """Playouts of ``draws`` own draws from the unseen tiles: each wins, gets ready or not."""
        pool = [
            t
            for t in self.tiles()
            for _ in range(reading.live_copies(keys, t, visible, self.f.copies))
        ]
        rng = Random(self.seed)
        _, suit = self.give_up(keys)
        blocked = reading.blind_visible(self.view, suit)
        ready = won = 0
        worth = 0.0
        names: Counter[str] = Counter()
        for _ in range(self.samples):
            rng.shuffle(pool)
            hand, got_ready = keys, False
            for t in pool[:draws]:
                full = shapes.add_tile(hand, t)
                if self.winning(full, t, True):
                    won += 1
                    got_ready = True
                    worth += self.points(full, t, True)
                    names[self.hand_names(full, t)] += 1
                    break
                counts = shapes.counts_of(full)
                rows = discard_table(full, self.m, blocked, self.form)
                out = next(  # one that leaves it ready under the ruleset, else the table's
                    (r.discard for r in rows if self.waits(shapes.add_tile(full, r.discard, -1))),
                    reading.first_legal(rows, set(range(len(counts))), suit, counts).discard,
                )
                hand = shapes.add_tile(full, out, -1)
                got_ready = got_ready or bool(self.waits(hand))
            ready += got_ready
        n = self.samples
        o.p_ready, o.p_win = ready / n, won / n
        o.value = worth / won if won else 0.0
        o.ev = worth / n
        o.hands = [(h, c / won) for h, c in names.most_common()]
        o.method = (
            f"simulated ({n} playouts: a discard that leaves it ready, else the efficiency"
            " bot's) for hands not ready"
        )


def _recommend(options: list[Option]) -> tuple[Option, str]:
    """The discard of best expected points; ties (and no expected points) by distance, live
    tiles, danger."""
    judged = [o for o in options if o.ev is not None]
    best = max(judged, key=lambda o: (round(o.ev or 0.0, 6), -o.distance, o.live, -o.danger))
    name = EVERY.name
    head = "as it stands" if best.discard is None else f"discard {name(best.discard)}"
    if best.distance == 0:
        waits = " ".join(name(t) for t, _ in best.accepted)
        why = (
            f"ready on {waits} ({best.live} live), {100 * (best.p_win or 0):.0f}% to win "
            f"within the draws, {best.value:g} a self-drawn win"
        )
    elif not best.ev:
        why = f"{best.distance} from ready with {best.live} live tiles; no simulated win"
    else:
        why = f"{best.distance} from ready with {best.live} live tiles, expected {best.ev:.2f}"
        fastest = min(judged, key=lambda o: (o.distance, -o.live))
        if fastest is not best and (fastest.distance, fastest.live) != (best.distance, best.live):
            why += (
                f" against {fastest.ev or 0:.2f} for the fastest"
                f" ({name(fastest.discard) if fastest.discard is not None else '—'})"
            )
    if best.hands:
        why += f"; aiming at {best.hands[0][0]}"
    if best.refused:
        why += f"; {best.refused}"
    if best.discard is None and best.distance and best.refused:
        head = "never wins as it stands"
    safer = [
        o
        for o in judged
        if o.discard is not None and o.danger <= best.danger / 2 and o.ev >= 0.7 * (best.ev or 0)
    ]
    if best.danger >= _WARN and safer:
        calm = min(safer, key=lambda o: o.danger)
        why += (
            f"; but it is dangerous ({best.danger:.2f}): {name(calm.discard)} is safer "
            f"({calm.danger:.2f}) for expected {calm.ev or 0:.2f}"
        )
    return best, f"{head}: {why}"
