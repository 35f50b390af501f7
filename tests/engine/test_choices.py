"""Choices every player makes at once, and hands declared during play, as a ruleset writes
them: a toy ruleset with 飘 (a stake of 0-3 chosen before the deal, added to every win's
payment), a yes/no asked of the dealer only, and 中途四喜 (a fourth copy drawn into the
concealed hand, paid 2 plus the declarer's stake by each other player)."""

from __future__ import annotations

import shutil
from itertools import combinations
from pathlib import Path

import pytest

from dsl.problems import RulesetError
from dsl.ruleset import load
from handcore.tiles import STANDARD
from interpreter.agents.efficiency import EfficiencyAgent
from interpreter.agents.value import ValueAgent
from interpreter.engine import Action, Game
from interpreter.human import HumanAgent
from tests.engine.helpers import rigged, tiles, tsumogiri

TOY = Path(__file__).with_name("toy.yaml")
HOUSE = """\
extends: toy.yaml
ruleset: {id: stakes, title: toy with stakes}
options:
  stakes: {type: bool, default: true, source: house rule}
choices:
  piao:
    name: {zh: 飘, en: extra stake}
    enabled: option.stakes
    at: before_deal
    values: 0..3
    default: 0
    source: house rule
  bet:
    name: {zh: 庄押, en: dealer's bet}
    values: "{true, false}"
    when: seat == dealer
    default: false
    source: house rule
declarations:
  sixi:
    name: {zh: 中途四喜, en: four of a kind during play}
    when: count(concealed, it == tile) == 4
    amount: 2 + choice.piao(seat)
    source: house rule
payment:
  fixed_bonus: choice.piao(payer) + choice.piao(winner)
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("choices")
    shutil.copy(TOY, root / "toy.yaml")
    (root / "stakes.yaml").write_text(HOUSE, encoding="utf-8")
    return root


def house(folder: Path, *settings: str, text: str = HOUSE):
    path = folder / "stakes.yaml"
    path.write_text(text, encoding="utf-8")
    return load(str(path), settings=list(settings))


def choose_all(game: Game, picks: dict[str, list[str]]) -> None:
    """Make every choice, seat ``s`` taking ``picks[name][s]``."""
    while game.choosing is not None:
        seat = game.to_move()
        game.apply(Action(game.phase, option=picks[game.phase][seat]), seat)


def test_the_stake_is_chosen_before_the_deal_hidden_until_all_have_chosen(folder):
    game = Game(house(folder), seed=5, dealer=1)
    assert game.phase == "piao" and game.to_move() == 1
    assert not any(e["type"] == "deal" for e in game.events)
    obs = game.observation(1)
    assert obs["choice"] == {
        "name": "piao", "title": "飘", "effect": "none", "tiles": 0,
        "values": ("0", "1", "2", "3"), "default": "0",
    }  # fmt: skip
    assert game.legal_actions(1) == [Action("piao", option=str(v)) for v in range(4)]
    assert obs["hand"] == ()  # chosen before any tile is seen
    order = []
    picks = {1: "3", 2: "0", 0: "2"}
    while game.phase == "piao":
        seat = game.to_move()
        order.append(seat)
        assert "piao" not in game.observation(seat)["choices"]
        game.apply(Action("piao", option=picks[seat]), seat)
        if game.phase == "piao":
            assert game.observation(seat)["choices"]["piao"][seat] == int(picks[seat])
            assert all(
                game.observation(q)["choices"].get("piao", (None,) * 3)[seat] is None
                for q in range(3)
                if q != seat
            )
    assert order == [1, 2, 0]
    logged = [e for e in game.events if e["type"] in ("choice", "deal")]
    assert logged[0] == {"type": "choice", "name": "piao", "values": [2, 3, 0]}
    assert logged[1]["type"] == "deal"  # the deal comes after the stakes
    assert game.chosen["piao"] == (2, 3, 0)
    assert game.observation(0)["choices"]["piao"] == (2, 3, 0)  # revealed to everyone


def test_a_seat_not_asked_has_the_default(folder):
    game = Game(house(folder), seed=5, dealer=2)
    choose_all(game, {"piao": ["0", "0", "0"], "bet": ["", "", "true"]})
    bets = [e for e in game.events if e["type"] == "choice" and e["name"] == "bet"]
    assert bets == [{"type": "choice", "name": "bet", "values": [False, False, True]}]
    asked = [e["seat"] for e in game.events if e["type"] == "act" and e["action"]["kind"] == "bet"]
    assert asked == [2]
    assert game.phase == "turn"


WIN = {0: "111222333m 456s 77s"}  # the dealer's 14 tiles win at once (plain, self-drawn)


def dealer_wins(ruleset, stakes: list[str]) -> list[int]:
    game = rigged(ruleset, WIN)
    if game.phase == "piao":
        choose_all(game, {"piao": stakes, "bet": ["false", "", ""]})
    else:
        choose_all(game, {"bet": ["false", "", ""]})
    win = Action("win", game.drawn)
    assert win in game.legal_actions(0)
    game.apply(win, 0)
    return list(game.result().deltas)


def test_stakes_add_to_what_each_payer_pays(folder):
    plain = dealer_wins(house(folder, "stakes=false"), [])
    staked = dealer_wins(house(folder), ["1", "2", "3"])
    # Each payer pays its stake and the winner's more: seat 1 pays 2 + 1, seat 2 pays 3 + 1.
    assert [s - p for s, p in zip(staked, plain, strict=True)] == [3 + 4, -3, -4]


def test_a_choice_not_enabled_is_not_asked_and_reads_its_default(folder):
    game = rigged(house(folder, "stakes=false"), WIN)
    assert game.phase == "bet"
    assert not any(e.get("name") == "piao" for e in game.events)


def test_a_fourth_copy_drawn_is_declared_and_paid(folder):
    ruleset = house(folder)
    game = rigged(ruleset, {1: "555m 1234567s 789m"}, draws="9s 9s 9s 5m", dealer=0)
    choose_all(game, {"piao": ["0", "2", "1"], "bet": ["false", "", ""]})
    # Everyone throws what it draws; seat 1's second draw is the fourth 5m.
    tsumogiri(game, until=lambda g: any(e["type"] == "declaration" for e in g.events))
    found = next(e for e in game.events if e["type"] == "declaration")
    assert found == {"type": "declaration", "seat": 1, "name": "sixi", "tile": "5m"}
    after = game.events[game.events.index(found) :]
    paid = [(e["from"], e["to"], e["amount"]) for e in after if e["type"] == "payment"]
    assert paid == [(0, 1, 4), (2, 1, 4)]  # 2 + seat 1's stake of 2, from each other seat
    assert game.deltas == [-4, 8, -4]


def test_bots_choose_a_choice_they_do_not_know_by_its_default(folder):
    ruleset = house(folder)
    for agent in (EfficiencyAgent(), ValueAgent()):
        game = Game(ruleset, seed=3)
        seat = game.to_move()
        chosen = agent.act(game.observation(seat), game.legal_actions(seat))
        assert chosen == Action("piao", option="0")


def test_a_person_makes_a_declared_choice(folder):
    answers = iter(["4\n"])
    out = []

    class Out:
        def write(self, text: str) -> None:
            out.append(text)

        def flush(self) -> None:
            pass

    game = Game(house(folder), seed=3)
    person = HumanAgent(0, read=lambda: next(answers), out=Out(), unicode=False)
    person.watch(game)
    chosen = person.act(game.observation(0), game.legal_actions(0))
    assert chosen == Action("piao", option="3")
    assert "choose 飘 (piao): a value" in "".join(out)


@pytest.mark.parametrize(
    ("constraint", "mixed_only"), [("count(suits) == 2", True), ("count(suits) == 3", False)]
)
def test_a_choice_of_tiles_keeps_the_sets_its_constraint_allows(folder, constraint, mixed_only):
    # With no set meeting the constraint (three suits in two tiles), every set is allowed.
    text = HOUSE.replace(
        "  bet:\n",
        f"  give:\n    tiles: 2\n    constraint: {constraint}\n    source: house rule\n  bet:\n",
    )
    game = rigged(house(folder, text=text), {0: "1112223334445m 1s"})
    for seat in (0, 1, 2):
        game.apply(Action("piao", option="0"), seat)
    assert game.phase == "give" and game.to_move() == 0
    hand = tiles("1112223334445m 1s")
    pairs = sorted(set(combinations(hand, 2)))
    if mixed_only:
        pairs = [p for p in pairs if len({t // 9 for t in p}) == 2]
    expected = [Action("give", option=STANDARD.format(list(p))) for p in pairs]
    assert game.legal_actions(0) == expected


def test_a_constraint_that_reads_the_seat_is_judged_for_each_seat(folder):
    """A constraint on the hand alone is remembered by the tiles; one that reads the seat
    is not: seat 1 holds the same pairs seat 0 was offered, and only its mixed ones meet
    ``seat == dealer or count(suits) == 2``."""
    text = HOUSE.replace(
        "  bet:\n",
        "  give:\n    tiles: 2\n    constraint: seat == dealer or count(suits) == 2\n"
        "    source: house rule\n  bet:\n",
    )
    game = rigged(house(folder, text=text), {0: "115578m 22334466s", 1: "115579m 2233446s"})
    for seat in (0, 1, 2):
        game.apply(Action("piao", option="0"), seat)
    assert game.phase == "give" and game.to_move() == 0
    everything = sorted(set(combinations(tiles("115578m 22334466s"), 2)))
    assert game.legal_actions(0) == [
        Action("give", option=STANDARD.format(list(p))) for p in everything
    ]
    game.apply(game.legal_actions(0)[0], 0)
    mixed = [p for p in sorted(set(combinations(tiles("115579m 2233446s"), 2)))
             if len({t // 9 for t in p}) == 2]  # fmt: skip
    assert game.legal_actions(1) == [Action("give", option=STANDARD.format(list(p))) for p in mixed]


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("    values: 0..3\n", "", "choice 'piao' needs either values or tiles"),
        ("    values: 0..3\n", "    values: 0..3\n    tiles: 2\n", "needs either values or tiles"),
        ("    default: 0\n", "    default: 0\n    effect: void\n", "has effect void, which needs"),
        ("    default: 0\n", "    default: 1m.suit\n", "choices.piao.default gives suit"),
        ("    values: 0..3\n", "    values: 3\n", "choices.piao.values gives int"),
        ("    default: false\n", "", "choice 'bet' does not ask every seat"),
    ],
)
def test_a_choice_that_cannot_be_made_is_an_error(folder, old, new, message):
    with pytest.raises(RulesetError, match=message):
        house(folder, text=HOUSE.replace(old, new))


@pytest.mark.parametrize("name", ["discard", "turn"])
def test_a_choice_may_not_take_the_name_of_an_action_or_a_phase(folder, name):
    """Its action and its phase are named after it."""
    with pytest.raises(RulesetError, match=f"choice '{name}' has the name of one of the engine"):
        house(folder, text=HOUSE.replace("  piao:\n", f"  {name}:\n").replace(
            "choice.piao", f"choice.{name}"))  # fmt: skip


def test_the_environment_has_a_slot_for_each_value_of_each_choice(folder):
    pytest.importorskip("gymnasium")
    from interpreter.engine.rules import Rules
    from interpreter.env import PHASES, ActionSpace, encode, layout

    ruleset = house(folder)
    space = ActionSpace(Rules(ruleset))
    assert space.names[-6:] == ("piao 0", "piao 1", "piao 2", "piao 3", "bet false", "bet true")
    game = Game(ruleset, seed=3)
    assert set(space.legal(game, 0)) == {space.index[f"piao {v}"] for v in range(4)}
    start = sum(size for name, size in layout(3)[: [n for n, _ in layout(3)].index("phase")])
    phase = encode(game, 0)[start : start + len(PHASES)]
    assert PHASES[int(phase.argmax())] == "choose_value" and phase.sum() == 1


def test_a_scenario_file_gives_the_choices_its_payments_read(folder):
    from interpreter.scenario import ScenarioError, read_scenario_text
    from interpreter.settle import settle

    ruleset = house(folder)
    text = """\
players: 3
dealer: 0
wins:
  - {seat: 1, hand: 111222333m 456s 77s, win_tile: 7s, from: 2}
birds: [9s]
"""
    plain = settle(ruleset, read_scenario_text(text).hand).deltas
    staked = settle(ruleset, read_scenario_text(text + "choices: {piao: [3, 1, 2]}\n").hand).deltas
    assert [s - p for s, p in zip(staked, plain, strict=True)] == [0, 3, -3]  # 1 + 2 more
    with pytest.raises(ScenarioError, match="choice 'piao' gives 2 values"):
        read_scenario_text(text + "choices: {piao: [3, 1]}\n")


def test_a_choice_of_a_seat_is_read_as_a_seat(folder):
    # 买马 as a bet on another seat, paid one more by a payer who bet on the winner.
    text = HOUSE.replace(
        "  bet:\n",
        "  ma:\n    values: players_in_game - {seat}\n    source: house rule\n  bet:\n",
    ).replace(
        "  fixed_bonus: choice.piao(payer) + choice.piao(winner)",
        "  fixed_bonus: if choice.ma(payer) == winner then 1 else 0",
    )
    game = rigged(house(folder, text=text), WIN)
    for seat in (0, 1, 2):
        game.apply(Action("piao", option="0"), seat)
    assert game.legal_actions(0) == [Action("ma", option="1"), Action("ma", option="2")]
    choose_all(game, {"ma": ["1", "0", "1"], "bet": ["false", "", ""]})
    assert game.chosen["ma"] == (1, 0, 1)
    game.apply(Action("win", game.drawn), 0)
    bonus = [e for e in game.events if e["type"] == "payment" and e["from"] == 1]
    assert any("fixed bonus +1" in r for r in bonus[0]["reasons"])
    assert not any("fixed bonus" in r for e in game.events if e["type"] == "payment"
                   and e["from"] == 2 for r in e["reasons"])  # fmt: skip


def test_the_tiles_another_seat_gave_stay_hidden():
    game = Game(load("sichuan/app", settings=["exchange=true"]), seed=4)
    while game.phase == "exchange":
        seat = game.to_move()
        game.apply(game.legal_actions(seat)[0], seat)
    gave = game.chosen["exchange"]
    for seat in range(4):
        seen = game.observation(seat)["choices"]["exchange"]
        assert seen == tuple(g if q == seat else None for q, g in enumerate(gave))


def test_a_log_with_choices_and_a_declaration_reads_back_and_replays(folder, tmp_path):
    from interpreter.agents.random_agent import RandomAgent
    from interpreter.engine.events import read_log, write_log
    from interpreter.engine.game import run
    from interpreter.engine.replay import replay

    ruleset = house(folder)
    game = rigged(ruleset, {1: "555m 1234567s 789m"}, draws="9s 9s 9s 5m", dealer=0)
    choose_all(game, {"piao": ["0", "2", "1"], "bet": ["true", "", ""]})
    tsumogiri(game)
    write_log(game.events, tmp_path / "rigged.jsonl")
    events = read_log(tmp_path / "rigged.jsonl")  # every event fits the log's schema
    assert {"choice", "declaration"} <= {e["type"] for e in events}
    game = Game(ruleset, seed=8)  # a wall from the seed, which a replay deals again
    run(game, [RandomAgent(seed=s) for s in range(3)])
    write_log(game.events, tmp_path / "hand.jsonl")
    events = read_log(tmp_path / "hand.jsonl")
    assert [e["name"] for e in events if e["type"] == "choice"] == ["piao", "bet"]
    assert replay(events, ruleset).deltas == (tuple(game.deltas),)


ADJUSTED = (
    HOUSE
    + """\
adjustments:
  payer_stake:
    name: {zh: 飘, en: the payer's stake}
    at: [declaration]
    amount: amount + choice.piao(payer)
    source: house rule
payments:
  table:
    name: {zh: 台费, en: table fee}
    at: declaration
    payers: "{seat}"
    payees: "{pot}"
    amount: 1
    source: house rule
"""
)


def test_a_declared_hand_is_paid_through_the_adjustments_and_the_rules_at_it(folder):
    ruleset = house(folder, text=ADJUSTED)
    game = rigged(ruleset, {1: "555m 1234567s 789m"}, draws="9s 9s 9s 5m", dealer=0)
    choose_all(game, {"piao": ["0", "2", "1"], "bet": ["false", "", ""]})
    tsumogiri(game, until=lambda g: any(e["type"] == "declaration" for e in g.events))
    found = next(e for e in game.events if e["type"] == "declaration")
    after = game.events[game.events.index(found) :]
    paid = [
        (e["from"], e["to"], e["amount"], e["reasons"]) for e in after if e["type"] == "payment"
    ]
    assert paid == [
        (0, 1, 4, ["中途四喜 (seat 1)"]),  # 2 + the declarer's 2; seat 0 staked nothing
        (2, 1, 5, ["中途四喜 (seat 1)", "飘 +1"]),  # and seat 2's own stake of 1
        (1, "pot", 1, ["台费"]),  # the rule at the declaration
    ]
    assert game.deltas == [-4, 8, -5]
    house(folder)  # the module's ruleset file as the other tests read it
