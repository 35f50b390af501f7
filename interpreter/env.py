"""Environments for learning agents: a PettingZoo AEC game and a Gymnasium one-seat wrapper.

One episode is one hand of any ruleset.  Observations are fixed-size numpy arrays built only
from what the seat may see (``Game.observation``); actions are indices into a fixed action
space built from the ruleset (its kong replacement draws), with a mask of the legal ones.
The reward is the change in the seat's settled points, so an episode's rewards add up to
the hand's payments.  The encoding and the action space are described in docs/ENV.md.

``pettingzoo`` and ``gymnasium`` are the optional extra ``env`` (``pip install mjrules[env]``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from dsl.ruleset import Ruleset, load
from handcore.tiles import EVERY, RANKS, STANDARD
from interpreter import choices
from interpreter.engine.actions import Action
from interpreter.engine.game import Game
from interpreter.engine.rules import Rules

K = STANDARD.kinds
"""Tile kinds of the 108 tiles; a ruleset's set may hold more (``TileSet.kinds``)."""
SUITS = len(STANDARD.suits)
PHASES = (
    "choose_tiles", "choose_value", "turn", "claim", "last_offer", "last_turn", "kong_tiles",
    "over",
)  # fmt: skip
"""The phases an agent tells apart: a choice of the ruleset (of tiles, or of a value), then
the engine's own."""
SCORE_LIMIT = 1e6
"""Scores are clipped to ±this in the observation (the space must bound them)."""


class ActionSpace:
    """The fixed action space of a ruleset: names of the slots and the slot of each action.

    Slots, in order: ``discard`` per tile kind; ``win``; ``pung`` per tile; ``chow`` per
    (lowest tile, place 0..2 of the claimed tile in it); ``kong`` per (tile, replacement
    draw of the ruleset); ``pass``; ``take``; then for each of the ruleset's choices, in order,
    one slot per value it may take (``piao 2``, ``void m``), or for a choice of tiles one per
    suit (the first legal set of that suit) and one of mixed suits (``exchange mixed``)."""

    def __init__(self, rules: Rules) -> None:
        kinds = rules.tileset.kinds
        names = [f"discard {EVERY.name(t)}" for t in range(kinds)] + ["win"]
        names += [f"pung {EVERY.name(t)}" for t in range(kinds)]
        names += [f"chow {EVERY.name(t)} +{place}" for t in range(kinds) for place in range(3)]
        self.ruleset_id = rules.id
        self.replacements = tuple(r.name for r in rules.replacements)
        names += [f"kong {EVERY.name(t)} ({r})" for t in range(kinds) for r in self.replacements]
        names += ["pass", "take"]
        self.tile_choices: set[str] = set()
        for choice, _enabled in choices.declared(rules.ruleset):
            if choice.tiles:
                self.tile_choices.add(choice.name)
                keys = [s.letter for s in STANDARD.suits] + ["mixed"]
            else:
                keys = _values(choice, rules)
            names += [f"{choice.name} {key}" for key in keys]
        self.names = tuple(names)
        self.index = {name: i for i, name in enumerate(names)}

    def __len__(self) -> int:
        return len(self.names)

    def slot(self, action: Action, claimed: int = -1) -> int:
        """The slot of ``action``; ``claimed`` is the tile a claim round is about (a chow
        names its claimed tile only when the round offers several)."""
        kind, tile = action.kind, action.tile
        if kind == "discard":
            return tile
        if kind == "chow":
            place = (EVERY.parse(action.option)[0] if action.option else claimed) - tile
            return self.index[f"chow {EVERY.name(tile)} +{place}"]
        if kind in self.tile_choices:
            suits = {t // RANKS for t in EVERY.parse(action.option, check_copies=False)}
            key = STANDARD.suits[suits.pop()].letter if len(suits) == 1 else "mixed"
            return self.index[f"{kind} {key}"]
        if kind in ("pung", "kong"):
            option = f" ({action.option})" if kind == "kong" else ""
            return self.index[f"{kind} {EVERY.name(tile)}{option}"]
        if kind in ("win", "pass", "take"):
            return self.index[kind]
        found = self.index.get(f"{kind} {action.option}")
        if found is None:
            raise ValueError(f"the action space of {self.ruleset_id} has no slot for {action}")
        return found

    def legal(self, game: Game, seat: int) -> dict[int, Action]:
        """Each legal slot of ``seat`` and the action it stands for (the first of the legal
        actions that share a slot)."""
        claimed = game.round.tile if game.phase == "claim" and game.round else -1
        out: dict[int, Action] = {}
        for action in game.legal_actions(seat):
            out.setdefault(self.slot(action, claimed), action)
        return out


def _values(choice: choices.Choice, rules: Rules) -> list[str]:
    """Every value a choice may take, as text, for any seat (before the deal: the values of
    a choice that depends on the hand are those of an empty one)."""
    seen: dict[str, None] = {}
    for seat in range(rules.players):
        base = choices.situation(rules.ruleset, seat, 0, rules.players)
        for value in sorted(choice.values(base)):
            seen.setdefault(choices.text(choice, value))
    return list(seen)


def observation_size(players: int, kinds: int = K) -> int:
    return sum(size for _, size in layout(players, kinds))


def layout(players: int, kinds: int = K) -> list[tuple[str, int]]:
    """The observation's parts in order with their sizes (documented in docs/ENV.md), for
    a tile set of ``kinds`` tile ids."""
    n, k = players, kinds
    return [
        ("hand", k), ("drawn", k), ("melds", n * k), ("concealed_kongs", n),
        ("rivers", n * k), ("won", n * k), ("kong_tiles", k), ("visible", k),
        ("void", n * (SUITS + 1)), ("in_game", n), ("dealer", n), ("phase", len(PHASES)),
        ("claim_tile", k), ("claim_from", n), ("wall", 1), ("locked", 1), ("scores", n),
    ]  # fmt: skip


def encode(game: Game, seat: int) -> np.ndarray:
    """What ``seat`` sees, as a float32 vector; seats are relative (0 is ``seat`` itself,
    1 the next in turn…)."""
    obs = game.observation(seat)
    n = game.n
    k = game.rules.tileset.kinds
    order = [(seat + i) % n for i in range(n)]
    parts: dict[str, np.ndarray] = {name: np.zeros(size, np.float32) for name, size in
                                    layout(n, k)}  # fmt: skip
    np.add.at(parts["hand"], list(obs["hand"]), 1)
    if obs["drawn"] is not None:
        parts["drawn"][obs["drawn"]] = 1
    melds = parts["melds"].reshape(n, k)
    for i, q in enumerate(order):
        for kind, tile, _concealed in obs["melds"][q]:
            if tile < 0:
                parts["concealed_kongs"][i] += 1
            elif kind == "chow":
                melds[i, tile : tile + 3] += 1
            else:
                melds[i, tile] += 4 if kind == "kong" else 3
    for name, field in (("rivers", "discards"), ("won", "won")):
        table = parts[name].reshape(n, k)
        for i, q in enumerate(order):
            np.add.at(table[i], list(obs[field][q]), 1)
    np.add.at(parts["kong_tiles"], list(obs["kong_tiles"]), 1)
    parts["visible"][:] = (
        parts["hand"] + melds.sum(0) + parts["rivers"].reshape(n, k).sum(0)
        + parts["won"].reshape(n, k).sum(0) + parts["kong_tiles"]
    )  # fmt: skip
    void = parts["void"].reshape(n, SUITS + 1)
    for i, q in enumerate(order):
        suit = obs["void"][q]
        void[i, SUITS if suit is None else suit] = 1
        parts["in_game"][i] = obs["in_game"][q]
        parts["scores"][i] = np.clip(obs["scores"][q], -SCORE_LIMIT, SCORE_LIMIT)
    parts["dealer"][order.index(obs["dealer"])] = 1
    pending = obs["choice"]
    if pending is not None:
        phase = "choose_tiles" if pending["tiles"] else "choose_value"
    else:
        phase = obs["phase"]
    parts["phase"][PHASES.index(phase)] = 1
    claim = obs["claim"]
    if claim is not None:
        np.add.at(parts["claim_tile"], list(claim["tiles"]), 1)
        parts["claim_from"][order.index(claim["from"])] = 1
    parts["wall"][0] = obs["wall"]
    parts["locked"][0] = obs["locked"]
    return np.concatenate(list(parts.values()))


def _load(ruleset: str | Ruleset, settings: Sequence[str]) -> Ruleset:
    loaded = ruleset if isinstance(ruleset, Ruleset) else load(ruleset, settings=settings)
    if why := loaded.unplayable():
        raise ValueError(why)
    return loaded


class MahjongAEC(AECEnv):
    """One hand of ``ruleset`` as a PettingZoo AEC environment; agents ``seat_0``….

    Each observation is ``{"observation": float32 vector, "action_mask": int8 vector}``;
    the mask is also in ``infos[agent]["action_mask"]``.  ``dealer`` is the dealer's seat."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "mjrules_v0", "render_modes": ["ansi"], "is_parallelizable": False,
    }  # fmt: skip

    def __init__(self, ruleset: str | Ruleset, settings: Sequence[str] = (), dealer: int = 0,
                 render_mode: str | None = None) -> None:  # fmt: skip
        super().__init__()
        self.ruleset = _load(ruleset, settings)
        self.rules = Rules(self.ruleset)
        self.actions = ActionSpace(self.rules)
        self.dealer = dealer
        self.render_mode = render_mode
        n = self.rules.players
        self.possible_agents = [f"seat_{s}" for s in range(n)]
        size = observation_size(n, self.rules.tileset.kinds)
        space = spaces.Dict({
            "observation": spaces.Box(-SCORE_LIMIT, SCORE_LIMIT, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (len(self.actions),), np.int8),
        })  # fmt: skip
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {a: spaces.Discrete(len(self.actions)) for a in self.possible_agents}
        self._rng = np.random.default_rng()
        self.game: Game | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.game = Game(self.ruleset, int(self._rng.integers(2**31)), self.dealer,
                         rules=self.rules)  # fmt: skip
        self.agents = list(self.possible_agents)
        self._paid = [0] * len(self.agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._settle()  # payments at the deal (opening hands) are the first rewards
        self._accumulate_rewards()

    def mask(self, seat: int) -> np.ndarray:
        mask = np.zeros(len(self.actions), np.int8)
        assert self.game is not None
        mask[list(self.actions.legal(self.game, seat))] = 1
        return mask

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        assert self.game is not None
        seat = self.possible_agents.index(agent)
        return {"observation": encode(self.game, seat), "action_mask": self.mask(seat)}

    def step(self, action: int) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.game is not None
        seat = self.possible_agents.index(agent)
        legal = self.actions.legal(self.game, seat)
        if int(action) not in legal:
            raise ValueError(f"{agent}: action {action} ({self.actions.names[action]}) is not "
                             f"legal now; legal: {sorted(legal)}")  # fmt: skip
        self.play(legal[int(action)])

    def play(self, action: Action) -> None:
        """Carry out an engine action for the agent to move (bots choose these directly)."""
        assert self.game is not None
        self._cumulative_rewards[self.agent_selection] = 0.0
        self.game.apply(action, self.possible_agents.index(self.agent_selection))
        self._settle()
        self._accumulate_rewards()

    def _settle(self) -> None:
        """Rewards are the points paid since the last step; whose turn it is next."""
        game = self.game
        assert game is not None
        for s, agent in enumerate(self.possible_agents):
            self.rewards[agent] = float(game.deltas[s] - self._paid[s])
        self._paid = list(game.deltas)
        mover = game.to_move()
        if mover is None:
            self.terminations = dict.fromkeys(self.agents, True)
            for agent in self.agents:
                self.infos[agent] = {"action_mask": np.zeros(len(self.actions), np.int8)}
            self.agent_selection = self.agents[0]
            return
        self.agent_selection = self.possible_agents[mover]
        self.infos[self.agent_selection] = {"action_mask": self.mask(mover)}

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.game is None:
            return None
        return "\n".join(p.notation() for p in self.game.players)

    def close(self) -> None:
        self.game = None


class MahjongSeat(gymnasium.Env):
    """One seat of a hand against bots, as a single-agent Gymnasium environment.

    ``bots`` names the other seats' agents (``make_agent`` names, one for all or one per
    seat); they are seeded from the episode's seed.  Observations and actions are those of
    :class:`MahjongAEC`; the mask is also in ``info["action_mask"]``."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"]}

    def __init__(self, ruleset: str | Ruleset, seat: int = 0, bots: str | Sequence[str] = "random",
                 settings: Sequence[str] = (), dealer: int = 0,
                 render_mode: str | None = None) -> None:  # fmt: skip
        self.aec = MahjongAEC(ruleset, settings, dealer, render_mode)
        self.seat = seat
        self.agent = self.aec.possible_agents[seat]
        n = len(self.aec.possible_agents)
        self.bot_names = [bots] * n if isinstance(bots, str) else list(bots)
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)
        self.render_mode = render_mode
        self.bots: list[Any] = []
        self._early = 0.0
        """Points paid before the seat's first decision, given with its first reward."""

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        from interpreter.simulate import new_agent

        super().reset(seed=seed)
        self.aec.reset(seed=int(self.np_random.integers(2**31)))
        self.bots = [new_agent(name, int(self.np_random.integers(2**31)), self.aec.ruleset)
                     for name in self.bot_names]  # fmt: skip
        self._early = self.aec.rewards[self.agent] + self._bots_play()
        return self.aec.observe(self.agent), self._info()

    def step(self, action: int):
        """An action outside the mask changes nothing: reward 0, ``info["illegal"]``."""
        if not self.aec.mask(self.seat)[int(action)]:
            info = {**self._info(), "illegal": True}
            return self.aec.observe(self.agent), 0.0, False, False, info
        self.aec.step(action)
        reward = self._early + self.aec.rewards[self.agent] + self._bots_play()
        self._early = 0.0
        over = self.aec.game is not None and self.aec.game.is_over()
        return self.aec.observe(self.agent), reward, over, False, self._info()

    def _bots_play(self) -> float:
        """The other seats act until it is this seat's decision or the hand is over; the
        points this seat got meanwhile."""
        aec, game = self.aec, self.aec.game
        assert game is not None
        reward = 0.0
        while (mover := game.to_move()) is not None and mover != self.seat:
            action = self.bots[mover].act(game.observation(mover), game.legal_actions(mover))
            aec.play(action)
            reward += aec.rewards[self.agent]
        return reward

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.aec.mask(self.seat)}

    def render(self) -> str | None:
        return self.aec.render()
