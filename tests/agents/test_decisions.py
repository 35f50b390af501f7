"""Single decisions on constructed observations."""

from __future__ import annotations

from dsl.ruleset import load
from handcore import shapes
from handcore.discards import discard_table
from handcore.tiles import STANDARD
from interpreter.agents import make_agent, reading
from interpreter.agents.reading import View
from interpreter.engine.actions import PASS, Action


def tiles(text: str) -> list[int]:
    return STANDARD.parse(text, check_copies=False) if text.strip() else []


def observation(
    ruleset,
    hand: str,
    *,
    melds=None,
    discards=None,
    wall: int = 50,
    phase: str = "turn",
    claim=None,
) -> dict:
    held = tiles(hand)
    return {
        "seat": 0,
        "phase": phase,
        "to_move": 0,
        "dealer": 0,
        "players": 4,
        "hand": tuple(sorted(held)),
        "drawn": held[-1] if phase == "turn" else None,
        "melds": tuple(melds or ((), (), (), ())),
        "discards": tuple(tuple(tiles(d)) for d in (discards or ("", "", "", ""))),
        "wall": wall,
        "in_game": (True,) * 4,
        "void": (None,) * 4,
        "locked": False,
        "scores": (0,) * 4,
        "kong_tiles": (),
        "claim": claim,
        "choice": _VOID if phase == "void" else None,
        "ruleset": ruleset,
    }


_VOID = {"name": "void", "title": "定缺", "effect": "void", "tiles": 0,
         "values": ("m", "p", "s"), "default": None}  # fmt: skip
"""The void-suit choice as the observation describes it (sichuan rulesets' choices.void)."""


def discards_of(hand: str) -> list[Action]:
    return [Action("discard", t) for t in sorted(set(tiles(hand)))]


def test_efficiency_takes_the_tables_first_discard() -> None:
    ruleset = load("changsha/qq2014")
    bot = make_agent("efficiency", 0, ruleset=ruleset)
    for hand, seen in [
        ("1245m 3379p 13468s", ("5p9s", "1m", "", "7s")),
        ("123456m 4588p 2359s", ("", "6s6s", "7p", "")),
        ("1199m 2255p 3468s 77s", ("", "", "", "")),
    ]:
        obs = observation(ruleset, hand, discards=seen)
        view = View.of(obs)
        form = reading.facts(ruleset).form
        first = discard_table(view.keys, 0, view.visible, form)[0].discard
        assert bot.act(obs, discards_of(hand)) == Action("discard", first), hand


def test_efficiency_wins_and_claims_only_what_helps() -> None:
    ruleset = load("sichuan/blog5")
    bot = make_agent("efficiency", 0, ruleset=ruleset)
    obs = observation(
        ruleset,
        "123m 456m 789m 11p 45p",
        phase="claim",
        claim={"tile": tiles("6p")[0], "from": 3, "context": ()},
    )
    win = Action("win", tiles("6p")[0])
    assert bot.act(obs, [win, PASS]) == win
    # a pung of 1p breaks the pair of a ready hand: declined
    obs = observation(
        ruleset,
        "123m 456m 789m 11p 45p",
        phase="claim",
        claim={"tile": tiles("1p")[0], "from": 3, "context": ()},
    )
    assert bot.act(obs, [Action("pung", tiles("1p")[0]), PASS]) == PASS
    # a pung that brings a far hand nearer: taken
    obs = observation(
        ruleset,
        "11m 258m 33p 479p 16m",
        phase="claim",
        claim={"tile": tiles("3p")[0], "from": 2, "context": ()},
    )
    assert bot.act(obs, [Action("pung", tiles("3p")[0]), PASS]).kind == "pung"


def test_defensive_avoids_the_ready_opponents_tile() -> None:
    ruleset = load("sichuan/blog5")
    hand = "1245m 3379p 1346m 8p"
    # seat 1 shows three pungs late in the hand; it has thrown 8p, the second-best discard,
    # and no character, so the efficiency bot's 1m is live against it
    melds = (
        (),
        (
            ("pung", tiles("5p")[0], False),
            ("pung", tiles("2p")[0], False),
            ("pung", tiles("6p")[0], False),
        ),
        (),
        (),
    )
    seen = ("", "8p 9s 1p 4p 7s 9s", "", "")
    obs = observation(ruleset, hand, melds=melds, discards=seen, wall=12)
    efficiency = make_agent("efficiency", 0, ruleset=ruleset).act(obs, discards_of(hand))
    # the hand is ready after its best discard: by default (push 2) it plays on …
    assert (
        make_agent("defensive", 0, ruleset=ruleset, defence=1.0).act(obs, discards_of(hand))
        == efficiency
    )
    # … and with push 0 it folds even a ready hand
    defensive = make_agent("defensive", 0, ruleset=ruleset, defence=1.0, push=0)
    choice = defensive.act(obs, discards_of(hand))
    assert efficiency != choice
    assert choice.tile in tiles(seen[1])  # 现物: that opponent's own discard
    # with defence 0 it plays as the efficiency bot
    assert (
        make_agent("defensive", 0, ruleset=ruleset, defence=0.0).act(obs, discards_of(hand))
        == efficiency
    )


def test_value_keeps_a_one_suit_hand_the_ruleset_pays_for() -> None:
    ruleset = load("sichuan/blog5")  # one suit is worth more than a plain hand here
    hand = "1235556778889m 1p"
    obs = observation(ruleset, hand)
    efficiency = make_agent("efficiency", 0, ruleset=ruleset).act(obs, discards_of(hand))
    value = make_agent("value", 0, ruleset=ruleset).act(obs, discards_of(hand))
    assert efficiency.tile // 9 == 0  # speed throws a character
    assert value.tile // 9 == 1  # value throws the other suit


def test_value_leaves_a_ready_shape_that_cannot_win() -> None:
    # A plain win here needs a 2/5/8 pair: throwing 5s leaves 23s + 77s, ready in shape on
    # 1s/4s, but no wait makes a hand the ruleset accepts.  The value bot reads that from
    # the ruleset's win test; the efficiency bot sees only the shape.
    ruleset = load("changsha/qq2014")
    hand = "123m 456m 789p 23s 77s 5s"
    obs = observation(ruleset, hand)
    five = Action("discard", tiles("5s")[0])
    assert make_agent("efficiency", 0, ruleset=ruleset).act(obs, discards_of(hand)) == five
    assert make_agent("value", 0, ruleset=ruleset).act(obs, discards_of(hand)) != five


def test_void_choice_is_the_suit_held_least() -> None:
    ruleset = load("sichuan/blog5")
    obs = observation(ruleset, "1234567m 11234p 56s", phase="void")
    legal = [Action("void", option=s) for s in "mps"]
    for name in ("efficiency", "value", "defensive"):
        assert make_agent(name, 0, ruleset=ruleset).act(obs, legal) == Action("void", option="s")


def test_the_ruleset_tells_how_often_a_ready_shape_may_win() -> None:
    # A plain win needs a 2/5/8 pair in Changsha; any complete hand wins in Sichuan.
    assert reading.facts(load("changsha/qq2014")).win_share < 0.5
    assert reading.facts(load("sichuan/blog5")).win_share == 1.0


def test_defensive_reads_two_early_chows_as_little_threat() -> None:
    ruleset = load("changsha/qq2014")
    hand = "1245m 3379p 13468s"
    melds = ((), (("chow", tiles("2p")[0], False), ("chow", tiles("5s")[0], False)), (), ())
    obs = observation(ruleset, hand, melds=melds, discards=("9s", "1m 9p", "", ""), wall=48)
    bot = make_agent("defensive", 0, ruleset=ruleset, defence=1.0)
    assert bot.threats(obs, View.of(obs), reading.facts(ruleset))[1] < 0.1
    efficiency = make_agent("efficiency", 0, ruleset=ruleset).act(obs, discards_of(hand))
    assert bot.act(obs, discards_of(hand)) == efficiency


FOUR_MELDS = (
    (),
    tuple(("pung", tiles(t)[0], False) for t in ("2p", "6p", "8s", "3m")),
    (),
    (),
)


def test_defensive_folds_a_far_hand_against_four_melds_and_pushes_a_near_one() -> None:
    ruleset = load("changsha/qq2014")
    facts = reading.facts(ruleset)
    far = "1245m 3379p 13468s"
    river = ("", "4p 7m 9m 1p 1s", "", "")  # seat 1 threw 1s, which the far hand holds
    obs = observation(ruleset, far, melds=FOUR_MELDS, discards=river, wall=20)
    assert shapes.shanten(View.of(obs).keys, 0, facts.form) >= 2
    efficiency = make_agent("efficiency", 0, ruleset=ruleset).act(obs, discards_of(far))
    defensive = make_agent("defensive", 0, ruleset=ruleset, defence=1.0)
    choice = defensive.act(obs, discards_of(far))
    assert choice != efficiency and choice.tile in tiles(river[1])  # 现物 instead
    # one tile from ready: by default it plays on (push 2) …
    near = "123m 456m 78p 55s 19s 9p"
    obs = observation(ruleset, near, melds=FOUR_MELDS, discards=river, wall=20)
    assert shapes.shanten(View.of(obs).keys, 0, facts.form) == 1
    efficiency = make_agent("efficiency", 0, ruleset=ruleset).act(obs, discards_of(near))
    assert defensive.act(obs, discards_of(near)) == efficiency
    # … unless told to fold any hand not ready
    pushless = make_agent("defensive", 0, ruleset=ruleset, defence=1.0, push=0)
    assert pushless.act(obs, discards_of(near)) != efficiency


def test_a_tile_claimed_from_an_opponents_river_is_its_own_discard() -> None:
    ruleset = load("changsha/qq2014")
    obs = observation(ruleset, "1245m 3379p 13468s", wall=30)
    bot = make_agent("defensive", 0, ruleset=ruleset)
    view = View.of(obs)
    four = tiles("4m")[0]
    before = bot.danger(obs, view, 1, four)
    obs["rivers"] = ((), ((tiles("9s")[0], None), (four, 2)), (), ())  # seat 2 chowed its 4m
    assert bot.danger(obs, view, 1, four) < 0.5 * before


def test_the_claims_parameter_declines_what_it_names() -> None:
    """A far hand that a pung of 3p and a chow of 8p (7p-9p) both bring nearer: ``helps``
    (the default) takes both, ``pungs`` only the pung, ``never`` neither."""
    ruleset = load("changsha/qq2014")
    hand = "111m 2568m 33p 479p"

    def offered(tile: str, seat: int):
        return observation(ruleset, hand, phase="claim",
                           claim={"tile": tiles(tile)[0], "from": seat, "context": ()})  # fmt: skip

    pung, chow = Action("pung", tiles("3p")[0]), Action("chow", tiles("7p")[0])
    for claims, takes_pung, takes_chow in [
        ("helps", True, True),
        ("pungs", True, False),
        ("never", False, False),
    ]:
        for bot in ("efficiency", "defensive"):
            agent = make_agent(f"{bot}:claims={claims}", 0, ruleset=ruleset)
            assert (agent.act(offered("3p", 2), [pung, PASS]) == pung) is takes_pung, (bot, claims)
            assert (agent.act(offered("8p", 3), [chow, PASS]) == chow) is takes_chow, (bot, claims)


def test_a_claim_that_leaves_only_a_pair_of_the_void_suit_is_weighed() -> None:
    # Three melds shown, 55m 77s held, 万 declared void: a pung of 7s leaves the void pair
    # alone, a complete shape with no tile the win may keep.  Its worth is nothing, not an
    # exception (a search bot's rollout met it).
    ruleset = load("sichuan/blog5")
    p, s = tiles("1p")[0], tiles("1s")[0]
    melds = (((("pung", p, False), ("pung", p + 4, False), ("pung", s + 2, False))),
             (), (), ())  # fmt: skip
    obs = observation(
        ruleset, "55m 77s", melds=melds, phase="claim",
        claim={"tile": tiles("7s")[0], "from": 3, "context": ()},
    )  # fmt: skip
    obs["void"] = (0, None, None, None)
    pung = Action("pung", tiles("7s")[0])
    for name in ("value", "strategy"):
        assert make_agent(name, 0, ruleset=ruleset).act(obs, [pung, PASS]) in (pung, PASS)
