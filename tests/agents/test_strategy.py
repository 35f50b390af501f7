"""The strategy bot: its defence, its void and exchange choices, hand types chased as the
ruleset pays them, and whole hands in every shipped ruleset."""

from __future__ import annotations

from pathlib import Path

import pytest

from dsl.ruleset import load
from handcore import shapes
from interpreter.agents import PARAMS, make_agent
from interpreter.agents.strategy import StrategyAgent
from interpreter.engine import Game, play
from interpreter.engine.actions import Action
from interpreter.engine.events import to_jsonl
from tests.agents.test_bots_play import Checked, playable
from tests.agents.test_decisions import FOUR_MELDS, discards_of, observation, tiles


def tile(text: str) -> int:
    return tiles(text)[0]


# --- defence ------------------------------------------------------------------------------------

FAR = "1245m 3379p 13468s"
"""A hand two or more tiles from ready."""
RIVER = ("7p", "4p 7m 9m 1p 1s", "7p 7p", "")
"""Seat 1 (four pungs shown: 2p 6p 8s 3m) threw 1s; three 7p are out, the far hand holds the
fourth."""


def test_a_single_wait_after_four_melds_is_priced_as_dangerous() -> None:
    ruleset = load("changsha/qq2014")
    obs = observation(ruleset, FAR, melds=FOUR_MELDS, discards=RIVER, wall=20)
    bot = make_agent("strategy", 0, ruleset=ruleset)
    live, own, gone = (bot.deal_in(obs, tile(t)) for t in ("5m", "1s", "7p"))
    # seat 1 holds one tile and waits on its pair: any tile it may hold is a real danger,
    # priced by settling its hand (four pungs shown and a single wait pay a big hand here)
    assert live[0] > 0.03 and live[1] > 0.5
    assert own[1] < 0.3 * live[1]  # it threw 1s: seldom the tile it kept
    # every 7p is seen: seat 1 cannot hold one (seats without melds may still wait on it)
    assert gone[1] < 0.1 * live[1]
    # the same tile against a seat with no melds, early: hardly a risk
    quiet = observation(ruleset, FAR, discards=RIVER, wall=80)
    assert bot.deal_in(quiet, tile("5m"))[1] < 0.1 * live[1]


def test_a_deal_in_is_priced_as_this_seat_would_pay_it() -> None:
    """qq2014 pays the dealer's stake when the dealer wins or pays: a dealer's discard won by
    its 对家 costs the dealer more than the same discard costs a seat that does not deal (the
    price is settled with this seat as the discarder, not the winner's 上家)."""
    ruleset = load("changsha/qq2014")
    melds = ((), (), FOUR_MELDS[1], ())  # the 对家 shows four pungs
    bot = make_agent("strategy", 0, ruleset=ruleset)
    losses = []
    for dealer in (0, 3):
        obs = observation(ruleset, FAR, melds=melds, discards=RIVER[::-1], wall=20)
        obs["dealer"] = dealer
        ends, loss = bot.deal_in(obs, tile("5m"))
        assert ends > 0.03
        losses.append(loss / ends)
    assert losses[0] > losses[1] * 1.1


def test_a_folding_hand_discards_safe_tiles() -> None:
    ruleset = load("changsha/qq2014")
    obs = observation(ruleset, FAR, melds=FOUR_MELDS, discards=RIVER, wall=20)
    value = make_agent("value", 0, ruleset=ruleset).act(obs, discards_of(FAR))
    bot = make_agent("strategy", 0, ruleset=ruleset)
    choice = bot.act(obs, discards_of(FAR))
    assert choice != value
    assert choice.tile in (tile("1s"), tile("7p"))  # its own discard, or a tile it cannot hold
    # without defence it plays the value bot's discard
    assert make_agent("strategy:defence=0", 0, ruleset=ruleset).act(obs, discards_of(FAR)) == value


def test_a_seat_that_has_left_the_hand_is_no_threat() -> None:
    ruleset = load("sichuan/blog5")  # a win lacks a suit: four pungs in two suits
    melds = ((), tuple(("pung", tile(t), False) for t in ("2p", "6p", "8s", "3s")), (), ())
    obs = observation(ruleset, FAR, melds=melds, discards=RIVER, wall=20)
    bot = make_agent("strategy", 0, ruleset=ruleset)
    before = bot.deal_in(obs, tile("4s"))[1]
    assert before > 0.1
    assert bot.deal_in(obs, tile("5m"))[1] < 0.1 * before  # it cannot win holding a character
    obs["in_game"] = (True, False, True, True)  # seat 1 has won (血战: it left the hand)
    assert bot.deal_in(obs, tile("4s"))[1] < 0.1 * before  # only the seats without melds


# --- choices --------------------------------------------------------------------------------


def test_void_is_the_suit_whose_loss_leaves_the_hand_nearest() -> None:
    ruleset = load("sichuan/blog5")
    hand = "123m 159p 2345678s"  # three characters and three dots: the dots are scattered
    obs = observation(ruleset, hand, phase="void")
    legal = [Action("void", option=s) for s in "mps"]
    assert make_agent("value", 0, ruleset=ruleset).act(obs, legal).option == "m"  # fewest, first
    assert make_agent("strategy", 0, ruleset=ruleset).act(obs, legal).option == "p"


def test_exchange_gives_the_tiles_it_would_void() -> None:
    ruleset = load("sichuan/blog5")
    hand = "123m 159p 2345678s"
    obs = observation(ruleset, hand, phase="claim")
    obs["choice"] = {"name": "exchange", "title": "换三张", "effect": "exchange", "tiles": 3,
                     "values": (), "default": None}  # fmt: skip
    legal = [Action("choice", option=o) for o in ("123m", "159p", "234s", "678s")]
    assert make_agent("strategy", 0, ruleset=ruleset).act(obs, legal).option == "159p"


# --- hand types as the ruleset pays them -------------------------------------------------------


def _extended(tmp_path: Path, base: str, changes: str) -> str:
    """A ruleset file extending ``base`` with ``changes`` (YAML sections)."""
    path = tmp_path / "variant.yaml"
    path.write_text(f"extends: {base}\nruleset: {{title: variant}}\n{changes}", "utf-8")
    return str(path)


def test_a_one_suit_hand_is_chased_only_when_the_ruleset_pays_for_it(tmp_path: Path) -> None:
    hand = "1235556778889m 1p"  # one suit within reach, or a faster hand throwing a character
    # (both discards leave it ready: between ready hands the better score is taken, not one
    # value_threshold times better, else the worth a win spares (escape) hides 清一色's 3番)
    discards = discards_of(hand)
    shipped = load("sichuan/blog5")  # 清一色 3番
    plain = load(_extended(tmp_path, "sichuan/blog5", "hands:\n  qingyise: {value: 0}\n"))
    keeps = make_agent("strategy", 0, ruleset=shipped).act(observation(shipped, hand), discards)
    speeds = make_agent("strategy", 0, ruleset=plain).act(observation(plain, hand), discards)
    assert keeps == Action("discard", tile("1p"))
    assert speeds.tile // 9 == 0  # worth no more than a plain hand: a character goes


# --- whole hands --------------------------------------------------------------------------------


def test_parameters_are_declared_with_ranges() -> None:
    bot = make_agent("strategy:defence=0.5;wait_share=0.2", 1)
    assert isinstance(bot, StrategyAgent) and bot.defence == 0.5 and bot.wait_share == 0.2
    for name, param in PARAMS["strategy"].items():
        assert param.low < param.high, name
    with pytest.raises(ValueError):
        make_agent("strategy:defence=9")


@pytest.mark.parametrize("rid", playable())
def test_plays_every_shipped_ruleset(rid: str) -> None:
    ruleset = load(rid)
    for hand in range(2):
        names = ("strategy", "value", "strategy", "efficiency")
        agents = [Checked(make_agent(n, s, ruleset=ruleset)) for s, n in enumerate(names)]
        game = Game(ruleset, 2000 + hand, hand)
        while (seat := game.to_move()) is not None:
            legal = game.legal_actions(seat)
            game.apply(agents[seat].act(game.observation(seat), legal), seat)
        assert sum(game.result().deltas) == 0
        assert agents[0].decisions > 0


def test_same_seed_same_log() -> None:
    ruleset = load("sichuan/blog5")

    def log() -> str:
        agents = [make_agent("strategy", s, ruleset=ruleset) for s in range(4)]
        return to_jsonl(play(ruleset, 42, agents, hands=2)[1])

    assert log() == log()


def test_being_ready_counts_at_the_wall_end_only_where_it_pays() -> None:
    """Sichuan pays a ready hand at the wall's end (查叫); Changsha pays nothing then."""
    hand = "123m 456m 789m 11p 45p 9p"  # ready on 3p/6p once 9p goes
    for rid, pays in [("sichuan/blog5", True), ("changsha/qq2014", False)]:
        ruleset = load(rid)
        obs = observation(ruleset, hand, wall=8)
        values = []
        for weight in (0.0, 0.5):
            ctx = make_agent(f"strategy:ready_end={weight}", 0, ruleset=ruleset)._context(obs)
            keys = shapes.add_tile(ctx.view.keys, tile("9p"), -1)
            values.append(ctx.ready_value(keys, ())[0])
        assert values[1] > values[0] + 0.5 if pays else values[1] == values[0], rid


@pytest.mark.parametrize("removed", ["m", "p", "s"])
def test_probe_hands_are_placed_on_the_suits_of_a_two_suit_table(removed: str) -> None:
    """三人两房 plays two suits: the bot's probe hands (a plain win, the others' unready hands
    at the wall's end) are settled in those suits, not in 万 and 筒 the table may lack."""
    ruleset = load("house/sichuan_sanren_liangfang", settings=[f"removed_suit={removed}"])
    low, high = [s for s in "mps" if s != removed]
    hand = f"123{low} 456{low} 789{low} 22{high} 45{high} 9{high}"  # ready once 9 goes
    obs = observation(ruleset, hand, wall=8)
    obs.update(players=3, melds=((),) * 3, discards=((),) * 3, in_game=(True,) * 3,
               void=(None,) * 3, scores=(0,) * 3)  # fmt: skip
    values = []
    for weight in (0.0, 0.5):
        ctx = make_agent(f"strategy:ready_end={weight}", 0, ruleset=ruleset)._context(obs)
        assert ctx._base(()) > 0  # a plain win pays
        keys = shapes.add_tile(ctx.view.keys, tile(f"9{high}"), -1)
        values.append(ctx.ready_value(keys, ())[0])
    assert values[1] > values[0] + 0.5  # 查叫: the unready seats pay the ready one


def test_a_kong_costs_what_a_win_on_its_discard_pays_more(tmp_path: Path) -> None:
    """A kong's discard won on pays more in blog5 (杠上炮 +1番): with a likely-ready
    opponent the bot prices that risk; a variant without the bonus prices none."""
    melds = ((), tuple(("pung", tile(t), False) for t in ("2p", "6p", "8s", "3s")), (), ())
    hand = "1111m 245m 3379p 46s"
    shipped = load("sichuan/blog5")
    plain = load(_extended(tmp_path, "sichuan/blog5", "modifiers:\n  gangshangpao: ~\n"))
    costs = []
    for ruleset in (shipped, plain):
        obs = observation(ruleset, hand, melds=melds, discards=RIVER, wall=20)
        bot = make_agent("strategy", 0, ruleset=ruleset)
        costs.append(bot._kong_cost(bot._context(obs), Action("kong", tile("1m")), "concealed"))
    assert costs[0] > 0 and costs[1] == 0


def test_seven_pairs_are_chased_only_when_the_ruleset_pays_for_them(tmp_path: Path) -> None:
    hand = "113355m 2247p 6699p"  # five pairs: seven pairs within reach, or a plain hand
    discards = discards_of(hand)
    shipped = load("sichuan/blog5")  # 七小对 3番
    plain = load(_extended(tmp_path, "sichuan/blog5", "hands:\n  qixiaodui: {value: 0}\n"))
    keeps = make_agent("strategy", 0, ruleset=shipped).act(observation(shipped, hand), discards)
    breaks = make_agent("strategy", 0, ruleset=plain).act(observation(plain, hand), discards)
    assert keeps == Action("discard", tile("4p"))  # every pair kept
    assert breaks == Action("discard", tile("1m"))  # a pair broken for a plain hand


def test_a_win_is_worth_what_it_spares() -> None:
    """A seat that has not won pays the others' wins: where play goes on (blog5, 血战) one
    win per other seat still in, where the first win ends the hand (qq2014) one.  A win's
    worth adds ``escape`` × that, settled; ``escape=0`` adds nothing."""
    hand = "123m 456m 789m 22p 45p 9p"  # ready on 3p/6p once 9p goes
    spared = {}
    for rid, standings in [
        ("sichuan/blog5", ((True,) * 4, (True, True, False, True))),
        ("changsha/qq2014", ((True,) * 4,)),
    ]:
        ruleset = load(rid)
        for in_game in standings:
            obs = observation(ruleset, hand)
            obs["in_game"] = in_game
            worth = []
            for escape in (0, 1, 2):
                ctx = make_agent(f"strategy:escape={escape}", 0, ruleset=ruleset)._context(obs)
                keys = shapes.add_tile(ctx.view.keys, tile("9p"), -1)
                worth.append(ctx.win_value(shapes.add_tile(keys, tile("3p")), (), tile("3p")))
            assert worth[1] > worth[0] > 0, rid
            assert worth[2] - worth[0] == pytest.approx(2 * (worth[1] - worth[0])), rid
            spared[rid, in_game.count(True)] = (worth[1] - worth[0]) / worth[0]
    # three wins to pay for where play goes on, one where the first win ends the hand
    assert spared["sichuan/blog5", 4] > 2 * spared["changsha/qq2014", 4]
    # a seat gone (won, where play goes on) is a win fewer to pay for
    assert spared["sichuan/blog5", 3] < spared["sichuan/blog5", 4]


def test_a_deal_in_is_priced_by_what_it_pays_not_what_a_win_spares() -> None:
    """An opponent whose melds the probe hands cannot join (a pung in a third suit, where a
    win must lack one) is priced as the seat's own plain win: what that pays, without the
    ``escape`` term a win of its own would add."""
    ruleset = load("sichuan/blog5")
    melds = ((), (("pung", tile("9s"), False),), (), ())
    obs = observation(ruleset, "1124m 2335p 66789p", melds=melds, discards=RIVER, wall=20)
    obs["void"] = (2, None, None, None)
    prices = []
    for escape in (0, 3):
        bot = make_agent(f"strategy:escape={escape}", 0, ruleset=ruleset)
        ends, loss = bot.deal_in(obs, tile("4m"))
        assert ends > 0
        prices.append(loss / ends)
    assert prices[1] == pytest.approx(prices[0])


def test_two_melds_in_one_suit_are_priced_as_a_plain_win() -> None:
    """An opponent's price is a plain hand settled with its melds: two pungs in one suit
    must not turn the probe hand into a one-suit hand (清一色, 3 番 in blog5: 4 points for a
    plain win's 1)."""
    ruleset = load("sichuan/blog5")
    bot = make_agent("strategy", 0, ruleset=ruleset)
    prices = []
    for shown in (("2p", "9p"), ("2p", "9m")):  # one suit; two suits
        melds = ((), tuple(("pung", tile(t), False) for t in shown), (), ())
        obs = observation(ruleset, FAR, melds=melds, discards=RIVER, wall=20)
        ends, loss = bot.deal_in(obs, tile("5p"))
        assert ends > 0
        prices.append(loss / ends)
    assert prices[0] == pytest.approx(prices[1]) and prices[0] < 2


READY = "2345678m 567p 999p"
"""Ready on 2m, 5m and 8m: many live waits."""


@pytest.mark.parametrize(
    ("rid", "hand", "in_game", "passes"),
    [
        ("sichuan/blog5", READY, (True,) * 4, True),  # a self-draw pays 3 seats, + 1 each
        ("sichuan/blog5", READY, (True, True, False, False), False),  # its win would end it
        ("sichuan/blog5", "5m 123p 456p 789p 999p", (True,) * 4, False),  # a single wait
        ("changsha/qq2014", READY, (True,) * 4, False),  # the first win ends the hand
    ],
)
def test_a_discard_win_is_passed_for_a_self_draw_only_where_it_pays(
    rid: str, hand: str, in_game: tuple[bool, ...], passes: bool
) -> None:
    """Where play goes on after a win (血战) a win on a discard may be passed to wait for a
    self-draw, paid by every seat still in: when many winning tiles are live and many seats
    are in to pay.  Where another seat's win would end the hand (the first win ends it, or
    only two seats are left in 血战), it is always taken."""
    ruleset = load(rid)
    obs = observation(ruleset, hand, phase="claim", wall=50,
                      claim={"tile": tile("5m"), "from": 1, "context": ()})  # fmt: skip
    obs["in_game"] = in_game
    win = Action("win", tile("5m"))
    choice = make_agent("strategy", 0, ruleset=ruleset).act(obs, [win, Action("pass")])
    assert choice == (Action("pass") if passes else win)


def test_a_claim_that_brings_the_hand_nearer_is_passed_only_for_far_more() -> None:
    """The value bot passes this pung (its far targets score the hand without it higher);
    the strategy bot takes it, as the efficiency bot does: a claim that brings the hand
    nearer ready is passed only for a hand worth ``value_threshold`` times more."""
    ruleset = load("changsha/qq2014")
    one = tile("1m")
    obs = observation(ruleset, "11334559m 16p 456s", phase="claim", wall=54,
                      claim={"tile": one, "from": 1, "context": ()})  # fmt: skip
    legal = [Action("pung", one), Action("pass")]
    assert make_agent("value", 0, ruleset=ruleset).act(obs, legal) == Action("pass")
    assert make_agent("strategy", 0, ruleset=ruleset).act(obs, legal) == Action("pung", one)
