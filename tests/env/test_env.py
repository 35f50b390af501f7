"""The learning environment: PettingZoo's and Gymnasium's own checks, and what the encoding,
the mask and the rewards promise (docs/ENV.md), on a Changsha and a Sichuan ruleset."""

import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from handcore.tiles import STANDARD
from interpreter.engine.actions import Action
from interpreter.env import MahjongAEC, MahjongSeat, layout

RULESETS = ["changsha/qq2014", "sichuan/blog5"]


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():  # the checkers warn that a Dict observation is not a Box
        warnings.simplefilter("ignore", UserWarning)
        yield


@pytest.mark.parametrize("ruleset", RULESETS)
def test_pettingzoo_api_test(ruleset):
    api_test(MahjongAEC(ruleset), num_cycles=1000, verbose_progress=False)
    seed_test(lambda: MahjongAEC(ruleset), num_cycles=200)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_gymnasium_check_env(ruleset):
    check_env(MahjongSeat(ruleset), skip_render_check=True)


def _play(env, seed):
    """A whole hand with uniformly random legal slots; each agent's summed rewards."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.possible_agents:
        total[agent] += env._cumulative_rewards[agent]
    for _agent in env.agent_iter():
        observation, _reward, termination, _truncation, _info = env.last()
        if termination:
            env.step(None)
            continue
        mask = observation["action_mask"]
        assert mask.sum() >= 1
        env.step(int(rng.choice(np.flatnonzero(mask))))
        for a in env.possible_agents:
            total[a] += env.rewards[a]
    return total


@pytest.mark.parametrize("ruleset", RULESETS)
def test_rewards_add_up_to_the_settled_points(ruleset):
    env = MahjongAEC(ruleset)
    paid = 0
    for seed in range(6):
        total = _play(env, seed)
        deltas = env.game.deltas
        assert [total[a] for a in env.possible_agents] == pytest.approx(deltas)
        paid += any(deltas)
    assert paid  # some hand paid something


@pytest.mark.parametrize("ruleset", RULESETS)
def test_each_legal_action_has_its_own_slot(ruleset):
    """Outside the exchange (one slot per suit), no two legal actions share a slot, and the
    slot's name says the action."""
    env = MahjongAEC(ruleset)
    for seed in range(4):
        env.reset(seed=seed)
        game = env.game
        while (seat := game.to_move()) is not None:
            legal = game.legal_actions(seat)
            slots = env.actions.legal(game, seat)
            if game.phase != "exchange":
                assert sorted(slots.values()) == sorted(legal)
            for slot, action in slots.items():
                assert env.actions.names[slot].split()[0] == action.kind
            game.apply(legal[seed % len(legal)], seat)


def test_the_encoding_of_a_known_position():
    env = MahjongAEC("sichuan/blog5")
    env.reset(seed=3)
    game = env.game
    seat = game.to_move()
    obs = env.observe(env.possible_agents[seat])["observation"]
    parts, start = {}, 0
    for name, size in layout(game.n):
        parts[name] = obs[start : start + size]
        start += size
    assert start == obs.size
    hand = np.bincount(game.observation(seat)["hand"], minlength=STANDARD.kinds)
    assert list(parts["hand"]) == list(hand)
    assert parts["visible"].sum() == hand.sum()  # nothing else seen yet
    assert parts["wall"][0] == game.wall.drawable
    assert parts["dealer"][(game.dealer - seat) % game.n] == 1
    assert parts["phase"].sum() == 1


def test_kong_slots_follow_the_rulesets_replacement_draws():
    env = MahjongAEC("changsha/qq2014")
    names = {r.name for r in env.rules.replacements}
    kongs = [n for n in env.actions.names if n.startswith("kong ")]
    assert len(kongs) == STANDARD.kinds * len(names)
    for name in names:
        slot = env.actions.slot(Action("kong", 0, name))
        assert env.actions.names[slot] == f"kong 1m ({name})"


def test_the_seat_wrapper_ignores_an_illegal_action():
    env = MahjongSeat("sichuan/blog5", bots="random")
    observation, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    again, reward, terminated, _truncated, info = env.step(illegal)
    assert info["illegal"] and reward == 0 and not terminated
    assert np.array_equal(again["observation"], observation["observation"])


def test_the_seat_wrapper_plays_whole_hands_against_bots():
    env = MahjongSeat("changsha/qq2014", seat=2, bots="efficiency")
    for seed in range(3):
        _observation, info = env.reset(seed=seed)
        total, over = 0.0, False
        while not over:
            legal = np.flatnonzero(info["action_mask"])
            _observation, reward, over, _truncated, info = env.step(int(legal[0]))
            total += reward
        assert total == env.aec.game.deltas[2]


def test_an_abstract_ruleset_is_refused_with_a_message():
    """A base ruleset leaves payments to those extending it: no game can be settled on it."""
    with pytest.raises(ValueError, match="abstract"):
        MahjongAEC("changsha/base")
