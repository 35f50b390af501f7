"""The efficiency bot (牌效率): the fastest way to a ready hand, by the discard table.

Decisions, in order:

- **win** whenever it may;
- **discard** the tile the discard table (``handcore.discards.discard_table``) ranks
  first: fewest tiles from ready (shanten), then most live accepted tiles, counting as
  gone every copy it can see (discards, exposed melds, kong tiles).  When a win must lack
  a suit, or a void suit was declared, it gives up the suit it holds least and throws
  that suit first;
- **claim** a pung, chow or kong only when the hand after it (and after its best discard)
  is nearer to ready, or as near with more live accepted tiles; kong again with one of its
  own discarded kong tiles (继续开杠) by ``kong_policy``;
- **kong** in turn by ``kong_policy``: ``"never"``, ``"always"``, or ``"no_worse"`` (the
  default: when the hand is no further from ready afterwards);
  ``kong_option`` picks the replacement draw by its index among those offered (0: the
  first the ruleset lists);
- **take** the last tile(s) only when ready; **void** (定缺) the suit held least.

Parameters: ``seed`` (kept for the contract; the bot has no randomness), ``kong_policy``,
``kong_option``.  A fallback ``ruleset`` may be given for observations without one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from dsl.ruleset import Ruleset
from handcore import shapes
from handcore.discards import DiscardOption, discard_table, live_accepted
from handcore.suit_tables import RANKS
from interpreter.agents import reading
from interpreter.agents.reading import View
from interpreter.engine.actions import PASS, Action

KONG_POLICIES = ("never", "always", "no_worse")
CLAIM_POLICIES = ("helps", "pungs", "never")
"""Which pungs and chows are claimed: those that help, pungs that help, none (kongs follow
the kong policy)."""


class Seen(NamedTuple):
    """What a decision starts from: the observation, the player's view of it, what the
    ruleset says (``facts``), the suit being given up (``void``) and the copies seen."""

    obs: dict[str, Any]
    view: View
    facts: Any
    void: int | None
    visible: Sequence[int]


class EfficiencyAgent:
    def __init__(
        self,
        seed: int = 0,
        kong_policy: str = "no_worse",
        kong_option: int = 0,
        ruleset: Ruleset | None = None,
        claims: str = "helps",
    ) -> None:
        if kong_policy not in KONG_POLICIES:
            raise ValueError(f"kong_policy {kong_policy!r}: expected one of {KONG_POLICIES}")
        if claims not in CLAIM_POLICIES:
            raise ValueError(f"claims {claims!r}: expected one of {CLAIM_POLICIES}")
        self.seed = seed
        self.kong_policy = kong_policy
        self.kong_option = int(kong_option)
        self.ruleset = ruleset
        self.claims = claims

    # --- what every decision needs ------------------------------------------------------------

    def _setup(self, obs: dict[str, Any]) -> Seen:
        ruleset = reading.ruleset_of(obs, self.ruleset)
        facts = reading.facts(ruleset) if ruleset is not None else None
        view = View.of(obs)
        suits = facts.suits if facts else (0, 1, 2)
        void = reading.void_target(view, suits, bool(facts and facts.void_suit))
        return Seen(obs, view, facts, void, reading.blind_visible(view, void))

    def form(self, facts: Any, melds: int) -> shapes.SevenPairsForm | None:
        return reading.form_for(melds, facts.form if facts else "quads")

    def table(
        self, view: View, facts: Any, visible: Sequence[int], only: int | None = None
    ) -> list[DiscardOption]:
        m = len(view.melds)
        form = self.form(facts, m)
        return discard_table(view.keys, m, visible, form, wilds=view.wilds, only=only)

    def void_first(self, seen: Seen, legal: Sequence[Action]) -> int | None:
        """The suit being given up when a tile of it (not a wild) may be discarded: then a
        discard of that suit is chosen, and its rows of the table are all that is needed."""
        void, wild = seen.void, seen.view.wild_tiles
        if void is not None:
            for a in legal:
                if a.kind == "discard" and a.tile // RANKS == void and a.tile not in wild:
                    return void
        return None

    # --- the contract -------------------------------------------------------------------------

    def act(self, obs: dict[str, Any], legal: Sequence[Action]) -> Action:
        kinds = reading.by_kind(legal)
        if "win" in kinds:
            return kinds["win"][0]
        if obs.get("choice") is not None:
            return reading.choose(obs, legal)
        seen = self._setup(obs)
        if "take" in kinds:
            m = len(seen.view.melds)
            form = self.form(seen.facts, m)
            ready = shapes.shanten(seen.view.keys, m, form, seen.view.wilds) == 0
            return kinds["take"][0] if ready else PASS
        if "discard" in kinds:
            return self.turn(seen, legal, kinds)
        if obs.get("claim") and any(k in kinds for k in ("pung", "chow", "kong")):
            return self.claim(seen, legal)
        return kinds["pass"][0] if "pass" in kinds else legal[0]

    def discard(self, seen: Seen, legal: Sequence[Action]) -> Action:
        only = self.void_first(seen, legal)
        table = self.table(seen.view, seen.facts, seen.visible, only)
        return self.first_discard(seen, legal, table)

    def first_discard(
        self, seen: Seen, legal: Sequence[Action], table: Sequence[DiscardOption]
    ) -> Action:
        """The discard of the best legal row of the position's discard ``table``."""
        allowed = {a.tile for a in legal if a.kind == "discard"}
        row = reading.first_legal(table, allowed, seen.void, seen.view.counts)
        return Action("discard", row.discard)

    def turn(self, seen: Seen, legal: Sequence[Action], kinds: dict[str, list[Action]]) -> Action:
        view, facts, void, visible = seen.view, seen.facts, seen.void, seen.visible
        choice = self.discard(seen, legal)
        kongs = [a for a in kinds.get("kong", ()) if a.tile // 9 != void]
        if kongs and self.kong_policy != "never" and choice.tile not in view.wild_tiles:
            tiles = sorted({a.tile for a in kongs})
            for t in tiles:
                options = [a for a in kongs if a.tile == t]
                pick = options[min(self.kong_option, len(options) - 1)]
                if self.kong_policy == "always":
                    return pick
                keys, melds, _ = reading.self_kong_keys(view, t)
                after, _ = live_accepted(
                    keys, len(melds), self.form(facts, len(melds)), visible, view.wilds
                )
                now = shapes.shanten(
                    shapes.add_tile(view.keys, choice.tile, -1),
                    len(view.melds),
                    self.form(facts, len(view.melds)),
                    view.wilds,
                )
                if after <= now:
                    return pick
        return choice

    def claim(self, seen: Seen, legal: Sequence[Action]) -> Action:
        view, facts, void, visible = seen.view, seen.facts, seen.void, seen.visible
        claim = seen.obs["claim"]
        if claim["from"] == view.seat:
            return self.kong_again(seen, legal)
        m = len(view.melds)
        form = self.form(facts, m)
        s_now = shapes.shanten(view.keys, m, form, view.wilds)
        candidates = []
        for a in legal:
            if a.kind not in ("pung", "chow", "kong"):
                continue
            tile = reading.claimed_tile(a, claim)
            if void is not None and tile // 9 == void:
                continue
            if a.kind == "kong" and self.kong_policy == "always":
                return a
            if a.kind == "kong" and self.kong_policy == "never":
                continue
            if (self.claims == "never" and a.kind != "kong") or (
                self.claims == "pungs" and a.kind == "chow"
            ):
                continue
            keys, _ = reading.claim_keys(view.keys, a, tile)
            # A hand that must discard is as near to ready as its best discard leaves it.
            after = shapes.shanten_standard(keys, m + 1, view.wilds)
            if after <= s_now:
                # (a complete hand is ready after its discard)
                candidates.append((a, keys, after if a.kind == "kong" else max(after, 0)))
        if not candidates:
            return PASS
        if void is None and not view.wilds:
            # Then the best discard is the table's first row, of that shanten: a claim
            # leaving the hand further from ready is never the best.
            nearest = min(after for _, _, after in candidates)
            candidates = [c for c in candidates if c[2] == nearest]
            if len(candidates) == 1 and nearest < s_now:
                return candidates[0][0]  # nearer than now whatever the live tiles
        best: tuple[tuple[int, int], Action] | None = None
        for a, keys, _ in candidates:
            if a.kind == "kong":
                s, live = live_accepted(keys, m + 1, None, visible, view.wilds)
            else:
                rows = discard_table(keys, m + 1, visible, None, wilds=view.wilds)
                if not rows:  # it would leave nothing but wilds to throw
                    continue
                counts = shapes.counts_of(keys)
                row = reading.first_legal(rows, {r.discard for r in rows}, void, counts)
                s, live = row.shanten, row.live_total
            score = (s, -live)
            if best is None or score < best[0]:
                best = (score, a)
        if best is None:
            return PASS
        if best[0][0] < s_now:  # nearer to ready than now, whatever the live tiles
            return best[1]
        now = live_accepted(view.keys, m, form, visible, view.wilds)  # of shanten s_now
        return best[1] if best[0] < (now[0], -now[1]) else PASS

    def kong_again(self, seen: Seen, legal: Sequence[Action]) -> Action:
        """A kong again with one of its own discarded kong tiles (its hand is locked): made
        when the hand stays as near ready, by the kong policy's choice of draw."""
        view = seen.view
        if self.kong_policy == "never":
            return PASS
        now = shapes.shanten(view.keys, len(view.melds), None, view.wilds)
        kongs = [a for a in legal if a.kind == "kong"]
        for t in sorted({a.tile for a in kongs}):
            keys, melds, _ = reading.kong_again_keys(view, t)
            after = shapes.shanten(keys, len(melds), None, view.wilds)
            if self.kong_policy == "always" or after <= now:
                options = [a for a in kongs if a.tile == t]
                return options[min(self.kong_option, len(options) - 1)]
        return PASS
