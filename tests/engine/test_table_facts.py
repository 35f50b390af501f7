"""Facts about the table that rules read (docs/DSL.md §6 Vocabulary): who took and who was
first offered the last tile, the first dealer, two dice for the next dealer, who fed the kong
a win follows, a kong made with the tile just drawn, the tiles face up, bird tiles and the
winning tile at bird time, ``nobody``, ready seats at the end, wait shapes; and the
missed-win locks that last until one's own discard or the dealer's.

F0 = seeds/000_825dba35fdb6fcc9.txt, F1 = seeds/001_76942f0387627e0c.txt, F2 =
seeds/002_c4a44432eae6dd73.txt, F3 = seeds/003_ae78847060e89682.txt (lines as ``cat -n``).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from dsl.ruleset import load
from dsl.situation import Situation
from interpreter.engine import Action, Game
from interpreter.engine.facts import dealer_dice
from interpreter.engine.payments import hand_record
from interpreter.engine.wins import visible
from tests.engine.helpers import rigged, tile, tiles, tsumogiri

PASS = Action("pass")


def variant(tmp_path, parent: str, body: str):
    """``parent`` with a house rule written over it."""
    path = tmp_path / "variant.yaml"
    path.write_text(
        f"extends: {parent}\nruleset: {{id: t/variant, title: {{zh: 变体, en: variant}}}}\n{body}",
        encoding="utf-8",
    )
    return load(str(path))


def next_dealer(ruleset, **fields) -> int:
    """``dealer.next`` of ``ruleset`` for a hand whose first win (if any) was ``fields``."""
    table = Situation(keys=(0, 0, 0), options=ruleset.option_values, **fields)
    return int(ruleset.get("dealer")["next"](table)) % table.players


def payers(game) -> set[int]:
    return {p.payer for p in game.settlements[-1].payments}


# --- the last tile and the next dealer --------------------------------------------------------

HAIDI_DEALER = ["changsha/tutorial", "changsha/points20", "changsha/full2007", "changsha/qq2014"]
NO_OPENING = {
    0: "1m 4m 2p 3p 8p 9p 1s 3s 4s 6s 8s 2m 5m 9m",
    1: "3m 5m 7m 1p 5p 9p 1s 2s 6s 8s 9p 4m 9m",
    2: "555s 123m 678m 46p 7s 9s",
    3: "234p 567p 789m 11s 99s",
}
"""A deal with no opening hand (起手胡), which would decide the next dealer first: seat 2
kongs 5s with the tile before the 海底 (``last``), its 补张 takes the 海底 (7p); seat 3 waits
on 1s or 9s with no 2/5/8 pair: only a big hand such as 抢海底 lets it win."""


@pytest.mark.parametrize("rid", HAIDI_DEALER)
def test_the_last_tile_taker_deals_after_a_drawn_hand(rid):
    """Nobody wins: whoever took the 海底 deals — F3 47 「如果赌海底都没人能和牌，则下一轮的庄家
    是赌海底的人」, F0 87 C 「如果有人要了海底牌后却没人胡则要海底牌的玩家下局当庄家」, F0 297 4
    「无人胡牌时，谁赌了海底归谁当庄」, F1 84 「无人胡牌时，谁赌了海底谁当庄」.  The first seat
    offered it passes, the next takes it."""
    game = rigged(load(rid), NO_OPENING)
    assert not game.facts.opening_winners
    tsumogiri(game, lambda g: g.phase == "last_offer")
    first = game.to_move()
    game.apply(PASS, first)
    taker = game.to_move()
    game.apply(Action("take"), taker)
    tsumogiri(game)
    assert game.facts.last_tile_offered == first and game.facts.last_tile_taker == taker
    result = game.result()
    assert result.winners == () and taker != first and result.next_dealer == taker


@pytest.mark.parametrize("rid", ["changsha/full2007", "changsha/points20"])
@pytest.mark.parametrize("robbed", [False, True])
def test_a_replacement_taking_the_last_tile_makes_its_discard_a_last_tile_and_its_maker_deals(
    rid, robbed
):
    """F0 349 (full2007) 「某一家补张或开杠，可以将海底牌进行补牌，但必须从手牌中打出一张牌，如果
    这张牌有人胡，也算抢海底」: the discard after it is won as 抢海底 (``kong_draws``); F0 299 6
    「海底牌被补张或补杠，且无人胡牌时，由补张或补杠者当庄」 and F0 91 F (points20) 「如果此局无海底
    牌（即海底牌被补张），则补海底牌的玩家下局当庄家」: with no winner the kong-er deals.
    points20 has no 海底 then (F0 143 C 「此局则无海底牌」): seat 3 cannot win at all."""
    game = rigged(load(rid), NO_OPENING, last="5s 7p")
    tsumogiri(game, lambda g: g.phase == "turn" and g.wall.drawable == 1)
    assert game.to_move() == 2 and game.drawn == tile("5s")
    game.apply(Action("kong", tile("5s"), "buzhang"), 2)
    assert game.wall.drawable == 0 and game.facts.last_tile_taker == 2
    game.apply(Action("discard", tile("9s")), 2)
    may_win = Action("win", tile("9s")) in game.legal_actions(3)
    assert may_win == (rid == "changsha/full2007")
    if robbed and may_win:
        game.apply(Action("win", tile("9s")), 3)
        (win,) = [e for e in game.events if e["type"] == "win"]
        assert win["context"] == ["last_tile"] and win["from"] == 2
        assert {h["id"] for w in win["hands"] for h in w["hands"]} == {"qianghaidi"}
        return
    tsumogiri(game)
    result = game.result()
    assert result.reason == "wall" and result.winners == () and result.next_dealer == 2


@pytest.mark.parametrize("rid", HAIDI_DEALER)
def test_no_winner_and_no_last_tile_taken_keeps_the_dealer_only_when_nobody_was_offered(rid):
    """The seat facts of ``dealer.next``: ``nobody`` when no seat holds the role."""
    ruleset = load(rid)
    assert next_dealer(ruleset, dealer=1, winners=frozenset()) == 1
    assert next_dealer(ruleset, dealer=1, winners=frozenset(), last_tile_offered=3) == 3
    both = next_dealer(ruleset, dealer=1, winners=frozenset(), last_tile_offered=3,
                       last_tile_taker=0)  # fmt: skip
    assert both == 0


def test_basic_two_dice_choose_the_next_dealer_among_several_winners():
    """F0 11 (basic) 「如果上一局有多个玩家胡牌，则系统随机选择一个胡牌玩家作为庄家」: two dice
    choose, each winner with the same chance; F0 7: with no winner the room's creator deals."""
    basic = load("changsha/basic")
    chance = Counter()
    for a in range(1, 7):
        for b in range(1, 7):
            for winners in ({1, 2}, {1, 3}, {2, 3}, {1, 2, 3}):
                seat = next_dealer(basic, dealer=3, discarder=0, winners=frozenset(winners),
                                   winner=min(winners), dice=a + b)  # fmt: skip
                assert seat in winners
                chance[frozenset(winners), seat] += Fraction(1, 36)
    for (winners, _), p in chance.items():
        assert p == Fraction(1, len(winners))
    assert next_dealer(basic, dealer=3, winners=frozenset(), first_dealer=1) == 1


def test_the_dice_are_thrown_only_when_the_next_dealer_reads_them():
    """Two dice, thrown at the hand's end: from the hand's own random stream, nothing else."""
    basic, qq2014 = Game(load("changsha/basic"), 5), Game(load("changsha/qq2014"), 5)
    state = qq2014.rng.getstate()
    assert dealer_dice(qq2014.ruleset, qq2014.rules.next_dealer, qq2014.rng) == 0
    assert qq2014.rng.getstate() == state
    assert all(2 <= dealer_dice(basic.ruleset, basic.rules.next_dealer, basic.rng) <= 12
               for _ in range(20))  # fmt: skip


def test_sichuan_app_the_discarder_deals_or_the_dice_choose():
    """F2 33 特点 9 「坐庄 非血战：第二局起 点炮者坐庄，流局则连庄 … 血战：每局投骰」.  After a
    self-drawn win (no 点炮者; the app is silent) the winner deals."""
    putong = load("sichuan/app", settings=["play_mode=first_win"])
    assert next_dealer(putong, dealer=0, winner=1, winners=frozenset({1}), discarder=3) == 3
    assert next_dealer(putong, dealer=0, winner=1, winners=frozenset({1}), self_draw=True) == 1
    assert next_dealer(putong, dealer=2, winners=frozenset()) == 2
    xuezhan = load("sichuan/app")
    thrown = {next_dealer(xuezhan, dealer=2, winners=frozenset(), dice=d) for d in range(2, 13)}
    assert thrown == {0, 1, 2, 3}
    assert next_dealer(xuezhan, dealer=2, winners=frozenset(), dice=5) == 2  # 5: the dealer


def test_a_match_passes_its_first_dealer_to_every_hand():
    from interpreter.engine.match import play

    result, events = play(load("changsha/basic"), 3, hands=3)
    starts = [e for e in events if e["type"] == "start"]
    assert len(starts) == 3 and result.hands[0].dealer == starts[0]["dealer"]


# --- missed-win locks --------------------------------------------------------------------------


def locked_seat_two(ruleset):
    """A game where seat 2 passed a win on the discard the dealer just made."""
    game = rigged(ruleset, {})
    discard = tiles(game.players[0].notation())[0]
    game.apply(Action("discard", discard), 0)
    game.players[2].lock_tiles.add(discard)
    return game


def test_a_lock_until_the_dealer_discards(tmp_path):
    """F3 23 「“过手”之后又可以再和别人的放炮（有的地方的规则是要“过庄”）」: the tutorial's
    option ``lock_until: dealer_discard`` keeps the lock through the player's own draw and
    lifts it when the dealer (seat 0) discards."""
    game = locked_seat_two(load("changsha/tutorial", settings=["lock_until=dealer_discard"]))
    tsumogiri(game, lambda g: g.phase == "turn" and g.current == 2)
    assert game.players[2].lock_tiles  # drawn: still locked
    tsumogiri(game, lambda g: g.phase == "turn" and g.current == 0)
    assert game.players[2].lock_tiles  # the dealer drew, not yet discarded
    game.apply(Action("discard", game.drawn), 0)
    assert not game.players[2].lock_tiles
    plain = locked_seat_two(load("changsha/tutorial"))
    tsumogiri(plain, lambda g: g.phase == "turn" and g.current == 2)
    assert not plain.players[2].lock_tiles  # 过手: the own draw lifts it


def test_a_lock_until_ones_own_discard(tmp_path):
    """``missed_win_until: own_discard`` (过手胡 as some apps play it): the own draw keeps the
    lock, the own discard lifts it."""
    game = locked_seat_two(
        variant(tmp_path, "changsha/tutorial", "restrictions: {missed_win_until: own_discard}")
    )
    tsumogiri(game, lambda g: g.phase == "turn" and g.current == 2)
    assert game.players[2].lock_tiles
    game.apply(Action("discard", game.drawn), 2)
    assert not game.players[2].lock_tiles


# --- kongs -------------------------------------------------------------------------------------

FEEDER = {0: "5m 1p 4p 7p 2p 5p 8p 9p 1m 4m 7m 2m 8m 9m", 1: "555m 123s 456s 789s 2s"}
"""The dealer discards 5m; seat 1 kongs it with 555m and its replacement 2s completes it."""


def test_the_kong_feeder_pays_a_win_on_the_replacement_alone(tmp_path):
    """点杠花算点炮 written with ``kong_provider`` over sichuan/app, whose 杠上花 is a self-draw
    paid by all (F2 35 「自摸，杠上花（实为自摸一种），未胡者输分」): the win stays a self-draw,
    and the seat whose discard made the kong pays it alone (F2 13 (4) 「别人打牌，引杠，再杠上花，
    算引杠者点炮」)."""
    body = (
        "payment:\n  payers: |\n    if kong_draw and kong_provider != nobody then {kong_provider}\n"
        "    else if self_draw then others else {discarder}\n"
    )
    ruleset = variant(tmp_path, "sichuan/app", body)
    game = rigged(ruleset, FEEDER, draws="2s")
    game.apply(Action("discard", tile("5m")))
    game.apply(next(a for a in game.legal_actions(1) if a.kind == "kong"), 1)
    assert game.facts.kong_provider == 0
    game.apply(Action("win", tile("2s")), 1)
    (win,) = [e for e in game.events if e["type"] == "win"]
    assert win["from"] is None and payers(game) == {0}
    plain = rigged(load("sichuan/app"), FEEDER, draws="2s")
    plain.apply(Action("discard", tile("5m")))
    plain.apply(next(a for a in plain.legal_actions(1) if a.kind == "kong"), 1)
    plain.apply(Action("win", tile("2s")), 1)
    assert payers(plain) == {0, 2, 3}


@pytest.mark.parametrize("from_draw", [True, False])
def test_an_added_kong_with_the_tile_just_drawn_or_from_the_hand(tmp_path, from_draw):
    """``kong_from_draw``: 面下杠 with the tile just drawn (摸杠) pays, one made later with a
    tile held (回头杠) pays nothing — a house rule many apps offer."""
    body = "format: 2\npayments:\n  mianxiagang: {amount: if kong_from_draw then 1 else 0}\n"
    ruleset = variant(tmp_path, "sichuan/blog5", body)
    hands = {0: "5m 1p 4p 7p 2p 5p 8p 9p 1m 4m 7m 2m 8m 9m", 1: "55m 123s 456s 789s 1p 9p"}
    game = rigged(ruleset, hands, draws="3s 3s 3s 5m 4s 4s 4s 6s")
    game.apply(Action("discard", tile("5m")), 0)
    game.apply(Action("pung", tile("5m")), 1)
    game.apply(Action("discard", tile("9p")), 1)
    tsumogiri(game, lambda g: g.phase == "turn" and g.current == 1)
    assert game.drawn == tile("5m")
    if not from_draw:  # the fourth 5m is kept, and konged a go-around later (回头杠)
        game.apply(Action("discard", tile("1p")), 1)
        tsumogiri(game, lambda g: g.phase == "turn" and g.current == 1)
        assert game.drawn == tile("6s")
    mark = len(game.events)
    game.apply(Action("kong", tile("5m"), "shun"), 1)
    kong = game.kongs[-1]
    assert kong.kind == "added" and kong.from_draw == from_draw
    money = [e for e in game.events[mark:] if e["type"] == "payment"]
    expected = [(0, 1), (2, 1), (3, 1)] if from_draw else []
    assert [(e["from"], e["amount"]) for e in money] == expected


# --- tiles face up -----------------------------------------------------------------------------


def test_the_tiles_face_up_are_counted_only_when_a_hand_type_reads_them(tmp_path):
    """``visible``: every discard and claimed meld, the winning tile left out when it is
    itself face up; a ruleset none of whose hand types reads it is spared the counting."""
    juezhang = (
        "hands:\n  juezhang:\n    class: big\n    when: visible(win_tile) == 3 and standard()\n"
        "    source: house rule\n"
    )
    plain, house = load("changsha/basic"), variant(tmp_path, "changsha/basic", juezhang)
    games = [rigged(ruleset, {}, draws="9s 9s 9s") for ruleset in (plain, house)]
    for game in games:
        tsumogiri(game, lambda g: g.wall.drawable == 55 - 4)
    assert not games[0].facts.reads_visible and visible(games[0].state, (), False) == ()
    game = games[1]
    seen = Counter(t for p in game.players for t in p.discards)
    assert game.facts.reads_visible and seen[tile("9s")] == 3
    assert Counter(visible(game.state, (), False)) == seen
    assert Counter(visible(game.state, (tile("9s"),), True))[tile("9s")] == 2


# --- several dealers (通庄) and opening hands --------------------------------------------------

OPENING = {
    0: "7m 3m 5p 6p 9p 1s 2s 3s 4s 5s 6s 7s 8s 9s",
    1: "11m 22m 44p 66p 88p 99m 7p",
    2: "123m 456m 789m 12p 45p",
    3: "1s 2s 3s 4s 5s 6s 7s 8s 9s 3p 6p 3m 6m",
}
"""Seats 1 and 2 hold 缺一色 (two suits) when the tiles are dealt; seats 0 and 3 no opening
hand.  The first front tile, 3p, is the opening hands' bird: it points at seat 2."""


@pytest.mark.parametrize("rid", ["changsha/points20", "changsha/full2007"])
def test_several_opening_hands_choose_the_next_dealers(rid):
    """points20 F0 93 G 「如果同时有两个或两个以上的玩家起手胡，则由鸟所中的玩家下一局当庄家」:
    the seat the bird hits; full2007 F0 419 注2 「如果起手胡牌的同时有2家或3家，在存在通庄时2家或
    3家均为庄家，并以离本盘打骰者最近的一家…为下一盘开骰者」: both deal, seat 1 rolls."""
    game = rigged(load(rid, settings=["birds=1"]), OPENING, draws="3p")
    assert game.facts.opening_winners == {1, 2} and game.facts.opening_bird_seats == {2}
    tsumogiri(game)
    result = game.result()
    assert result.winners == ()
    if rid == "changsha/points20":
        assert game.facts.last_tile_offered != 2  # the drawn end alone would not make seat 2
        assert result.next_dealer == 2 and result.next_dealers == {2}
    else:
        assert result.next_dealer == 1 and result.next_dealers == {1, 2}


def test_several_dealers_start_the_next_hand_and_replay():
    """通庄 (F0 369): a hand dealt by seat 1 with seats 2 and 3 dealing too says so in its
    start event, reads them as ``dealers`` and replays from its log."""
    from interpreter.engine.replay import replay

    game = Game(load("changsha/full2007"), 7, 1, dealers=(2, 3))
    assert game.events[0]["dealers"] == [1, 2, 3] and game.dealers == {1, 2, 3}
    assert hand_record(game.state, (), ()).dealers == {1, 2, 3}
    tsumogiri(game)
    assert replay(game.events).hands == 1


ZHUOZHUANG = {
    0: "1m 4m 2p 3p 8p 9p 1s 3s 4s 6s 8s 2m 5m 9m",
    1: "234m 55m 78s 567p 999p",
    2: "555s 123m 678m 46p 7s 9s",
    3: "234p 567p 789m 11s 99s",
}
"""F0 475 例1: seat 1 waits on 6s or 9s (平胡, 2/5/8 pair); seat 3 discards 9s, then the dealer
(seat 0) discards 6s in the same go-around."""
BIG = {**ZHUOZHUANG, 1: "222m 555m 88s 99p 777p", 2: "555s 134m 678m 46p 7s 9s"}
"""Seat 1 waits on 8s or 9p: on 9p a 碰碰胡 (大货), passed on 8s from seat 3."""


@pytest.mark.parametrize(
    ("hands", "draws", "option", "may_win"),
    [
        (ZHUOZHUANG, "1p 1p 9s 6s", False, False),
        (ZHUOZHUANG, "1p 1p 9s 6s", True, True),
        (BIG, "1p 1p 8s 9p", True, False),
    ],
)
def test_zhuozhuang_a_plain_win_on_the_dealers_discard_despite_the_lock(
    hands, draws, option, may_win
):
    """F0 473 「捉庄可以不受禁胡的原则限制。即如果C是庄家，一轮之内，B打出一张牌A可以胡但没有胡，
    接着C在同一轮之内再打出一张牌，A可以胡牌」 under full2007's option ``zhuozhuang``, F0 483
    「捉庄和仅限于平胡，大货不能捉庄」; without it, 禁胡 (F0 467) holds."""
    ruleset = load("changsha/full2007", settings=[f"zhuozhuang={str(option).lower()}"])
    game = rigged(ruleset, hands, draws=draws)
    passed, caught = tiles(draws)[2:]
    tsumogiri(game, lambda g: g.phase == "claim" and g.round.discarder == 3)
    assert Action("win", passed) in game.legal_actions(1)
    game.apply(PASS, 1)
    tsumogiri(game, lambda g: g.phase == "claim" and g.round.discarder == 0)
    assert game.round.tile == caught and game.players[1].lock_tiles
    assert (Action("win", caught) in game.legal_actions(1)) == may_win


def test_zhuozhuang_is_for_a_plain_win_on_the_dealer_alone():
    """F0 483 「捉庄和仅限于平胡，大货不能捉庄」; a 闲's discard stays locked (例1 「但如果是闲家
    打出的则不能胡」)."""
    ruleset = load("changsha/full2007", settings=["zhuozhuang=true"])
    rule = ruleset.get("restrictions")
    locked = {"keys": (0, 0, 0), "dealer": 0, "winner": 1, "missed_tiles": frozenset({1}),
              "options": ruleset.option_values}  # fmt: skip
    plain, big = {"pinghu": 1}, {"pinghu": 1, "pengpenghu": 1}
    assert not rule["missed_win"](Situation(discarder=0, hands=plain, **locked))
    assert rule["missed_win"](Situation(discarder=0, hands=big, **locked))
    assert rule["missed_win"](Situation(discarder=3, hands=plain, **locked))
