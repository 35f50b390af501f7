"""The Changsha house rulesets (rulesets/house/changsha_*.yaml) in play: scripted hands whose
payments are worked out by hand from the rule text.  What a finished hand pays is settled in
tests/scenarios/house/changsha/; here, what only play shows: the stakes chosen before the
deal (飘分), a hand declared during play (中途四喜), and the kong's feeder as the engine
records it (点杠花算点炮).

F0 = seeds/000_825dba35fdb6fcc9.txt, F1 = seeds/001_76942f0387627e0c.txt (lines as cat -n).
"""

from __future__ import annotations

import io

import pytest

from dsl.ruleset import load
from interpreter.choices import declaration_names
from interpreter.engine import Action, Game
from interpreter.engine.narrate import narrate
from interpreter.human import HumanAgent, told
from tests.engine.helpers import rigged, tile, tsumogiri

STAKES = {0: "1", 1: "2", 2: "0", 3: "3"}
TIANHU = {0: "123m 456m 789p 234s 55s"}
"""The dealer's fourteen tiles win at once (天胡, a big hand), with no opening hand."""


def choose_stakes(game: Game) -> None:
    while game.phase == "piao":
        seat = game.to_move()
        assert game.legal_actions(seat) == [Action("piao", option=str(v)) for v in range(4)]
        game.apply(Action("piao", option=STAKES[seat]), seat)


def test_stakes_are_chosen_before_the_deal_and_added_to_every_payment():
    """飘分: every seat stakes 0-3 before a tile is dealt; a payment from a to b is raised by
    both stakes.  The dealer's 天胡 (1合, birds off): 6 + 1 (dealer bonus) = 7 from each,
    then + the payer's stake + the dealer's (1)."""
    game = rigged(load("house/changsha_piao", settings=["birds=0"]), TIANHU)
    assert game.phase == "piao" and not any(e["type"] == "deal" for e in game.events)
    choose_stakes(game)
    assert game.chosen["piao"] == (1, 2, 0, 3)
    game.apply(Action("win", game.drawn), 0)
    win = [(p.payer, p.amount) for p in game.settlements[-1].payments]
    assert win == [(1, 7 + 2 + 1), (2, 7 + 0 + 1), (3, 7 + 3 + 1)]
    stakes = [int(STAKES[s]) for s in range(4)]
    paid = [e for e in game.events if e["type"] == "payment"]
    assert len(paid) > 3  # the filler hands' opening hands (起手胡) are paid too
    for e in paid:  # each with both stakes on top, shown among its reasons
        both = stakes[e["from"]] + stakes[e["to"]]
        assert (e["reasons"][-1] == f"飘分 +{both}") == (both > 0), e


def test_without_stakes_nobody_is_asked_and_the_win_pays_as_qq2014():
    game = rigged(load("house/changsha_piao", settings=["birds=0", "piao=false"]), TIANHU)
    assert game.phase == "turn"
    game.apply(Action("win", game.drawn), 0)
    assert [(p.payer, p.amount) for p in game.settlements[-1].payments] == [(1, 7), (2, 7), (3, 7)]


FOURTH = {0: "1m 4m 7m 2p 5p 8p 3s 6s 9s 1p 4p 7p 2s 9m", 1: "555m 147p 258s 369m 3m"}
"""Seat 1 holds three 5m and draws the fourth on its first draw; the dealer discards 9m."""


def declared(ruleset, hands=FOURTH, draw="5m") -> tuple[Game, list[tuple[int, int, int]]]:
    """Play to seat 1's first draw (``draw``): the game, and the payments made after it."""
    game = rigged(ruleset, hands, draws=draw)
    game.apply(Action("discard", tile("9m")), 0)
    tsumogiri(game, until=lambda g: g.phase == "turn" and g.current == 1)
    draw = max(i for i, e in enumerate(game.events) if e["type"] == "draw")
    paid = [e for e in game.events[draw:] if e["type"] == "payment"]
    return game, [(e["from"], e["to"], e["amount"]) for e in paid]


def test_zhongtu_sixi_is_declared_paid_as_an_opening_hand_and_may_then_be_konged():
    """F1 129 「如果中途自摸4张相同…即为中途四喜…按起手胡的规则获得喜钱。然后再决定是开杠还是
    补张」: paid as a 2014 opening hand (算平胡自摸): the dealer 2, the others 1."""
    game, paid = declared(load("house/changsha_sixi"))
    declaration = next(e for e in game.events if e["type"] == "declaration")
    assert declaration == {"type": "declaration", "seat": 1, "name": "zhongtu_sixi", "tile": "5m"}
    assert paid == [(0, 1, 2), (2, 1, 1), (3, 1, 1)]
    assert Action("kong", tile("5m"), "buzhang") in game.legal_actions(1)


def test_a_declaration_is_told_by_its_name_and_logged_by_its_id():
    """The text names 中途四喜 as it names hand types; the event keeps the id."""
    game, _ = declared(load("house/changsha_sixi"))
    names = declaration_names(game.state.ruleset)
    assert names == {"zhongtu_sixi": "中途四喜"}
    line = "南1 declares 中途四喜 with 5m"
    assert line in narrate(game.events, names=names).splitlines()
    assert "南1 declares zhongtu_sixi with 5m" in narrate(game.events)  # without the ruleset
    event = next(e for e in game.events if e["type"] == "declaration")
    assert told(game.events[0], event, 2, False, names) == line  # the view's and a person's
    person = HumanAgent(2, read=lambda: "q", out=io.StringIO(), unicode=False)
    person.watch(game)
    person.flush()
    assert line in person.out.getvalue().splitlines()


def test_zhongtu_sixi_is_not_declared_when_switched_off_or_for_four_dealt():
    """Four alike dealt are the opening 四喜 (「如果开局那就是四喜自动胡了」), never declared."""
    game, paid = declared(load("house/changsha_sixi", settings=["zhongtu_sixi=false"]))
    assert paid == [] and not any(e["type"] == "declaration" for e in game.events)
    dealt = {**FOURTH, 1: "5555m 147p 258s 369m"}
    game, paid = declared(load("house/changsha_sixi"), dealt, draw="6p")
    assert any(e["type"] == "opening" and e["seat"] == 1 for e in game.events)
    assert paid == [] and not any(e["type"] == "declaration" for e in game.events)


FEEDER = {0: "5m 1p 4p 7p 2p 5p 8p 9p 1m 4m 7m 2m 8m 9m", 1: "555m 123s 456s 789s 5s"}
"""The dealer discards 5m, seat 1 kongs it (补张 from the tail) and wins on the 5s drawn: a
平胡 (2/5/8 pair 55s), self-drawn."""


@pytest.mark.parametrize(
    ("feeder_pays", "expected"), [(True, [(0, 2)]), (False, [(0, 2), (2, 1), (3, 1)])]
)
def test_the_kong_feeder_pays_a_win_on_the_replacement_alone(feeder_pays, expected):
    """点杠花算点炮 (F1 22 「被杠…再杠上花…算引杠者点炮」): the dealer, whose discard was kong'd,
    pays alone 1 + 1 (dealer bonus), as for his discard; switched off, full2007's self-draw:
    the dealer 2, the others 1 (F0 §十一<一>)."""
    settings = ["birds=0", f"diangang_pao={str(feeder_pays).lower()}"]
    game = rigged(load("house/changsha_wins", settings=settings), FEEDER, tail="5s 9p")
    game.apply(Action("discard", tile("5m")), 0)
    game.apply(Action("kong", tile("5m"), "buzhang"), 1)
    assert game.drawn == tile("5s") and game.facts.kong_provider == 0
    game.apply(Action("win", tile("5s")), 1)
    (win,) = [e for e in game.events if e["type"] == "win"]
    assert win["from"] is None  # still a self-draw
    assert [(p.payer, p.amount) for p in game.settlements[-1].payments] == expected


def test_the_tiles_face_up_are_counted_for_any_rule_that_reads_them(tmp_path):
    """绝张 written as a payment rather than a hand type: the engine counts the tiles face up
    for it too (it counts them only for a ruleset that reads ``visible``)."""
    from interpreter.engine.facts import table_facts

    path = tmp_path / "bonus.yaml"
    path.write_text(
        "extends: changsha/full2007\nruleset: {id: t/bonus, title: {zh: 绝张加分, en: bonus}}\n"
        "payment:\n  fixed_bonus: if visible(win_tile) == 3 then 1 else 0\n",
        encoding="utf-8",
    )
    assert table_facts(load(str(path)), 0).reads_visible
    assert not table_facts(load("changsha/full2007"), 0).reads_visible
