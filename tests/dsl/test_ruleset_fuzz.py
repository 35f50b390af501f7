"""Fuzzing the loader: whatever the YAML, only RulesetError comes out, always with a location."""

from __future__ import annotations

import tempfile
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dsl.problems import RulesetError
from dsl.ruleset import check_ruleset
from dsl.structure import STRUCTURE, walk
from dsl.yaml_source import load_text

NAMES = sorted({str(part) for path, _ in walk() for part in path if part != "<name>"})
KEYS = st.one_of(st.sampled_from(NAMES), st.text(min_size=0, max_size=8))
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=True),
    st.text(max_size=20),
    st.sampled_from(
        [
            "option.birds",
            "winner",
            "if self_draw then 2 else 1",
            "standard()",
            "{discarder}",
            "small",
            "big",
            "m",
            "tail",
            "all",
            "(",
            "1 +",
            "x" * 50,
        ]
    ),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(KEYS, inner, max_size=5)),
    max_leaves=30,
)
SECTION = st.dictionaries(st.sampled_from(list(STRUCTURE.fields)), VALUES, max_size=8)


def _check(text: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "fuzz.yaml"
        path.write_text(text, encoding="utf-8")
        loaded = check_ruleset(str(path), root=tmp)
    for problem in loaded.problems:
        assert problem.location.line >= 1 and problem.location.col >= 1
        assert problem.format()
    if loaded.ruleset is None:
        assert any(p.is_error for p in loaded.problems)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SECTION)
def test_structured_yaml(document: dict) -> None:
    _check(yaml.safe_dump(document, allow_unicode=True))


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab: -[]{}&*!|>'\"#\n ,?%@`~1.中")), max_size=80))
def test_arbitrary_text(text: str) -> None:
    try:
        load_text(text, "fuzz.yaml")
    except RulesetError as exc:
        assert exc.problems and all(p.location.line >= 1 for p in exc.problems)
    _check(text)
