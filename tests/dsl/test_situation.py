"""``Situation.of``, the quick constructor the engine and settlement use, against the
dataclass's own: the same situation, the same refusals."""

from __future__ import annotations

from dataclasses import fields

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dsl.situation import HandMeld, Situation

SEATS = ("winner", "discarder", "dealer", "payer", "payee", "claimer", "kong_seat", "provider")
FACTS = st.fixed_dictionaries(
    {},
    optional={
        **{role: st.one_of(st.none(), st.integers(-2, 8)) for role in SEATS},
        "players": st.integers(0, 9),
        "self_draw": st.booleans(),
        "last_tile": st.booleans(),
        "win_tile": st.one_of(st.none(), st.integers(0, 26)),
        "melds": st.just((HandMeld("pung", 4, False),)),
        "players_in_game": st.frozensets(st.integers(0, 3)),
        "dealers": st.frozensets(st.integers(0, 9), min_size=1),
        "options": st.dictionaries(st.sampled_from(["birds", "cap"]), st.integers(0, 4)),
        "kong_provider": st.integers(-2, 5),
    },
)


def made(make, keys, facts):
    try:
        return make(keys, facts)
    except (ValueError, TypeError) as error:
        return type(error), str(error)


@settings(max_examples=300, deadline=None)
@given(st.tuples(st.integers(0, 5**9), st.integers(0, 5**9), st.integers(0, 5**9)), FACTS)
def test_the_quick_constructor_makes_what_the_dataclass_makes(keys, facts) -> None:
    slow = made(lambda k, f: Situation(k, **f), keys, facts)
    quick = made(Situation.of, keys, facts)
    assert quick == slow
    if isinstance(slow, Situation):
        assert quick.__dict__ == slow.__dict__
        for f in fields(Situation):  # never a mapping shared with another situation
            if isinstance(getattr(slow, f.name), dict) and f.name not in facts:
                assert getattr(quick, f.name) is not getattr(Situation.of(keys, facts), f.name)


def test_an_unknown_field_is_refused() -> None:
    with pytest.raises(TypeError, match="no field sef_draw"):
        Situation.of((0, 0, 0), {"sef_draw": True})
