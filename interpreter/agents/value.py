"""The value-aware bot: the efficiency bot's speed, weighed against what the ruleset pays.

It values a hand by asking the settlement engine, never by hand-type names:

- a **ready** hand (one tile from a win) is worth, for each wait, what settling that win
  pays (the ruleset's own ``win`` test first: a wait that does not win is worth nothing),
  averaged over the live copies of the waits, self-draw and discard mixed;
- a hand **further away** is weighed against shape *targets*: the plain hand, each single
  suit, all pungs, seven pairs (when the ruleset's win test accepts them), one suit with
  pungs or pairs.  Each target's worth is learned by completing the hand greedily within
  the target and settling the result; its distance is the target's shanten.

A hand's score is (chance to win) × (worth).  The chance is estimated from the distance,
the live accepted tiles, the draws left and a per-turn ``hazard`` that the hand ends by
another's win first.  The bot takes the discard of best score unless the efficiency bot's
choice scores within a factor ``value_threshold`` of it (``1.0``: always the best score;
large: play for speed and use value only when it is many times larger).  A claim is taken
when the hand after it scores at least ``claim_margin`` times the hand without it (below 1:
claims are favoured, as the estimate undervalues the speed they bring).  A kong is
declared when the hand after it, plus what the settlement pays at once for it, scores
better; the replacement draw a ruleset offers (e.g. one tile into the hand, or several
shown apart) is chosen by the chance that it wins at once and what that win pays.  The
last tile is taken when the hand is ready on a wait that wins; the void suit (定缺)
is the suit held least, ties by fewest pairs.

Parameters: ``seed`` (no randomness is used), ``value_threshold`` (default 3.0),
``claim_margin`` (default 0.6), ``self_draw_share`` (the share of wins expected by
self-draw, default 0.4), ``hazard`` (default: 0.1 when the first win ends the hand, 0.04
when play goes on).  A fallback ``ruleset`` may be given for observations without one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from dsl.ruleset import Ruleset
from dsl.situation import HandMeld
from handcore import shapes
from handcore.discards import DiscardOption, accepted_tiles, discard_table
from handcore.shapes import Keys
from handcore.suit_tables import RANKS
from handcore.tiles import Tile, TileSet
from interpreter.agents import reading
from interpreter.agents.reading import RuleFacts, View
from interpreter.engine.actions import PASS, Action

_FAR = 4  # targets more than this many steps away are not weighed
_FINAL = {"pairs": (2.0, 1.0), "pungs": (3.0, 1.0), "suit": (3.0, 1.2)}
"""A target's live winning tiles when ready, and how much claims speed its steps."""
PROBES = ("234m456m678p345p55p", "234m456m678p345p22p", "234m456m678p345p88p")
"""Plain hands in two suits (the pair of each rank a plain win may ask for), their first sets
replaced by a hand's melds: what a plain win pays (:func:`probe_value`)."""
_Target = tuple[str, int, "float | _Pending"]
"""A shape target: its name, its suit (-1: every suit), its worth (maybe not worked out)."""


class ValueAgent:
    probe_orders: tuple[tuple[str, ...], ...] = (PROBES,)
    """The orders of the probe hands a plain win's floor is settled with (:func:`plain_value`)."""

    def __init__(
        self,
        seed: int = 0,
        value_threshold: float = 3.0,
        self_draw_share: float = 0.4,
        claim_margin: float = 0.6,
        hazard: float = -1.0,
        ruleset: Ruleset | None = None,
    ) -> None:
        self.seed = seed
        self.value_threshold = float(value_threshold)
        self.self_draw_share = float(self_draw_share)
        self.claim_margin = float(claim_margin)
        self.hazard = float(hazard)
        self.ruleset = ruleset
        self.worth: dict[Any, float] = {}

    # --- the contract -------------------------------------------------------------------------

    def act(self, obs: dict[str, Any], legal: Sequence[Action]) -> Action:
        kinds = reading.by_kind(legal)
        if "win" in kinds:
            return kinds["win"][0]
        ctx = self._context(obs)
        view = ctx.view
        if obs.get("choice") is not None:
            return self._choice(obs, legal, view, ctx.f)
        if "take" in kinds:
            score, _ = ctx.ready_value(view.keys, view.melds)
            return kinds["take"][0] if score > 0 else PASS
        if "discard" in kinds:
            return self._turn(ctx, legal, kinds)
        if obs.get("claim") and any(k in kinds for k in ("pung", "chow", "kong")):
            return self._claim(ctx, obs["claim"], legal)
        return kinds["pass"][0] if "pass" in kinds else legal[0]

    def _context(self, obs: dict[str, Any]) -> _Ctx:
        """A decision's working state for ``obs``."""
        ruleset = reading.ruleset_of(obs, self.ruleset)
        if ruleset is None:
            raise ValueError("the value bot needs the ruleset: in the observation or given")
        f = reading.facts(ruleset)
        view = View.of(obs)
        void = self._void(view, f)
        return self._context_type()(self, f, view, void, reading.blind_visible(view, void), obs)

    def _context_type(self) -> type[_Ctx]:
        """The kind of working state a decision of this bot keeps."""
        return _Ctx

    def _void(self, view: View, f: RuleFacts) -> int | None:
        """The suit being given up (``reading.void_target``: the suit held least)."""
        return reading.void_target(view, f.suits, f.void_suit)

    # --- decisions ----------------------------------------------------------------------------

    def _choice(
        self, obs: dict[str, Any], legal: Sequence[Action], view: View, f: RuleFacts
    ) -> Action:
        """A choice the ruleset asks for (定缺, 换三张, ...): ``reading.choose``."""
        worth = self._suit_worth(view, f) if obs["choice"]["effect"] == "void" else None
        return reading.choose(obs, legal, worth)

    def _discard(self, ctx: _Ctx, legal: Sequence[Action]) -> tuple[float, Action]:
        """The discard of a turn and its score."""
        view = ctx.view
        allowed = {a.tile for a in legal if a.kind == "discard"}
        choice, score = self._best_discard(ctx, view.keys, view.melds, allowed)
        return score, Action("discard", choice)

    def _end_value(
        self, ctx: _Ctx, keys: Keys, melds: tuple[HandMeld, ...], chance: float
    ) -> float:
        """What a ready hand earns at the wall's end beyond its wins (none weighed here)."""
        return 0.0

    def _kong_cost(self, ctx: _Ctx, a: Action, kind: str) -> float:
        """What a kong risks beyond the discard it replaces (none weighed here)."""
        return 0.0

    def _turn(self, ctx: _Ctx, legal: Sequence[Action], kinds: dict[str, list[Action]]) -> Action:
        view = ctx.view
        best = self._discard(ctx, legal)
        for a in kinds.get("kong", ()):
            if ctx.void is not None and a.tile // RANKS == ctx.void:
                continue
            keys, melds, kind = reading.self_kong_keys(view, a.tile)
            gain = ctx.f.kong_paid(view, kind, None) + self._replacement(ctx, keys, melds, a)
            gain -= self._kong_cost(ctx, a, kind)
            if gain > best[0] * self.claim_margin:
                best = (gain, a)
        return best[1]

    def _best_discard(
        self, ctx: _Ctx, keys: Keys, melds: tuple[HandMeld, ...], allowed: set[Tile]
    ) -> tuple[Tile, float]:
        rows = ctx.table(keys, len(melds))
        if not rows:  # nothing but wilds left to throw
            return min(allowed, default=-1), 0.0
        counts = shapes.counts_of(keys)
        fast = reading.first_legal(rows, allowed, ctx.void, counts)
        if ctx.void is not None and any(counts[ctx.void * RANKS : ctx.void * RANKS + RANKS]):
            rows = [r for r in rows if r.discard // RANKS == ctx.void]
        rows = [r for r in rows if r.discard in allowed and r.shanten <= rows[0].shanten + 1]
        if not rows:  # only a wild may go (a locked hand)
            return fast.discard, 0.0
        targets = ctx.targets(keys, melds)
        scored = [(ctx.discard_score(keys, melds, r, targets), r) for r in rows[:8]]
        fast_score = next((s for s, r in scored if r.discard == fast.discard), 0.0)
        top_score, top = max(scored, key=lambda x: (x[0], -x[1].shanten, x[1].live_total))
        if top_score > fast_score * self._threshold(top, fast):
            return top.discard, top_score
        return fast.discard, fast_score

    def _claim(self, ctx: _Ctx, claim: dict[str, Any], legal: Sequence[Action]) -> Action:
        view = ctx.view
        provider = claim["from"]
        now = ctx.hand_score(view.keys, view.melds)
        best: tuple[float, Action] = (now * self.claim_margin, PASS)
        for a in legal:
            if a.kind not in ("pung", "chow", "kong"):
                continue
            tile = reading.claimed_tile(a, claim)
            if ctx.void is not None and tile // RANKS == ctx.void:
                continue
            if provider == view.seat:  # a kong again with its own kong tile (继续开杠)
                keys, melds, kind = reading.kong_again_keys(view, tile)
                score = ctx.f.kong_paid(view, kind, None) + self._replacement(ctx, keys, melds, a)
                score -= self._kong_cost(ctx, a, kind)
                if score > best[0]:
                    best = (score, a)
                continue
            keys, meld = reading.claim_keys(view.keys, a, tile)
            melds = (*view.melds, meld)
            if a.kind == "kong":
                score = ctx.f.kong_paid(view, "direct", provider)
                score += self._replacement(ctx, keys, melds, a) - self._kong_cost(ctx, a, "direct")
            else:
                allowed = {t for t, n in enumerate(shapes.counts_of(keys)) if n}
                score = self._best_discard(ctx, keys, melds, allowed)[1]
            if score > best[0]:
                best = (score, a)
        return best[1]

    def _threshold(self, top: DiscardOption, fast: DiscardOption) -> float:
        """How many times the efficiency choice's score the best score must be to be taken."""
        return self.value_threshold

    def _replacement(self, ctx: _Ctx, keys: Keys, melds: tuple[HandMeld, ...], a: Action) -> float:
        """A kong's hand after its replacement draw: the hand's score, plus for a draw of
        several tiles shown apart the chance that one of them wins at once."""
        score = ctx.hand_score(keys, melds)
        rep = next((r for r in ctx.f.rules.replacements if r.name == a.option), None)
        if rep is None or rep.into_hand:
            return score
        waits = ctx.winning_waits(keys, melds, frozenset(("kong_draw",)))
        live = sum(n for n, _ in waits)
        if not live:
            return 0.0
        unseen = ctx.view.unseen_total()
        p_now = 1 - (1 - live / unseen) ** rep.tiles
        worth = sum(n * v for n, v in waits) / live
        later = 0.5 * score if rep.locks_hand else score
        return p_now * worth + (1 - p_now) * later

    def _suit_worth(self, view: View, f: RuleFacts) -> list[float]:
        """For 定缺 ties: a suit's pairs and pungs, which a one-suit hand would build on."""
        return [
            float(sum(n >= 2 for n in view.counts[s * RANKS : s * RANKS + RANKS])) for s in range(3)
        ]


class _Ctx:
    """One decision's working state: the observation, the view, the rules' facts and memoised
    estimates."""

    def __init__(
        self,
        agent: ValueAgent,
        f: RuleFacts,
        view: View,
        void: int | None,
        visible: list[int],
        obs: dict[str, Any],
    ) -> None:
        self.agent = agent
        self.obs = obs
        self.f = f
        self.view = view
        self.void = void
        self.visible = visible
        self.unseen = view.unseen_total()
        self.draws = view.draws_left()
        self.hazard = agent.hazard if agent.hazard >= 0 else (0.1 if f.rules.first_win else 0.04)
        others = sum(view.in_game) - 1
        self.sources = 1 + (others if f.rules.claims.get("win") else 0)
        self._targets: dict[Any, list[_Target]] = {}
        self._ready: dict[Any, tuple[float, int]] = {}
        self._tables: dict[Any, list[DiscardOption]] = {}
        self._scores: dict[Any, float] = {}
        self._distances: dict[Any, tuple[int | None, int]] = {}
        self._helds: dict[tuple[int, int], tuple[tuple[int, ...], int, int]] = {}
        self._chances: dict[Any, float] = {}

    def form(self, melds: int) -> shapes.SevenPairsForm | None:
        return reading.form_for(melds, self.f.form)

    def table(self, keys: Keys, melds: int) -> list[DiscardOption]:
        """The discard table of a hand about to discard, asked once per decision."""
        memo = (keys, melds)
        found = self._tables.get(memo)
        if found is None:
            found = self._tables[memo] = discard_table(
                keys, melds, self.visible, self.form(melds), wilds=self.view.wilds
            )
        return found

    def _greedy_table(
        self, keys: Keys, melds: int, blocked: list[int], form: shapes.SevenPairsForm | None
    ) -> list[DiscardOption]:
        """``discard_table`` for a greedy completion: the decision's own table (:meth:`table`)
        when it asks the same (the plain target's first step is the hand's own table)."""
        if blocked == self.visible and form == self.form(melds) and not self.view.wilds:
            return self.table(keys, melds)
        return discard_table(keys, melds, blocked, form)

    def discard_score(
        self,
        keys: Keys,
        melds: tuple[HandMeld, ...],
        row: DiscardOption,
        targets: list[_Target],
    ) -> float:
        """:meth:`score` of the hand ``keys`` leaves by its table's ``row`` (``targets``:
        those of ``keys``), asked once per decision."""
        memo = (keys, melds, row.discard)
        found = self._scores.get(memo)
        if found is None:
            after = shapes.add_tile(keys, row.discard, -1)
            found = self._scores[memo] = self.score(after, melds, row, targets)
        return found

    def live(self, keys: Keys, t: Tile) -> int:
        return reading.live_copies(keys, t, self.visible)

    def chance(self, distance: int, live: int, final: float = 4.0, claims: float = 1.5) -> float:
        """The chance to win from ``distance`` steps before ready, racing the others.

        Each step before ready needs one of ``live`` tiles (claims add about ``claims``
        times the chances of one's own draw); the last step needs one of ``final`` tiles,
        from a draw or anyone's discard.  Every turn the hand may end by another's win
        (``hazard``), and the wall bounds the turns left.  Kept per decision."""
        memo = (distance, live, final, claims)
        found = self._chances.get(memo)
        if found is None:
            found = self._chances[memo] = self._chance_now(distance, live, final, claims)
        return found

    def _chance_now(self, distance: int, live: int, final: float, claims: float) -> float:
        if live <= 0 or final <= 0:
            return 0.0
        u = self.unseen
        h = self.hazard
        steps = distance + 1
        turns = max(self.draws / steps, 0.5)
        p = 1.0
        if distance > 0:
            q = min(claims * live / u, 0.95)
            step = q / (q + h - q * h) * (1 - (1 - q) ** turns)
            p = step**distance
        q = 1 - (1 - min(final / u, 0.95)) ** self.sources
        return p * q / (q + h - q * h) * (1 - (1 - q) ** turns)

    def win_value(
        self,
        keys: Keys,
        melds: tuple[HandMeld, ...],
        t: Tile,
        context: frozenset[str] = frozenset(),
    ) -> float:
        return _win_worth(self.f, self.view, self.agent.self_draw_share, keys, melds, t, context)

    def winning_waits(
        self, keys: Keys, melds: tuple[HandMeld, ...], context: frozenset[str] = frozenset()
    ) -> list[tuple[int, float]]:
        """For a ready hand: (live copies, worth) of each wait the ruleset accepts."""
        found = []
        for t in shapes.waits(keys, self.form(len(melds)), self.f.copies, wilds=self.view.wilds):
            live = self.live(keys, t)
            if live:
                value = self.win_value(shapes.add_tile(keys, t), melds, t, context)
                if value > 0:
                    found.append((live, value))
        return found

    def ready_value(self, keys: Keys, melds: tuple[HandMeld, ...]) -> tuple[float, int]:
        """A ready hand's (chance × worth, live winning tiles); 0 when not ready or no wait wins."""
        memo = (keys, melds)
        found = self._ready.get(memo)
        if found is None:
            waits = self.winning_waits(keys, melds)
            live = sum(n for n, _ in waits)
            worth = sum(n * v for n, v in waits) / live if live else 0.0
            chance = self.chance(0, live, live)
            found = (chance * worth + self.agent._end_value(self, keys, melds, chance), live)
            self._ready[memo] = found
        return found

    def hand_score(self, keys: Keys, melds: tuple[HandMeld, ...]) -> float:
        """The score of a hand about to draw (3n+1 tiles)."""
        m = len(melds)
        if shapes.shanten(keys, m, self.form(m), self.view.wilds) == 0:
            return self.ready_value(keys, melds)[0]
        s, live = reading.live_accepted(self.view, keys, m, self.form(m), self.visible)
        return self._far_score(keys, melds, s, live, self.targets(keys, melds))

    def score(
        self,
        keys: Keys,
        melds: tuple[HandMeld, ...],
        row: Any,
        targets: list[_Target],
    ) -> float:
        """The score of the hand left by one discard (its discard-table ``row``)."""
        if row.shanten == 0:
            return self.ready_value(keys, melds)[0]
        return self._far_score(keys, melds, row.shanten, row.live_total, targets)

    def _far_score(
        self,
        keys: Keys,
        melds: tuple[HandMeld, ...],
        s: int,
        live: int,
        targets: list[_Target],
    ) -> float:
        best = 0.0
        for name, suit, worth in targets:
            if name == "plain":
                d, acc = s, live
            else:
                d, acc = self._distance(name, suit, keys, len(melds))
            if d is None or d > s + _FAR:
                continue
            if worth.__class__ is _Pending:
                worth = worth.force(self._greedy_table)
                if worth <= 0:
                    continue  # as a target worth nothing was never listed
            final, claims = _FINAL.get(name, (4.0, 1.5))
            best = max(best, self.chance(d, acc, final, claims) * worth)
        return best

    def _distance(self, name: str, suit: int, keys: Keys, m: int) -> tuple[int | None, int]:
        """A target's shanten for the hand and the live tiles that would bring it nearer;
        kept per decision by what it reads: the key of the target's suit (the whole hand
        for a target in every suit)."""
        memo = (name, suit, m, keys[suit] if suit >= 0 else keys)
        found = self._distances.get(memo)
        if found is None:
            found = self._distances[memo] = self._distance_now(name, suit, keys, m)
        return found

    def _distance_now(self, name: str, suit: int, keys: Keys, m: int) -> tuple[int | None, int]:
        if name == "suit":  # one suit (never every suit): its counts, the copies seen
            counts = shapes.suit_counts(keys[suit])
            seen = self.visible[suit * RANKS : suit * RANKS + RANKS]
            own = tuple(k if i == suit else 0 for i, k in enumerate(keys))
            d = shapes.shanten_standard(own, m)
            held = 0
            for r, n in enumerate(counts):
                if n:
                    held |= 1 << r
            near = held | held << 1 | held << 2 | held >> 1 | held >> 2
            # Held tiles and those within two ranks of one.
            acc = sum(max(4 - counts[r] - seen[r], 0) for r in range(RANKS) if near >> r & 1)
            return d, acc
        if name not in ("pungs", "pairs") or (name == "pairs" and m):
            return None, 0
        blocks = enumerate(keys) if suit < 0 else ((suit, keys[suit]),)
        kinds, low, odd = [0] * 5, 0, 0
        for block, key in blocks:
            if key:  # an empty block holds nothing
                block_kinds, block_low, block_odd = self._held(block, key)
                kinds = [a + b for a, b in zip(kinds, block_kinds, strict=True)]
                low += block_low
                odd += block_odd
        if name == "pungs":  # the 4 - m most held kinds make pungs, the next the pair
            need, missing, pair = 4 - m, 0, 0
            for n in (4, 3, 2, 1):
                use = min(kinds[n], need)
                missing += use * (3 - min(n, 3))
                need -= use
                if not need and kinds[n] > use:
                    pair = n
                    break
            missing += 3 * need + 2 - min(pair, 2)
            return missing - 1, low
        per = 2 if self.f.form == "quads" else 1
        pairs = kinds[4] * per + kinds[3] + kinds[2]
        missing = 7 - min(pairs, 7)
        d = missing - 1 + max(0, missing - kinds[1] - kinds[3])
        return d, odd

    def _held(self, block: int, key: int) -> tuple[tuple[int, ...], int, int]:
        """For one block's key: how many kinds of tile it holds once, twice, three and four
        times (at those indices), and the live copies of the kinds it holds once or twice,
        and an odd number of times; kept per decision (a hand's rows share most blocks)."""
        memo = (block, key)
        found = self._helds.get(memo)
        if found is None:
            kinds, held = _block_kinds(block, key)
            visible = self.visible
            low = odd = 0
            for t, n in held:
                live = max(4 - n - visible[t], 0)
                if n <= 2:
                    low += live
                if n % 2:
                    odd += live
            found = self._helds[memo] = (kinds, low, odd)
        return found

    def targets(self, keys: Keys, melds: tuple[HandMeld, ...]) -> list[_Target]:
        """(target, suit or -1, worth) for the shape targets this hand might reach."""
        memo = (keys, melds)
        found = self._targets.get(memo)
        if found is not None:
            return found
        counts = shapes.counts_of(keys)
        m = len(melds)
        found = []
        melded_suits = {x.tile // RANKS for x in melds}
        only_pungs = all(x.kind != "chow" for x in melds)
        suits = [s for s in self.f.suits if s != self.void]
        plain = self._complete(keys, melds, None, "plain")
        found.append(("plain", -1, max(plain, self._base(melds))))
        for suit in suits:
            if melded_suits - {suit}:
                continue
            if sum(counts[suit * RANKS : suit * RANKS + RANKS]) < 6 + 3 * m // 2:
                continue
            for name in (
                "suit",
                *(("pungs",) if only_pungs else ()),
                *(("pairs",) if m == 0 and self.f.form else ()),
            ):
                worth = self._complete(keys, melds, suit, name)
                if worth.__class__ is _Pending or worth > 0:
                    found.append((name, suit, worth))
        for name in ("pungs", "pairs"):
            if (name == "pungs" and not only_pungs) or (name == "pairs" and (m or not self.f.form)):
                continue
            worth = self._complete(keys, melds, None, name)
            if worth.__class__ is _Pending or worth > 0:
                found.append((name, -1, worth))
        self._targets[memo] = found
        return found

    def _base(self, melds: tuple[HandMeld, ...]) -> float:
        """A floor for the plain target when its greedy completion does not win: what a
        plain two-suit hand with a middle pair pays this seat (learned once per standing)."""
        view = self.view
        memo = ("base", melds, view.seat, view.dealer, view.in_game, view.void, self.f.ruleset.id)
        found = self.agent.worth.get(memo)
        if found is None:
            found = plain_value(
                melds, self.void, self.f.rules.tileset,
                lambda keys, tile: self.win_value(keys, melds, tile), self.agent.probe_orders,
            )  # fmt: skip
            self.agent.worth[memo] = found
        return found

    def _complete(
        self, keys: Keys, melds: tuple[HandMeld, ...], suit: int | None, name: str
    ) -> Any:
        """Complete the hand greedily within a target and settle it: its worth, or 0.

        Kept per (target, declared melds, seat's standing) for the bot's life: a target's
        worth hardly changes with the tiles that make it, and settling is the dear part.
        A target other than the plain one is kept as a :class:`_Pending` worth, worked out
        (as this decision would) only when a score first needs it."""
        view = self.view
        memo = (
            name,
            suit,
            melds,
            view.seat,
            view.dealer,
            view.in_game,
            view.void,
            self.f.ruleset.id,
        )
        found = self.agent.worth.get(memo)
        if found is None:
            if name == "plain":
                found = self._complete_now(keys, melds, suit, name)
            else:
                found = _Pending(self, keys, melds, suit, name)
            if name != "plain" or found > 0:
                if len(self.agent.worth) > 50_000:
                    self.agent.worth.clear()
                self.agent.worth[memo] = found
        return found

    def _complete_now(
        self, keys: Keys, melds: tuple[HandMeld, ...], suit: int | None, name: str
    ) -> float:
        return _completed_worth(
            self.f, self.view, self.visible, self.void, self.agent.self_draw_share,
            keys, melds, suit, name, self._greedy_table,
        )  # fmt: skip


@lru_cache(maxsize=1 << 16)
def _block_kinds(block: int, key: int) -> tuple[tuple[int, ...], tuple[tuple[Tile, int], ...]]:
    """For one block's key: how many kinds of tile it holds once, twice, three and four
    times (at those indices), and each tile it holds with its copies held."""
    kinds = [0] * 5
    held = []
    base = block * RANKS
    for r, n in enumerate(shapes.suit_counts(key)):
        if n:
            kinds[n] += 1
            held.append((base + r, n))
    return tuple(kinds), tuple(held)


class _Pending:
    """A shape target's worth not worked out yet: what the decision that first asked for
    it would work out (its hand, visible tiles, void suit, standing), worked out when a
    score first needs it.  A far target's worth is seldom needed (its distance rules it
    out), and working it out is a greedy completion and the valuation of a new hand."""

    __slots__ = ("args", "value")

    def __init__(
        self, ctx: _Ctx, keys: Keys, melds: tuple[HandMeld, ...], suit: int | None, name: str
    ) -> None:
        share = ctx.agent.self_draw_share
        self.args = (ctx.f, ctx.view, ctx.visible, ctx.void, share, keys, melds, suit, name)
        self.value: float | None = None

    def force(self, table: Callable[..., list[DiscardOption]]) -> float:
        """The worth (``table``: a discard table for the greedy completion's steps)."""
        if self.value is None:
            self.value = _completed_worth(*self.args, table)
            self.args = ()
        return self.value


def _win_worth(
    f: RuleFacts,
    view: View,
    share: float,
    keys: Keys,
    melds: tuple[HandMeld, ...],
    t: Tile,
    context: frozenset[str] = frozenset(),
) -> float:
    """What a win is worth to the seat: self-drawn ``share`` of the time, else on a discard."""
    own = f.points(view, keys, melds, t, True, context)
    other = f.points(view, keys, melds, t, False, context)
    return share * own + (1 - share) * other


def _completed_worth(
    f: RuleFacts,
    view: View,
    visible: list[int],
    void: int | None,
    share: float,
    keys: Keys,
    melds: tuple[HandMeld, ...],
    suit: int | None,
    name: str,
    table: Callable[..., list[DiscardOption]],
) -> float:
    """A target's worth: the hand completed greedily within it (``_completion``), valued."""
    done = _completion(keys, len(melds), suit, name, f.form, visible, void, table)
    if done is None:
        return 0.0
    full, tile = done
    if any(n > 4 for n in shapes.counts_of(full)):
        return 0.0
    return _win_worth(f, view, share, full, melds, tile)


def probe_keys(
    text: str, melds: tuple[HandMeld, ...], void: int | None, tileset: TileSet
) -> tuple[Keys, Tile] | None:
    """A plain probe hand shaped for the declared melds and away from the void suit."""
    tiles = reading.on_table(text, tileset, void)[3 * len(melds) :]
    counts = tileset.counts(tiles)
    for m in melds:
        for t in m.tiles:
            if counts[t] + 1 > 4:
                return None
    return shapes.keys_of(counts, tileset), tiles[-1]


def probe_value(
    melds: tuple[HandMeld, ...],
    void: int | None,
    tileset: TileSet,
    value: Callable[[Keys, Tile], float],
    probes: Sequence[str] = PROBES,
) -> float:
    """``value`` of the first probe hand (``probe_keys``) worth more than 0; else the last
    one's value (0.0 when none fits the melds)."""
    found = 0.0
    for probe in probes:
        done = probe_keys(probe, melds, void, tileset)
        if done is not None:
            found = value(*done)
            if found > 0:
                break
    return found


def plain_value(
    melds: tuple[HandMeld, ...],
    void: int | None,
    tileset: TileSet,
    value: Callable[[Keys, Tile], float],
    orders: Sequence[Sequence[str]] = (PROBES,),
) -> float:
    """The least :func:`probe_value` worth more than 0 over ``orders`` of the probe hands
    (the melds take the place of their first sets, so with one order two melds in its
    second suit leave a one-suit hand); else the first order's value."""
    values = [probe_value(melds, void, tileset, value, probes) for probes in orders]
    return min((v for v in values if v > 0), default=values[0])


def _completion(
    keys: Keys,
    m: int,
    suit: int | None,
    name: str,
    form: Any,
    visible: Sequence[int],
    void: int | None,
    table: Callable[..., list[DiscardOption]] = discard_table,
) -> tuple[Keys, Tile] | None:
    """A complete hand near ``keys`` within the target, and the tile that completes it last
    (``table``: ``discard_table``, or one that remembers its answers)."""
    counts = shapes.counts_of(keys)
    allowed = [
        t
        for t in range(len(counts))
        if (suit is None or t // RANKS == suit) and (void is None or t // RANKS != void)
    ]
    size = 3 * (4 - m) + 2
    if name in ("pungs", "pairs"):
        order = sorted(allowed, key=lambda t: (-counts[t], -(4 - counts[t] - visible[t]), t))
        if name == "pungs":
            groups = [(t, 3) for t in order[: 4 - m]] + [(order[4 - m], 2)]
        else:
            groups = [(t, 2) for t in order[:7]]
        full = [0] * len(counts)
        last = -1
        for t, n in groups:
            full[t] = n
            if counts[t] < n:
                last = t
        if last < 0:
            last = groups[-1][0]
        return shapes.keys_of(full), last
    # Greedy: throw tiles outside the target, then the table's first; draw the accepted
    # tile with most live copies (the lowest of equals); until complete.
    kinds = len(counts)
    inside = [False] * kinds
    for t in allowed:
        inside[t] = True
    hand = list(counts)
    blocked = list(visible)
    for t in range(kinds):
        if not inside[t]:
            blocked[t] = 4
    ranks = [
        sum(1 << r for r in range(RANKS) if s * RANKS + r < kinds and inside[s * RANKS + r])
        for s in range(len(keys))
    ]
    few = form if m == 0 else None
    keys = shapes.keys_of(hand)
    n = sum(hand)
    last = -1
    for _ in range(12):
        if n == size:
            if shapes.is_complete(keys) or (
                form and m == 0 and shapes.seven_pairs(keys, form) is not None
            ):
                if last < 0:  # complete as it is: a tile of the target it holds wins last
                    last = next((t for t in allowed if hand[t]), -1)
                return (keys, last) if last >= 0 else None
            out = next((t for t in range(kinds) if hand[t] and not inside[t]), -1)
            if out < 0:
                out = table(keys, m, blocked, few)[0].discard
            hand[out] -= 1
            n -= 1
            keys = shapes.add_tile(keys, out, -1)
            continue
        masks = accepted_tiles(keys, m, few)[1]
        best, most = -1, 0
        for s, mask in enumerate(masks):
            mask &= ranks[s]
            while mask:
                low = mask & -mask
                mask ^= low
                t = s * RANKS + low.bit_length() - 1
                live = 4 - hand[t] - blocked[t]
                if hand[t] < 4 and (best < 0 or live > most):
                    best, most = t, live
        if best < 0:
            return None
        hand[best] += 1
        n += 1
        keys = shapes.add_tile(keys, best)
        last = best
        if n > size:
            return None
    return None
