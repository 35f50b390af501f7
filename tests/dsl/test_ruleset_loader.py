"""Safe YAML loading: locations of every node, bounds on hostile input."""

from __future__ import annotations

import time

import pytest

from dsl import yaml_source
from dsl.problems import RulesetError
from dsl.yaml_source import load_text


def test_plain_data_with_locations() -> None:
    root = load_text('a:\n  b: "中文 x"\n  c: [1, on, ~, 1.5]\n', "t.yaml")
    assert root.plain() == {"a": {"b": "中文 x", "c": [1, True, None, 1.5]}}
    c = root.value["a"].value["c"]
    assert (c.location.line, c.location.col) == (3, 6)
    assert root.value["a"].keys["c"].location.col == 3


@pytest.mark.parametrize(
    ("text", "offset", "where"),
    [
        ("x: winner + 1\n", 9, (1, 13)),  # plain
        ('x: "a: b + c"\n', 5, (1, 10)),  # double quoted
        ("x: 'it''s + c'\n", 7, (1, 13)),  # single quoted, escaped quote
        ("x: |\n  if a\n    then b\n", 9, (3, 7)),  # literal block
        ("x: >\n  one\n  two\n", 4, (3, 3)),  # folded block
        ("x: one\n   two three\n", 8, (2, 8)),  # folded plain
    ],
)
def test_offsets_inside_scalars_map_to_the_file(text: str, offset: int, where: tuple) -> None:
    node = load_text(text, "t.yaml").value["x"]
    location = node.offset_location(offset)
    assert (location.line, location.col) == where


def _error(text: str) -> str:
    with pytest.raises(RulesetError) as info:
        load_text(text, "t.yaml")
    return info.value.format()


def test_alias_bomb_is_refused_quickly() -> None:
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, 12):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]")
    start = time.perf_counter()
    assert "too many values" in _error("\n".join(lines))
    assert time.perf_counter() - start < 1.0


def test_deep_nesting_is_refused() -> None:
    assert "nesting" in _error("x: " + "[" * 5000 + "]" * 5000)  # libyaml may stop first
    assert "nesting too deep" in _error("x: " + "{a: " * 100 + "1" + "}" * 100)


def test_large_file_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yaml_source, "MAX_FILE_CHARS", 1000)
    assert "file too large" in _error("x: " + "a" * 2000)


def test_long_scalar_is_refused() -> None:
    assert "value too long" in _error("x: " + "a" * (yaml_source.MAX_SCALAR_CHARS + 1))


def test_many_nodes_are_refused() -> None:
    assert "too many values" in _error("x: [" + ", ".join(["1"] * 60_000) + "]")


def test_tags_and_merge_keys_are_refused() -> None:
    assert "not allowed" in _error("x: !!python/object/apply:os.system [ls]")
    assert "merge keys" in _error("a: &a {b: 1}\nc:\n  <<: *a\n")


def test_second_document_is_refused() -> None:
    assert "one YAML document" in _error("a: 1\n---\nb: 2\n")


def test_bad_utf8(tmp_path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_bytes(b"a: 1\nb: \xff\n")
    with pytest.raises(RulesetError) as info:
        yaml_source.load_file(path, "bad.yaml")
    assert info.value.problems[0].location.line == 2


def test_missing_file(tmp_path) -> None:
    with pytest.raises(RulesetError) as info:
        yaml_source.load_file(tmp_path / "none.yaml", "none.yaml")
    assert "cannot read" in info.value.format()


def test_a_ruleset_error_survives_being_sent_to_another_process() -> None:
    import pickle

    from dsl.problems import RulesetError
    from dsl.ruleset import check_ruleset

    error = RulesetError(check_ruleset("no/such").problems)
    again = pickle.loads(pickle.dumps(error))
    assert again.problems == error.problems
    assert str(again) == str(error)


def test_tab_and_indentation_hints_only_where_they_are_the_cause() -> None:
    tab = "spaces for indentation (YAML never indents with tabs)"
    siblings = "the indentation of its siblings"
    assert tab in _error("a:\n\tb: 1\n")
    assert tab in _error("a:\n  b: 1\n\tc: 2\n")  # libyaml: "a tab character that violates ..."
    assert siblings in _error("a:\n  b: 1\n c: 2\n")
    trailing = _error('a:\n  b: "x" y\n')  # text after a quoted value: not the indentation
    assert "did not find expected key" in trailing
    assert siblings not in trailing and tab not in trailing
    assert tab not in _error("a: [1\n")
    deeper = _error("a:\n  b: 1\n   c: 2\n")  # c reads as the text of b's value
    assert "mapping values are not allowed" in deeper and siblings in deeper
    named = _error("a:\n  when: standard(pair: rank in {2})\n")  # a named argument unquoted
    assert "in quotes" in named and siblings not in named
