"""The flow of play in the Sichuan rulesets, position by position, each test quoting the
source line it follows (F1 = 001_76942f0387627e0c.txt, the blog; F2 = 002_c4a44432eae6dd73.txt,
the points text and the app).  docs/FLOW.md names these tests in its tables."""

from __future__ import annotations

from collections import Counter

import pytest

from dsl.ruleset import load
from interpreter import shapes
from interpreter.agents.reading import View
from interpreter.engine import Action
from interpreter.engine.actions import PASS
from tests.engine.helpers import rigged, tile, tiles


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


def test_refund_returns_kong_money_to_a_payer_who_has_since_won():
    # F1 27: 如果黄庄了，有杠牌的玩家还没有下窖，则必须退回全部刮风下雨所得 — all of it,
    # so also what seat 1 paid before it won and left.
    blog5 = load("sichuan/blog5")
    game = rigged(blog5, REFUND_HANDS, draws="7s 7s 8s 9s 9m", dealer=0)
    far(game, 0, 2, 3)
    drive(game, first_of(when(3, "kong", "1s"), when(1, "win")), until=wins)
    assert wins(game)[0]["seats"] == [1] and wins(game)[0]["from"] == 0
    rain = [p for p in payments(game) if p[3].startswith("下雨")]
    assert [p[:3] for p in rain] == [(0, 3, 2), (1, 3, 2), (2, 3, 2)]
    mark = len(game.events)
    drive(game)
    assert game.result().reason == "wall"
    assert [p[:3] for p in payments(game, mark)] == [(3, 0, 2), (3, 1, 2), (3, 2, 2)]
    assert all(p[3].startswith("退税") for p in payments(game, mark))
    assert sum(game.result().deltas) == 0


@pytest.mark.parametrize("rid, preset", [("sichuan/app", None), ("sichuan/blog5", "app_like")])
def test_transferred_kong_money_is_not_refunded_again(rid, preset):
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
    wind = [p for p in payments(game) if p[3].startswith("刮风")]
    transferred = [p for p in payments(game) if p[3] == "kong money transferred"]
    assert [p[:2] for p in wind] == [(2, 3)]
    assert [p[:3] for p in transferred] == [(3, 1, wind[0][2])]
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
    mark = len(game.events)
    game.apply(Action("win", tile("2s")), 1)
    win = wins(game)[0]
    assert win["context"] == ["kong_draw"] and "gangshanghua" in hand_ids(win)
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
