"""The flow of play in the Sichuan rulesets, position by position, each test quoting the
source line it follows (F1 = 001_76942f0387627e0c.txt, the blog; F2 = 002_c4a44432eae6dd73.txt,
the points text and the app).  docs/FLOW.md names these tests in its tables."""

from __future__ import annotations

from collections import Counter

import pytest

from dsl.ruleset import load
from handcore import shapes
from interpreter.agents.reading import View
from interpreter.engine import Action
from interpreter.engine.actions import PASS
from tests.engine.helpers import next_dice, rigged, tile, tiles


def drive(game, choose=lambda g, seat, legal: None, until=lambda g: False):
    """Play on: ``choose`` may pick an action; otherwise the player to move discards what it
    drew (else its highest tile), every claim is passed, a forced win taken, and the void
    suit declared is the one held least."""
    while not game.is_over() and not until(game):
        seat = game.to_move()
        legal = game.legal_actions(seat)
        action = choose(game, seat, legal)
        if action is None and game.phase == "void":  # 定缺: the suit held least
            held = Counter("mps"[t // 9] for t in game.players[seat].hand())
            action = min(legal, key=lambda a: held[a.option])
        if action is None:
            discards = [a for a in legal if a.kind == "discard"]
            if game.phase == "turn" and discards:
                drawn = Action("discard", game.drawn)
                action = drawn if drawn in discards else discards[-1]
            else:
                action = PASS if PASS in legal else legal[0]
        game.apply(action, seat)


def when(seat, kind, text=None):
    """A chooser taking ``seat``'s action of ``kind`` (on the tile ``text``) when offered."""

    def choose(game, s, legal):
        wanted = [a for a in legal if a.kind == kind and (text is None or a.tile == tile(text))]
        return wanted[0] if s == seat and wanted else None

    return choose


def first_of(*choosers):
    return lambda g, s, legal: next(
        (a for c in choosers if (a := c(g, s, legal)) is not None), None
    )


def payments(game, since=0):
    return [
        (e["from"], e["to"], e["amount"], e["reasons"][0])
        for e in game.events[since:]
        if e["type"] == "payment"
    ]


def wins(game):
    return [e for e in game.events if e["type"] == "win"]


def hand_ids(win):
    return {h["id"] for h in win["hands"][0]["hands"]}


def far(game, *seats):
    """The seats' hands are not ready: discarding every draw, they can never win."""
    for s in seats:
        p = game.players[s]
        keys = shapes.keys_of(p.counts)
        assert shapes.shanten(keys, len(p.melds), None) >= 1, s


# --- 10, 13: 退税 returns what was paid, to whoever paid it -------------------------------------

# Seat 3 holds four 1s and nothing near ready (two suits: no 花猪); seat 1 waits on 9m, which
# the dealer draws and discards after seat 3's concealed kong.
REFUND_HANDS = {
    0: "9m 4p 7p 2p 5p 8p 9p 1m 4m 7m 2m 5m 8m 1p",
    1: "123p 456p 789p 234m 9m",
    2: "3s 6s 9s 3s 6s 9s 1p 4p 7p 3p 6p 9p 5s",
    3: "1111s 2s 5s 8s 1m 2m 3m 4m 6m 7m",
}


@pytest.mark.parametrize("rid, rain", [("sichuan/blog5", 2), ("sichuan/app", 12)])
def test_refund_returns_kong_money_to_a_payer_who_has_since_won(rid, rain):
    # F1 27: 如果黄庄了，有杠牌的玩家还没有下窖，则必须退回全部刮风下雨所得 — all of it,
    # so also what seat 1 paid before it won and left; F2 37: 刮风下雨的人若最后退税，则不再退给
    # 已经逃跑的胡家 — a winner who stayed is paid back.
    game = rigged(load(rid), REFUND_HANDS, draws="7s 7s 8s 9s 9m", dealer=0)
    far(game, 0, 2, 3)
    drive(game, first_of(when(3, "kong", "1s"), when(1, "win")), until=wins)
    assert wins(game)[0]["seats"] == [1] and wins(game)[0]["from"] == 0
    paid = [p[:3] for p in payments(game) if p[3].startswith("下雨")]
    assert paid == [(0, 3, rain), (1, 3, rain), (2, 3, rain)]
    mark = len(game.events)
    drive(game)
    assert game.result().reason == "wall"
    assert [p[:3] for p in payments(game, mark)] == [(3, 0, rain), (3, 1, rain), (3, 2, rain)]
    assert all(p[3].startswith("退税") for p in payments(game, mark))
    assert sum(game.result().deltas) == 0


@pytest.mark.parametrize(
    "rid, preset, wind", [("sichuan/app", None, 6), ("sichuan/blog5", "app_like", 2)]
)
def test_transferred_kong_money_is_not_refunded_again(rid, preset, wind):
    # F2 35: 如果为杠上炮，还要将刚才所杠牌所得，转给胡牌家; F2 31: 没听牌的玩家 …
    # 退回所有刮风下雨所得 — the kong money went to the winner: seat 3 has none left to return.
    ruleset = load(rid, preset=preset)
    hands = dict(REFUND_HANDS)
    hands[3] = "111s 2s 5s 8s 1m 2m 3m 4m 6m 7m 9s"
    # seat 1 draws 7s, seat 2 draws 1s and discards it; seat 3 kongs it, draws 9m and throws it
    game = rigged(ruleset, hands, draws="7s 1s 9m", dealer=0)
    far(game, 0, 2, 3)
    drive(game, first_of(when(3, "kong", "1s"), when(1, "win")), until=wins)
    win = wins(game)[0]
    assert win["seats"] == [1] and win["from"] == 3 and "kong_discard" in win["context"]
    # F2 29 直杠，立刻收取引杠者1倍点数 (F1 27: 2倍)
    assert [p[:3] for p in payments(game) if p[3].startswith("刮风")] == [(2, 3, wind)]
    transferred = [p for p in payments(game) if p[3] == "kong money transferred"]
    assert [p[:3] for p in transferred] == [(3, 1, wind)]
    mark = len(game.events)
    drive(game)
    assert game.result().reason == "wall"
    assert not [p for p in payments(game, mark) if p[3].startswith("退税")]
    assert sum(game.result().deltas) == 0


# --- 12: a 花猪 does not pay 查大叫 in the app ---------------------------------------------------

PIG_HANDS = {
    0: "9p 333m 147p 258s 369s 1m",
    1: "123s 456s 789s 234s 9p",
    2: "111p 222p 333p 444p 9p",
    3: "555p 666p 777p 888p 3m",
}


@pytest.mark.parametrize(
    "rid, expected",
    [
        # F2 31: 第一步：查卫生（花猪）… 花猪赔给非花猪玩家16倍点数。
        # 第二步：查大叫 没听牌的玩家（花猪不用）
        ("sichuan/app", [(0, 3, 96, "花猪")]),
        # F1 19: 花猪无条件包还在场的麻友满庄; F1 26: 没有停牌的人赔给所有已经停牌者 — no exemption
        ("sichuan/blog5", [(0, 3, 10, "花猪"), (0, 3, 2, "查叫")]),
    ],
)
def test_a_flower_pig_pays_the_ready_check_only_where_the_source_says(rid, expected):
    # Seats 1 and 2 win on the dealer's first discard; seat 0 holds every suit (花猪), seat 3
    # is ready on 3m, which it can never draw.
    game = rigged(load(rid), PIG_HANDS)
    game.apply(Action("discard", tile("9p")))
    game.apply(Action("win", tile("9p")))
    game.apply(Action("win", tile("9p")))
    mark = len(game.events)
    drive(game)
    assert game.result().reason == "wall"
    assert [(a, b, n, why.split(":")[0]) for a, b, n, why in payments(game, mark)] == expected


# --- 11: 海底 on a kong's replacement ------------------------------------------------------------

# Seat 2 waits on 2p / 5p and holds three 1m; the other 2p and 5p are in the dealer's hand
# (just as many as make 108).  The wall ends with 1m (seat 2's draw) and the replacement tile.
HAIDI_HANDS = {
    0: "222p 5555p 8p 1s 3s 4s 6s 7s 9s",
    1: "1s 2s 4s 5s 7s 8s 9s 1p 3p 4p 6p 7p 9p",
    2: "111m 555m 888m 99p 34p",
    3: "2m 3m 4m 6m 7m 9m 2s 2s 3s 5s 6s 8s 8s",
}


@pytest.mark.parametrize("haidihua", [False, True])
def test_a_kong_draw_of_the_last_tile_is_haidi(haidihua):
    # F1 63: 海底：最后一张牌胡牌的再加一番，不管这张牌是你自摸还是别人点炮;
    # F1 62: 杠上花 … 另：有时候海底花多加一番（即杠上花是最后一张牌胡牌）— the option haidihua.
    blog5 = load("sichuan/blog5", settings=[f"haidihua={str(haidihua).lower()}"])
    game = rigged(blog5, HAIDI_HANDS, last="1m 2p")
    far(game, 0, 1, 3)
    drive(game, when(2, "kong", "1m"), until=wins)
    win = wins(game)[0]
    assert win["seats"] == [2] and win["tiles"] == ["2p"]
    assert win["context"] == ["kong_draw", "last_tile"]
    expected = {"pinghu", "gen", "gangshanghua", "haidi"} | ({"haidihua"} if haidihua else set())
    assert hand_ids(win) == expected
    assert win["hands"][0]["total"] == 4 + haidihua
    assert game.wall.drawable == 0


def test_the_discard_after_a_kong_draw_of_the_last_tile_is_haidi():
    # F1 63 (海底, 不管 … 别人点炮) with F1 64 (杠上炮): seat 2's replacement is the last tile,
    # 9s, which it cannot use; seat 3 wins on its discard.
    blog5 = load("sichuan/blog5")
    hands = dict(HAIDI_HANDS)
    hands[0] = "2222p 5555p 1s 3s 4s 6s 9s 7s"
    hands[1] = "1s 2s 4s 5s 7s 9s 8s 1p 3p 4p 6p 7p 9p"
    hands[3] = "234m 567m 678m 99s 88s"  # waits on 8s or 9s: the last 8s is the last tile
    game = rigged(blog5, hands, last="1m 8s")
    far(game, 0, 1)
    drive(game, when(2, "kong", "1m"), until=wins)
    win = wins(game)[0]
    assert win["seats"] == [3] and win["from"] == 2 and win["tiles"] == ["8s"]
    assert win["context"] == ["kong_discard", "last_tile"]
    assert {"gangshangpao", "haidi"} <= hand_ids(win)


# --- 14: a won tile is shown to every seat -------------------------------------------------------


def test_a_self_drawn_winning_tile_is_visible_to_the_other_seats():
    # F1 14: 胡牌的人不要掀开自己的牌，只需要摆出胡牌的那张即可 — the winning tile is shown.
    blog5 = load("sichuan/blog5")
    hands = {
        0: "1p 4p 7p 2p 5p 8p 9p 1m 4m 7m 2m 5m 8m 9m",
        1: "123s 456s 789s 234s 9p",
    }
    game = rigged(blog5, hands, draws="9p")
    game.apply(Action("discard", tile("1m")))
    drive(game, when(1, "win"), until=wins)
    assert wins(game)[0]["from"] is None and not game.is_over()
    for seat in (0, 2, 3):
        obs = game.observation(seat)
        assert obs["won"][1] == (tile("9p"),)
        counts = View.of(obs).visible
        assert counts[tile("9p")] == 1 + Counter(obs["discards"][0])[tile("9p")]
    assert game.census() == Counter(game.rules.all_tiles)


# --- 15: 点杠花 -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rid, setting, payers",
    [
        # F1 22: 如果谁打出一张牌，被杠 …，再杠上花（即杠开），算引杠者点炮
        ("sichuan/blog5", None, {0}),
        # F2 13 打牌规则 (4): 别人打牌，引杠，再杠上花，算引杠者点炮
        ("sichuan/points", None, {0}),
        # F2 35: 自摸，杠上花（实为自摸一种），未胡者输分
        ("sichuan/app", None, {0, 2, 3}),
        # the option as apps name it: 点杠花(自摸) / 点杠花(点炮)
        ("sichuan/blog5", "dianganghua_zimo=true", {0, 2, 3}),
        ("sichuan/app", "dianganghua_zimo=false", {0}),
    ],
)
def test_a_win_on_the_replacement_after_a_kong_on_a_discard(rid, setting, payers):
    # The dealer discards 5m; seat 1 kongs it with 555m and its replacement 2s completes it.
    ruleset = load(rid, settings=[setting] if setting else [])
    hands = {0: "5m 1p 4p 7p 2p 5p 8p 9p 1m 4m 7m 2m 8m 9m", 1: "555m 123s 456s 789s 2s"}
    game = rigged(ruleset, hands, draws="2s")
    game.apply(Action("discard", tile("5m")))
    kong = next(a for a in game.legal_actions(1) if a.kind == "kong")
    game.apply(kong, 1)
    # F1 28 杠牌要顺着拿牌，不是从牌堆的最后拿; F2 13 杠牌顺拿牌: the next tile from the front
    assert [e["tiles"] for e in game.events if e["type"] == "replacement"] == [["2s"]]
    mark = len(game.events)
    game.apply(Action("win", tile("2s")), 1)
    win = wins(game)[0]
    assert win["context"] == ["kong_draw"] and "gangshanghua" in hand_ids(win)
    assert game.observation(2)["won"][1] == (tile("2s"),)  # shown to the others (F1 14)
    assert win["from"] == (None if payers != {0} else 0)
    assert {p[0] for p in payments(game, mark)} == payers


def test_a_second_kong_from_the_replacement_makes_the_win_a_self_draw_again():
    # F1 23: 如果第一次某人引杠，对方没有杠开，但是杠起来的牌又可连续开杠（自杠），这次如果杠开了，
    # 就算在场的还没胡牌的所有人的了。
    blog5 = load("sichuan/blog5")
    hands = {0: "5m 1p 4p 7p 2p 5p 8p 9p 1m 4m 7m 2m 8m 9m", 1: "555m 111s 456s 789s 2s"}
    game = rigged(blog5, hands, draws="1s 2s")
    game.apply(Action("discard", tile("5m")))
    game.apply(next(a for a in game.legal_actions(1) if a.kind == "kong"), 1)
    game.apply(next(a for a in game.legal_actions(1) if a.kind == "kong"), 1)  # 1111s
    mark = len(game.events)
    game.apply(Action("win", tile("2s")), 1)
    assert wins(game)[0]["from"] is None
    assert {p[0] for p in payments(game, mark)} == {0, 2, 3}
    assert tiles("2s") == list(game.players[1].won)


# --- the flow audit (docs/FLOW.md): rules the engine already followed --------------------------

SICHUAN = ["sichuan/blog5", "sichuan/points", "sichuan/app"]
FAR_DEALER = "1p 4p 7p 2p 5p 8p 9p 1m 4m 7m 2m 5m 8m 9m"


@pytest.mark.parametrize("rid", SICHUAN)
def test_the_deal_108_tiles_the_dealer_14_and_first_to_discard(rid):
    # F1 16–17: 一副牌共108张，就筒、条、万 … 4人同时玩。庄家十四张，先出牌，其余3家各13张;
    # F2 5 (麻将一副牌共108张 … 4人同时玩), 13 (1) 庄家十四张，先出牌; F2 27 特点 1.
    game = rigged(load(rid), {}, dealer=2)
    assert len(game.rules.all_tiles) == 108 and set(game.rules.suits) == {0, 1, 2}
    assert [len(p.hand()) for p in game.players] == [13, 13, 14, 13]
    assert game.to_move() == 2 and game.phase == "turn"
    assert {a.kind for a in game.legal_actions(2)} <= {"discard", "kong", "win"}
    assert game.wall.drawable == 108 - 53
    assert game.census() == Counter(game.rules.all_tiles)


@pytest.mark.parametrize("rid", SICHUAN)
def test_no_chow_pung_and_kong_from_anyone_melds_shown(rid):
    # F1 21: 可碰、可杠，就是不能吃 … 碰、杠后的牌要亮出牌面; F2 13 (3); F2 27 特点 2 不可以吃.
    hands = {0: "5m 1p 4p 7p 2p 5p 8p 9p 1m 4m 7m 2m 8m 9m", 1: "46m 55m 123p 789p 11s 2s"}
    game = rigged(load(rid), hands)
    game.apply(Action("discard", tile("5m")))
    assert game.to_move() == 1
    assert {a.kind for a in game.legal_actions(1)} == {"pung", "pass"}  # the 下家: no chow
    game.apply(Action("pung", tile("5m")), 1)
    assert game.observation(2)["melds"][1] == (("pung", tile("5m"), False),)


@pytest.mark.parametrize("rid", SICHUAN)
@pytest.mark.parametrize("suits, offered", [("123m 456m 789s 11s 23m", True),
                                            ("123m 456p 789s 11s 23m", False)])  # fmt: skip
def test_a_win_must_lack_a_suit(rid, suits, offered):
    # F1 19: 必须缺一门才能胡牌; F1 13 胡牌时手上最多有两门牌; F2 5 必须缺一门才能胡牌;
    # F2 27 特点 3 必须缺门可胡.
    hands = {0: "1m 1p 4p 7p 2p 5p 8p 9p 6p 3p 6p 9p 3p 5s", 1: suits}
    game = rigged(load(rid), hands)
    game.apply(Action("discard", tile("1m")))
    assert (Action("win", tile("1m")) in game.legal_actions(game.to_move())) is offered


@pytest.mark.parametrize("rid", SICHUAN)
@pytest.mark.parametrize("where, forced", [("draws", False), ("last", True)])
def test_a_win_in_the_last_four_tiles_must_be_taken(rid, where, forced):
    # F1 25: 最后四张能胡必须胡; F2 15 (9) 最后四张牌，有能时必须胡牌; F2 27 特点 4 最后四张自动胡.
    # Seat 2 waits on 2p / 5p; the one 2p not in the dealer's hand comes early (a draw of its
    # own) or among the last three tiles (seat 1 draws and throws it).
    hands = dict(HAIDI_HANDS)
    hands[0] = "222p 5555p 8p 1s 3s 4s 6s 7s 9s"
    spot = {"draws": "7s 2p", "last": "2p 9s 9s"}[where]
    game = rigged(load(rid), hands, **{where: spot})
    far(game, 0, 1, 3)
    drive(game, until=lambda g: any(a.kind == "win" for a in g.legal_actions(g.to_move())))
    legal = game.legal_actions(2)
    assert game.to_move() == 2 and game.wall.drawable == (2 if forced else 53)
    assert (legal == [Action("win", tile("2p"))]) is forced


@pytest.mark.parametrize("rid, offered", [("sichuan/blog5", False), ("sichuan/points", False),
                                          ("sichuan/app", True)])  # fmt: skip
def test_a_passed_win_is_not_taken_on_a_later_discard_until_the_own_draw(rid, offered):
    # F1 29: 在同一圈内，不能“弃先胡后” … 但是加番可以胡，自摸可以胡; F2 15 (10) 同一圈内，不能弃先
    # 胡后，但是加分可以胡; the app states no such rule.  Seat 2 waits on 2p / 5p (平胡 either way),
    # passes the dealer's 5p; seat 1 then throws 2p; after seat 2's own draw, seat 3 throws 2p.
    hands = {
        0: "5555p 8p 1s 3s 4s 6s 7s 9s 3s 6s 9s",
        1: "1s 2s 4s 5s 7s 8s 1p 3p 4p 6p 7p 2p 2p",
        2: "111m 555m 888m 99p 34p",
        3: "2p 9p 2m 3m 4m 6m 7m 9m 2s 5s 8s 3s 6s",
    }
    game = rigged(load(rid), hands, draws="8s 7s 8s")
    game.apply(Action("discard", tile("5p")))
    assert game.to_move() == 2 and Action("win", tile("5p")) in game.legal_actions(2)
    game.apply(PASS, 2)
    game.apply(Action("discard", tile("2p")), 1)
    assert (game.phase == "claim" and game.to_move() == 2) is offered
    if offered:
        game.apply(PASS, 2)
    assert game.to_move() == 2 and game.phase == "turn"  # seat 2 draws: the lock ends
    game.apply(Action("discard", tile("7s")), 2)
    game.apply(Action("discard", tile("2p")), 3)
    assert Action("win", tile("2p")) in game.legal_actions(2)


def added_kong(ruleset, offered=lambda game, seat: None):
    """Seat 1 pungs the dealer's 7p (``offered`` sees each seat's claim turn), later draws
    the fourth 7p and adds it to the pung; seat 3 waits on 7p.  The game and the index of
    the first event of the kong."""
    hands = {
        0: "7p 222s 234p 567m 999s 4s",
        1: "77p 135m 468s 1p 3p 5p 9p 9m",
        3: "123m 456m 789m 99m 68p",
    }
    game = rigged(ruleset, hands, draws="1s 3s 5s 7p")
    game.apply(Action("discard", tile("7p")))
    while game.phase == "claim":
        seat = game.to_move()
        offered(game, seat)
        game.apply(Action("pung", tile("7p")) if seat == 1 else PASS, seat)
    game.apply(Action("discard", tile("9p")), 1)
    drive(game, until=lambda g: g.to_move() == 1 and g.phase == "turn")
    assert game.drawn == tile("7p")
    mark = len(game.events)
    game.apply(next(a for a in game.legal_actions(1) if a.kind == "kong"), 1)
    return game, mark


@pytest.mark.parametrize(
    "rid, rob, added",
    [("sichuan/blog5", True, 0), ("sichuan/points", True, 0), ("sichuan/app", True, 0),
     ("sichuan/blog5", False, 1), ("sichuan/app", False, 6), ("sichuan/points", False, 0)],
)  # fmt: skip
def test_an_added_kong_may_be_robbed_and_pays_no_kong_money(rid, rob, added):
    # F1 38: 抢杠胡，即在他人杠时抢牌胡 …（抢杠只能抢明杠，不得抢暗杠。）; F2 7 (2) 抢杠胡;
    # F1 65: 抢杠 … 补杠的牌正好让其它玩家胡牌; F2 31: 玩家面下杠时，他家可以抢杠而胡，刮风下雨无效.
    # Unrobbed: F1 27 面下杠，收取其他未胡者1倍点数; F2 29 面下杠，立刻收取其他未胡者1倍点数; the
    # points text pays kongs only as 加分 on a win (F2 9 每有一杠加1分): no kong money.
    game, mark = added_kong(load(rid))  # seat 3 could win on the pung's 7p and passes
    assert game.phase == "claim" and game.to_move() == 3
    if not rob:
        game.apply(PASS, 3)
        expected = [(seat, 1, added) for seat in (0, 2, 3)] if added else []
        assert [p[:3] for p in payments(game, mark)] == expected
        return
    game.apply(Action("win", tile("7p")), 3)
    win = wins(game)[0]
    assert win["context"] == ["robbing_kong"] and win["from"] == 1
    assert game.observation(0)["won"][3] == (tile("7p"),)  # the robbed tile is shown (F1 14)
    assert rid == "sichuan/app" or {"qianggang", "qiangganghu"} & hand_ids(
        win
    )  # no add-on in the app
    assert [p[:2] for p in payments(game, mark)] == [(1, 3)]  # the win only: no 刮风


def test_a_concealed_kong_cannot_be_robbed():
    # F1 38: 抢杠只能抢明杠，不得抢暗杠.  Seat 3 waits on 7p; seat 1 makes a kong of four 7p.
    hands = {1: "7777p 135m 468s 1p 3p 5p", 3: "123m 456m 789m 99m 68p"}
    game = rigged(load("sichuan/blog5"), hands, draws="9s")
    drive(game, until=lambda g: g.to_move() == 1 and g.phase == "turn")
    game.apply(next(a for a in game.legal_actions(1) if a.kind == "kong"), 1)
    assert game.phase == "turn" and game.to_move() == 1  # no claim round: the replacement
    assert [e["type"] for e in game.events[-6:]].count("replacement") == 1


@pytest.mark.parametrize(
    "rid, winners, next_dealer",
    [
        ("sichuan/points", [1], 1),  # F2 13 (2) 本盘胡牌者为下一盘的庄家
        ("sichuan/points", [1, 2], 0),  # F2 13 (7) 一炮点两家以上 … 点炮者为下一盘的庄家
        ("sichuan/blog5", [1, 2], 0),  # F1 22 一炮点两家以上 … 点炮者为下一盘的庄家
        ("sichuan/blog5:putong", [1], 1),  # F1 60 本盘胡牌者为下一盘的庄家; F1 10 普通版
    ],
)
def test_the_next_dealer_is_the_winner_or_after_several_the_discarder(rid, winners, next_dealer):
    rid, _, preset = rid.partition(":")
    game = rigged(load(rid, preset=preset or None), PIG_HANDS)
    game.apply(Action("discard", tile("9p")))
    for seat in (1, 2):
        game.apply(Action("win", tile("9p")) if seat in winners else PASS, seat)
    assert wins(game)[0]["seats"] == winners
    if rid == "sichuan/points" or preset:  # the first win ends the hand (no 血战)
        assert game.is_over() and game.result().reason == "win"
    drive(game)
    assert game.result().next_dealer == next_dealer


@pytest.mark.parametrize("rid", SICHUAN)
def test_a_hand_nobody_wins_keeps_its_dealer(rid):
    # F1 26: 如果四家都没胡牌的黄庄，下一局的庄家为再上一局的庄家 (C-34: the same dealer);
    # F2 15 (8) 庄家为上局的庄家; F2 33 特点 9 流局则连庄 (非血战) — the app plays 血战 by
    # default: 每局投骰, two dice counted from the dealer.
    hands = {
        2: FAR_DEALER,
        1: "123p 456p 789p 234m 1m",
        0: "3s 6s 9s 3s 6s 9s 1p 4p 7p 3p 6p 9p 5s",
        3: "1111s 2s 5s 8s 1m 2m 3m 4m 6m 7m",
    }
    game = rigged(load(rid), hands, dealer=2)
    far(game, 0, 2, 3)
    mark = len(game.events)
    dice = sum(next_dice(game))  # nothing else in this hand throws dice
    drive(game)
    assert game.result().reason == "wall" and game.result().winners == ()
    assert game.result().next_dealer == ((2 + dice - 1) % 4 if rid == "sichuan/app" else 2)
    # seat 1 is ready (平胡 on 1m): the others pay it at the drawn end (F1 26 查窖; F2 15 (8)
    # 流局时要查有无听牌; F2 31 查大叫), the least in blog5 and points, the most in the app
    unit = {"sichuan/app": 6}.get(rid, 1)
    assert [(a, b, n, why[:2]) for a, b, n, why in payments(game, mark)] == [
        (0, 1, unit, "查叫"), (2, 1, unit, "查叫"), (3, 1, unit, "查叫"),
    ]  # fmt: skip


def test_the_void_suit_declared_is_discarded_first_and_blocks_a_win():
    # RULES.md §4 Sichuan 定缺 (an app option, off in every text): the declared suit goes first,
    # and no win while any of it is held.
    app = load("sichuan/app", settings=["dingque=true"])
    hands = {
        0: FAR_DEALER,
        1: "123m 456m 789m 111s 2m",
        2: "1p 2s 3s 4s 5s 6s 7s 8s 9s 2p 3p 9m 9m",
    }
    game = rigged(app, hands)
    choice = {0: "s", 1: "p", 2: "m", 3: "s"}
    while game.phase == "void":
        seat = game.to_move()
        game.apply(Action("void", option=choice[seat]), seat)
    assert game.observation(1)["void"] == (2, 1, 0, 2)
    game.apply(Action("discard", tile("2m")), 0)
    assert Action("win", tile("2m")) in game.legal_actions(1)  # seat 1 holds no 筒
    game.apply(PASS, 1)
    drive(game, until=lambda g: g.to_move() == 2 and g.phase == "turn")
    assert {a.tile // 9 for a in game.legal_actions(2) if a.kind == "discard"} == {0}  # 万


@pytest.mark.parametrize("rid, amount", [("sichuan/blog5", 2), ("sichuan/app", 12)])
def test_kong_money_is_paid_at_once_by_the_players_still_in(rid, amount):
    # F1 27: 下雨立刻收取其他未胡者每人2倍点数; F2 29–31: 下雨立刻收取其他未胡者2倍点数.  Seats 1
    # and 2 have won on the dealer's 9p; seat 3 draws the fourth 5p and makes a concealed kong.
    game = rigged(load(rid), PIG_HANDS, draws="5p")
    game.apply(Action("discard", tile("9p")))
    game.apply(Action("win", tile("9p")))
    game.apply(Action("win", tile("9p")))
    assert game.to_move() == 3 and game.drawn == tile("5p")
    mark = len(game.events)
    game.apply(Action("kong", tile("5p"), "shun" if rid.endswith("blog5") else "buzhang"), 3)
    assert [p[:3] for p in payments(game, mark)] == [(0, 3, amount)]


@pytest.mark.parametrize("rid", SICHUAN)
def test_a_win_on_a_discard_beats_a_pung_of_it(rid):
    # F1 21–22 (碰, 杠, 胡 on any discard; the discarder pays) with claims.priority [win, kong,
    # pung] (sichuan/base): seat 3 would pung the dealer's 9p, seat 1 wins on it.
    hands = {
        0: "9p 333m 147p 258m 369m 1m",
        1: "123s 456s 789s 234s 9p",
        3: "99p 11m 123s 456s 78s",
    }
    game = rigged(load(rid), hands)
    game.apply(Action("discard", tile("9p")))
    while game.phase == "claim":
        seat = game.to_move()
        game.apply({1: Action("win", tile("9p")), 3: Action("pung", tile("9p"))}[seat], seat)
    assert wins(game)[0]["seats"] == [1] and wins(game)[0]["from"] == 0
    assert game.players[3].melds == ()
    # F1 22 谁点炮谁负责; F2 13 (6) 点炮者输点，与他人无关; F2 35 点胡，点炮者输分
    assert {p[:2] for p in payments(game)} == {(0, 1)}


@pytest.mark.parametrize(
    "rid, seat, hand_type",
    [
        # F2 41 六番: 天胡，庄家在第一次摸完牌后，就胡牌; 地胡，非庄家 … 第一轮摸牌后就胡牌
        ("sichuan/app", 0, "tianhu"),
        ("sichuan/app", 1, "dihu"),
        # F2 9 8分 (1) 天胡 (2) 地胡
        ("sichuan/points", 0, "tianhu"),
        ("sichuan/points", 1, "dihu"),
        # F1 54–55: 天胡 (可不兴此规则) … 地胡 … 就当正常胡牌算 — off by default (option tiandi)
        ("sichuan/blog5", 0, "pinghu"),
        ("sichuan/blog5", 1, "pinghu"),
    ],
)
def test_a_self_drawn_win_in_the_first_go_around(rid, seat, hand_type):
    # F1 22 自摸 … 另外三家输; F2 13 (5) 自摸牌 … 另外三家输; F2 35 自摸 … 未胡者输分.
    complete = {0: "123m 456m 789m 123p 55p", 1: "123m 456m 789m 123p 5p"}[seat]
    hands = {seat: complete, **({0: FAR_DEALER} if seat else {})}
    game = rigged(load(rid), hands, draws="5p")
    drive(game, when(seat, "win"), until=wins)
    win = wins(game)[0]
    assert win["seats"] == [seat] and win["from"] is None
    assert hand_type in hand_ids(win)
    assert {p[0] for p in payments(game)} == {0, 1, 2, 3} - {seat}


def test_a_pung_with_three_held_keeps_a_tile_for_an_added_kong_later():
    # F1 70–71: 其次要考虑是否值得先碰牌，然后回头再面下杠 … 如果先碰了，留下手上一张，等下窖以后 …
    # 去面下杠: seat 1 holds three 7p, pungs the dealer's 7p and may add the fourth on a later turn.
    hands = {0: "7p 1p 4p 2p 5p 8p 9p 1m 4m 7m 2m 5m 8m 9m", 1: "777p 135m 468m 1p 3p 5p 9p"}
    game = rigged(load("sichuan/blog5"), hands, draws="9s 9s 9s 1s")
    game.apply(Action("discard", tile("7p")))
    assert Action("kong", tile("7p"), "shun") in game.legal_actions(1)  # 直杠 offered too
    game.apply(Action("pung", tile("7p")), 1)
    game.apply(Action("discard", tile("9p")), 1)
    drive(game, until=lambda g: g.to_move() == 1 and g.phase == "turn")
    assert game.drawn == tile("1s")
    assert Action("kong", tile("7p"), "shun") in game.legal_actions(1)
