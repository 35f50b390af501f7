"""Changsha play flow as the sources state it: 补张 against 开杠, readiness for 开杠, kongs
right after a claim, the 开杠 dice, robbing a kong on a discard.

F0 = seeds/000_825dba35fdb6fcc9.txt (长沙麻将全规则, full2007), F1 =
seeds/001_76942f0387627e0c.txt (长沙麻将2014版规则, qq2014); line numbers as ``cat -n``.
"""

from __future__ import annotations

from collections import Counter

import pytest

from dsl.ruleset import Ruleset, load
from handcore.tiles import STANDARD
from interpreter.engine import Action
from tests.engine.helpers import next_dice, place_stack, rigged, tile

PASS = Action("pass")
DEALER = "9999p 123m 456m 55s 78s"
"""The dealer's hand: after a kong of 9p it waits on 6s or 9s with a 2/5/8 pair (平胡)."""


@pytest.fixture(scope="module", params=["changsha/qq2014", "changsha/full2007"])
def changsha(request):
    return load(request.param)


def last_event(game, kind):
    return [e for e in game.events if e["type"] == kind][-1]


def hand_ids(win):
    return {h["id"] for w in win["hands"] for h in w["hands"]}


def win_payers(game):
    return {(pay.payer, pay.payee) for pay in game.result().settlements[-1].payments}


def follow(game, plan, until):
    """Play until ``until(game)``: each seat takes the next action of its ``plan`` when
    legal, else discards what it drew and passes claims."""
    while not game.is_over() and not until(game):
        seat = game.to_move()
        legal = game.legal_actions(seat)
        todo = plan.get(seat, [])
        if todo and todo[0] in legal:
            game.apply(todo.pop(0), seat)
        elif game.phase == "turn":
            own = Action("discard", game.drawn)
            game.apply(own if own in legal else next(a for a in legal if a.kind == "discard"))
        else:
            game.apply(PASS if PASS in legal else legal[0], seat)


def kaigang(ruleset, hands, stack):
    """The dealer (``DEALER`` unless given) kongs 9p by 开杠; the stack the dice will
    choose holds ``stack`` (top, bottom)."""
    game = rigged(ruleset, {0: DEALER, **hands})
    a, b = next_dice(game, 2)
    place_stack(game, a + b, stack)
    game.apply(Action("kong", tile("9p"), "kaigang"), 0)
    return game


# --- 1. a win on a 补张 draw ---------------------------------------------------------------


def test_a_buzhang_draw_that_wins_is_a_plain_self_draw(changsha):
    """F1 90 「补张胡牌算自摸」; F1 189 「补张胡牌 … 如本身牌型不是清一色、七对类型、碰碰胡、将将胡
    的牌，则只能算平胡」; F0 315, 445 the same."""
    game = rigged(changsha, {0: DEALER}, tail="6s 6s")
    game.apply(Action("kong", tile("9p"), "buzhang"), 0)
    assert last_event(game, "replacement")["tiles"] == ["6s"]
    game.apply(Action("win", tile("6s")), 0)
    win = last_event(game, "win")
    assert win["context"] == [] and win["from"] is None
    assert hand_ids(win) == {"pinghu"}
    assert win_payers(game) == {(1, 0), (2, 0), (3, 0)}
    for pay in game.result().settlements[-1].payments:
        assert "base 1" in pay.reasons  # 平胡: no 大货 base


def test_a_kaigang_draw_that_wins_is_still_gangshangkaihua(changsha):
    """F1 91 「如果有1张可胡牌即算杠上花」; F0 315 「如果胡牌算杠上花」."""
    game = kaigang(changsha, {}, "6s 8p")
    win = next(a for a in game.legal_actions(0) if a.kind == "win")
    game.apply(win, 0)
    assert "kong_draw" in last_event(game, "win")["context"]
    assert "gangshangkaihua" in hand_ids(last_event(game, "win"))


# --- 2. a robbed 补张, 3. the discard after a 补张 -------------------------------------------

ROBBED = {
    0: [Action("discard", tile("9p")), Action("pung", tile("5p")), Action("discard", tile("1s"))],
}
"""The dealer discards 9p, pungs seat 3's 5p, discards 1s and later draws the fourth 5p;
seat 1 waits on 5p with a 2/5/8 pair (88s)."""


def _added_kong(ruleset, option):
    game = rigged(
        ruleset,
        {0: "55p 999m 111s 345s 67s 9p", 1: "46p 123m 789m 234s 88s"},
        draws="1p 1p 5p 3p 3p 7p 5p",
    )
    plan = {0: [*ROBBED[0], Action("kong", tile("5p"), option)]}
    follow(game, plan, lambda g: not plan[0] and g.phase == "claim")
    assert game.round.tile == tile("5p") and game.to_move() == 1
    assert Action("win", tile("5p")) in game.legal_actions(1)
    game.apply(Action("win", tile("5p")), 1)
    return game


def test_a_robbed_buzhang_is_a_plain_win_paid_by_the_kong_er(changsha):
    """F1 103 「如果玩家A手中碰了一副牌，又摸到或将手牌中的第四张补张，C宣布胡补张的牌，算A放炮」;
    F1 189 「抢补张的牌 … 只能算平胡」; F0 329 「第二家宣布胡补张的牌，算第一家放炮」."""
    game = _added_kong(changsha, "buzhang")
    win = last_event(game, "win")
    assert win["context"] == [] and win["from"] == 0 and win["seats"] == [1]
    assert hand_ids(win) == {"pinghu"}
    assert win_payers(game) == {(0, 1)}
    assert game.census() == Counter(game.rules.all_tiles)
    # The robbed tile never lay in a river: the last discard before the kong (seat 3's 7p)
    # is still there.
    assert game.observation(2)["rivers"][3][-1] == (tile("7p"), None)


def test_a_robbed_kaigang_is_qianggang(changsha):
    """F1 105 「又摸到或将手牌中的第四张开杠，当骰子落下后，C宣布胡开杠的牌，算A被抢杠」; F0 335."""
    game = _added_kong(changsha, "kaigang")
    win = last_event(game, "win")
    assert win["context"] == ["robbing_kong"] and win["from"] == 0
    assert "qianggang" in hand_ids(win)


def test_the_discard_after_a_buzhang_is_no_kong_tile(changsha):
    """F1 190 「玩家开杠后补杠的牌打出后，另一玩家正好胡其中的1张牌」 is 抢杠 — only 开杠's tiles;
    F0 337 「在开骰并补杠后 … 必须将补杠的牌打出 … 算第一家被抢杠」; F0 445 补张 wins are 平胡."""
    game = rigged(changsha, {0: DEALER, 1: "23s 123m 789m 456p 88s"}, tail="1s 1s")
    game.apply(Action("kong", tile("9p"), "buzhang"), 0)
    game.apply(Action("discard", tile("1s")), 0)
    game.apply(Action("win", tile("1s")), 1)
    win = last_event(game, "win")
    assert win["context"] == [] and win["from"] == 0
    assert hand_ids(win) == {"pinghu"}


def test_a_discarded_kaigang_tile_is_still_a_kong_tile(changsha):
    """F1 106 「必须将补杠的牌打出，C宣布胡A打出的牌，算A被抢杠」 (杠抢两头); F0 337.  In
    qq2014's joint round over both tiles (F1 91) the win names no tile: it takes the 1s, the
    one tile that wins for seat 1."""
    game = kaigang(changsha, {1: "23s 123m 789m 456p 88s"}, "1s 8p")
    assert game.legal_actions(0) == [PASS]
    game.apply(PASS, 0)
    win_1s = Action("win") if game.round.tiles else Action("win", tile("1s"))
    assert win_1s in game.legal_actions(1)
    game.apply(win_1s, 1)
    win = last_event(game, "win")
    assert win["tiles"] == ["1s"] and win["from"] == 0
    assert "kong_discard" in win["context"] and "qianggang" in hand_ids(win)


# --- 4. readiness for 开杠 --------------------------------------------------------------------


def test_a_hand_ready_only_for_jiangjianghu_is_offered_kaigang():
    """F1 184 (例7) 「25万 222索碰 2588索 8888砣 … 也可以碰8索后再用2索或8砣开杠 … 没有开中的话仍是
    将将胡听牌」: a 将将胡 wait is a ready hand."""
    qq2014 = load("changsha/qq2014")
    game = rigged(qq2014, {0: "2222m 55m 8m 22s 5s 88s 2p 5p"})
    assert Action("kong", tile("2m"), "kaigang") in game.legal_actions(0)
    assert Action("kong", tile("2m"), "buzhang") in game.legal_actions(0)


def test_readiness_for_kaigang(changsha):
    """F1 186–188 (例9) 「用佯将也可以开杠」: a wait with a 佯将 pair, a win only 杠上开花
    allows, is ready; F0 315 「开杠要求听牌后才能开杠」: a hand that waits on nothing is not."""
    yangjiang = rigged(changsha, {0: "2222p 234m 777m 4456s"})
    assert Action("kong", tile("2p"), "kaigang") in yangjiang.legal_actions(0)
    not_ready = rigged(changsha, {0: "2222p 136m 147s 159p 9s"})
    kongs = [a for a in not_ready.legal_actions(0) if a.kind == "kong"]
    assert kongs == [Action("kong", tile("2p"), "buzhang")]


# --- 6. 补张 / 开杠 right after a chow or pung ----------------------------------------------


def test_a_kong_right_after_a_pung(changsha):
    """F1 99 「在吃碰补张开杠后，可以立即继续补张或开杠」;
    F0 319 「允许在吃碰牌后，立即补张或开杠」."""
    game = rigged(changsha, {0: "1111s 55p 123m 456m 7s 9p"}, draws="1p 1p 5p")
    plan = {0: [Action("discard", tile("9p")), Action("pung", tile("5p"))]}
    follow(game, plan, lambda g: not plan[0])
    assert game.to_move() == 0 and game.phase == "turn" and game.drawn is None
    kong = Action("kong", tile("1s"), "buzhang")
    assert kong in game.legal_actions(0)
    game.apply(kong, 0)
    assert last_event(game, "replacement")["seat"] == 0 and game.phase == "turn"


def test_no_kong_right_after_a_pung_by_default():
    """The default (``kongs.after_claim: false``): a kong only after a draw."""
    basic = load("changsha/basic")
    game = rigged(basic, {0: "1111s 55p 123m 456m 7s 9p"}, draws="1p 1p 5p")
    plan = {0: [Action("discard", tile("9p")), Action("pung", tile("5p"))]}
    follow(game, plan, lambda g: not plan[0])
    assert game.to_move() == 0 and game.drawn is None
    assert {a.kind for a in game.legal_actions(0)} == {"discard"}


# --- 8. full2007: the top tile of the counted stack ---------------------------------------


def test_full2007_kaigang_rerolls_when_the_top_tile_is_gone():
    """F0 311–313 「如果上面1张已经被开杠拿走，则重新打骰 … 开杠拿牌只能拿1墩上面的1张，不能拿下面的
    那张」; F0 437 the same."""
    full2007 = load("changsha/full2007")
    game = rigged(full2007, {0: DEALER})
    a, b = next_dice(game, 2)
    place_stack(game, a + b, "3s 4s")
    w = game.wall
    stack = w.stacks_from_tail()[a + b - 1]
    w._take(2 * stack)  # the top tile (3s) was taken by an earlier 开杠
    before = list(w.taken)
    game.apply(Action("kong", tile("9p"), "kaigang"), 0)
    assert last_event(game, "replacement")["dice"] != [a, b]  # rolled again
    (drawn,) = [
        i for i, (was, now) in enumerate(zip(before, w.taken, strict=True)) if now and not was
    ]
    assert drawn % 2 == 0 and drawn // 2 != stack  # the top tile of another stack
    assert last_event(game, "replacement")["tiles"] == [STANDARD.name(w.tiles[drawn])]


# --- 9. robbing a kong made on a discard ------------------------------------------------------

KONG_ER = "999p 123m 456m 55s 78s"
"""Seat 1 holds three 9p and is ready (平胡 on 6s or 9s)."""
ROBBER = "78p 111m 333m 444s 66s"
"""Wins on 9p only with a 佯将 pair (66s): no 平胡 on the discard, 抢杠 once the dice land."""


def _kong_on_a_discard(ruleset, option, robber=2):
    """Seat 3 draws and discards 9p; seat 1 kongs it by ``option``."""
    game = rigged(ruleset, {1: KONG_ER, robber: ROBBER}, draws="9m 9m 9p")
    follow(game, {}, lambda g: g.phase == "claim" and g.round.tile == tile("9p"))
    assert game.round.discarder == 3 and robber not in game.round.options  # no 平胡 on 9p
    follow(game, {1: [Action("kong", tile("9p"), option)]}, lambda g: g.round is None
           or g.round.discarder != 3)  # fmt: skip
    return game


@pytest.mark.parametrize("robber", [2, 3])
def test_a_kong_on_a_discard_is_robbed_after_the_kaigang_dice(changsha, robber):
    """F1 104 「玩家B打出第四张，这时A开杠，当骰子落下后，C宣布胡开杠的牌，算A被抢杠」; F0 333
    「如果第二家手中用一对佯将做将牌时如若可以胡牌的话，也可以抢杠，仍算第一家被抢杠」: the
    discarder (seat 3) may rob it too."""
    game = _kong_on_a_discard(changsha, "kaigang", robber)
    assert game.phase == "claim" and game.to_move() == robber
    assert not [e for e in game.events if e["type"] == "replacement"]
    game.apply(Action("win", tile("9p")), robber)
    win = last_event(game, "win")
    assert win["context"] == ["robbing_kong"] and win["from"] == 1
    assert "qianggang" in hand_ids(win)
    assert win_payers(game) == {(1, robber)}
    assert [m.kind for m in game.players[1].melds] == ["pung"]
    assert game.census() == Counter(game.rules.all_tiles)


def test_a_buzhang_on_a_discard_is_not_robbed(changsha):
    """F1 102 「A补张，C宣布胡补张的牌，算B放炮」 — a win on the discard itself, offered before the
    kong; no 抢杠 round after a 补张."""
    game = _kong_on_a_discard(changsha, "buzhang")
    assert last_event(game, "replacement")["seat"] == 1
    assert game.phase == "turn" and game.to_move() == 1


# --- a replacement that is no kong, with the other replacement settings -----------------------


def variant(tmp_path, replacement: str, setting: str) -> Ruleset:
    """qq2014 with one more setting of one replacement (a house rule written as an overlay)."""
    path = tmp_path / "variant.yaml"
    path.write_text(
        "extends: changsha/qq2014\nruleset: {id: t/variant, title: {zh: 变体, en: variant}}\n"
        f"kongs: {{replacement: {{{replacement}: {{{setting}}}}}}}\n",
        encoding="utf-8",
    )
    return load(str(path))


def test_dianganghua_on_a_replacement_that_is_no_kong(tmp_path):
    """docs/DSL.md ``self_draw``: a win on a kong's replacement is a self-draw unless the
    replacement says ``counts_as_self_draw: false`` and the kong was made on a discard — a
    补张 (no kong: 补张胡牌算自摸, F1 90) declared so is paid by the discarder of the 9p as a
    plain discard win.  The 6s seat 3 threw earlier stays in its river: the winning tile is
    the replacement, not a discard."""
    ruleset = variant(tmp_path, "buzhang", "counts_as_self_draw: false")
    game = rigged(ruleset, {0: "999p 123m 456m 55s 78s 1p", 3: "9p 6s"},
                  draws="2p 2p 3p 3p 4p 4p 2p", tail="6s 6s")  # fmt: skip
    plan = {
        0: [Action("discard", tile("1p")), Action("kong", tile("9p"), "buzhang")],
        3: [Action("discard", tile("6s")), Action("discard", tile("9p"))],
    }
    follow(game, plan, lambda g: not plan[0] and g.phase == "turn")
    assert last_event(game, "replacement")["tiles"] == ["6s"]
    game.apply(Action("win", tile("6s")), 0)
    win = last_event(game, "win")
    assert win["context"] == [] and win["from"] == 3
    assert hand_ids(win) == {"pinghu"} and win_payers(game) == {(3, 0)}
    assert game.observation(1)["rivers"][3] == ((tile("6s"), None), (tile("9p"), 0))


def test_a_joint_round_of_a_replacement_that_is_no_kong(tmp_path):
    """``counts_as_kong: false`` holds in a joint round too: the discarded 开杠 tiles of such a
    replacement are plain discards, a win on one is no 抢杠 (against F1 106, where 开杠's
    tiles are kong tiles)."""
    ruleset = variant(tmp_path, "kaigang", "counts_as_kong: false")
    game = kaigang(ruleset, {1: "23s 123m 789m 456p 88s"}, "1s 8p")
    game.apply(PASS, 0)
    assert game.round.tiles == (tile("1s"), tile("8p")) and game.round.context == frozenset()
    game.apply(Action("win"), 1)
    win = last_event(game, "win")
    assert win["tiles"] == ["1s"] and win["context"] == [] and win["from"] == 0
    assert hand_ids(win) == {"pinghu"}
