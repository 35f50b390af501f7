"""What a ruleset does, in figures to compare: every scenario of tests/scenarios and
docs/scenarios settled, and a few hands played under each preset (their event logs'
digest).  ``golden.json`` holds these figures for the format-1 files in ``format1/`` and
``format1_docs/`` as they were when format 1 was current; run this module to see them
again from the migrated copies, as the tests read them (``python -m tests.migrate.record``;
``--write`` rewrites golden.json).
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from dsl.problems import RulesetError
from dsl.ruleset import Ruleset, load
from interpreter.engine.events import to_jsonl
from interpreter.engine.match import play
from interpreter.scenario import read_scenario
from interpreter.settle import SettlementError, settle

HERE = Path(__file__).parent
REPO = HERE.parents[1]
FORMAT1 = HERE / "format1"
FORMAT1_DOCS = HERE / "format1_docs"
GOLDEN = HERE / "golden.json"
FORMAT_2_ONLY = ("escape", "false_wins", "choices")
"""Scenario keys of rules format 1 cannot state (a seat leaving, a false win claim, a choice
each player makes): scenarios with them have no format-1 figures."""


def format_1_scenario(path: Path) -> bool:
    return not any(key in FORMAT_2_ONLY for key in read_scenario(path).raw)


SCENARIOS = [p for p in sorted([*(REPO / "tests" / "scenarios").rglob("*.yaml"),
                                 *(REPO / "docs" / "scenarios").glob("*.yaml")])
             if format_1_scenario(p)]  # fmt: skip
SEEDS = (1,)
HANDS = 3

Loader = Callable[..., Ruleset]


def scenarios_of(ruleset_id: str) -> list[Path]:
    """The scenario files settled under ``ruleset_id``."""
    return [p for p in SCENARIOS if read_scenario(p).ruleset == ruleset_id]


def settlement(loader: Loader, path: Path) -> Any:
    """One scenario settled: its payments and found hand types, or why it cannot be."""
    scenario = read_scenario(path)
    try:
        result = settle(loader(settings=scenario.settings()), scenario.hand)
    except (SettlementError, RulesetError) as exc:
        return {"error": type(exc).__name__}
    return {
        "wins": [[w.seat, w.total, sorted(h.id for h in w.hands)] for w in result.wins],
        "payments": [[p.payer, p.payee, p.amount] for p in result.payments],
    }


def play_digest(loader: Loader, preset: str | None) -> str:
    """The digest of a few hands' event logs (the ruleset's file and its hash left out)."""
    ruleset = loader(preset=preset)
    digest = hashlib.sha256()
    for seed in SEEDS:
        try:
            _, events = play(ruleset, seed, "efficiency", hands=HANDS)
        except SettlementError as exc:  # a docs example of a faulty rule
            events = [{"error": str(exc)}]
        for event in events:
            event.pop("ruleset_sha256", None)
            event.pop("ruleset_file", None)
        digest.update(to_jsonl(events).encode("utf-8"))
    return digest.hexdigest()


def figures(loader: Loader, scenario_id: str) -> dict[str, Any]:
    """Every figure of one ruleset: ``scenario_id`` names the ruleset whose scenarios it
    settles (the ruleset itself, or the one a docs example extends)."""
    try:
        ruleset = loader()
    except RulesetError as exc:  # a docs example of a faulty ruleset
        return {"problems": sorted(p.message for p in exc.problems)}
    presets = [None, *ruleset.presets]
    return {
        "settled": {
            str(p.relative_to(REPO)): settlement(loader, p) for p in scenarios_of(scenario_id)
        },
        "played": {str(preset): play_digest(loader, preset) for preset in presets},
    }


def files() -> list[tuple[str, Path, Path, str]]:
    """(name, root, file, scenario ruleset) of every format-1 file: the non-abstract rulesets
    and the docs examples (which extend changsha/qq2014)."""
    out = []
    for path in sorted(FORMAT1.rglob("*.yaml")):
        if "abstract: true" in path.read_text(encoding="utf-8"):
            continue
        the_id = str(path.relative_to(FORMAT1).with_suffix(""))
        out.append((f"format1/{the_id}.yaml", FORMAT1, path, the_id))
    for path in sorted(FORMAT1_DOCS.rglob("*.yaml")):
        name = str(path.relative_to(HERE))
        out.append((name, FORMAT1, path, "changsha/qq2014"))
    return out


def loader_of(root: Path, path: Path) -> Loader:
    """Loads the file (once for each set of settings)."""
    loaded: dict[tuple[tuple[str, ...], str | None], Ruleset] = {}

    def loader(settings: Sequence[str] = (), preset: str | None = None) -> Ruleset:
        key = (tuple(settings), preset)
        if key not in loaded:
            loaded[key] = load(str(path), root=root, settings=settings, preset=preset)
        return loaded[key]

    return loader


def all_figures(root_of: Callable[[Path], Path] = lambda root: root,
                path_of: Callable[[Path], Path] = lambda path: path) -> dict[str, Any]:  # fmt: skip
    return {
        name: figures(loader_of(root_of(root), path_of(path)), scenario_id)
        for name, root, path, scenario_id in files()
    }


def write_migrated(out: Path) -> None:
    """The format-1 copies rewritten into ``out`` as ``mjrules migrate --write`` would."""
    from dsl.migrate import migrate_text

    for folder in (FORMAT1, FORMAT1_DOCS):
        for path in folder.rglob("*.yaml"):
            target = out / path.relative_to(HERE)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(migrate_text(path.read_text(encoding="utf-8")).text, "utf-8")


def migrated_figures(out: Path) -> dict[str, Any]:
    """Every figure of the format-1 copies migrated into ``out``: what golden.json holds
    (read in memory, a format-1 file also warns that it was migrated)."""
    write_migrated(out)
    return all_figures(
        root_of=lambda root: out / root.relative_to(HERE),
        path_of=lambda path: out / path.relative_to(HERE),
    )


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        found = migrated_figures(Path(folder))
    text = json.dumps(found, indent=1, ensure_ascii=False, sort_keys=True) + "\n"
    if "--write" in sys.argv:
        GOLDEN.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
