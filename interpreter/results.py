"""Results you can reuse: the rows of a run kept on disk under everything that produced them.

``compare``, ``sweep`` and ``tactics`` turn each run (a ruleset with its options, played by
its bots from a master seed) into a table of numbers, one row per hand or wall.  With a
cache folder, each table is written there as Parquet beside a JSON file of its inputs and
provenance (ruleset, ruleset hash, options, preset, agents, master seed, mjrules version,
and a hash of the program's source, so that a changed engine or bot never serves old rows).
A later run with the same inputs reads the table instead of playing again; hand *i* depends
only on the inputs and *i*, so a run of fewer hands reads the first rows of a longer one.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

LAYOUT = 1
"""Raised when the tables kept change shape, so that older files are not read."""


def default_folder() -> Path:
    """The user cache folder (``MJRULES_CACHE_DIR`` when set, as for the hand tables)."""
    from platformdirs import user_cache_dir

    return Path(os.environ.get("MJRULES_CACHE_DIR") or user_cache_dir("mjrules")) / "results"


@lru_cache(maxsize=1)
def code_hash() -> str:
    """16 hex digits of the SHA-256 of the program's source (``dsl`` and ``interpreter``)."""
    root = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for package in ("dsl", "interpreter"):
        for path in sorted((root / package).rglob("*")):
            if path.suffix in (".py", ".lark") and path.is_file():
                digest.update(path.relative_to(root).as_posix().encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _key(kind: str, inputs: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    described = {"kind": kind, "layout": LAYOUT, "code": code_hash(), **inputs}
    text = json.dumps(described, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:24], described


def load(folder: Path, kind: str, inputs: Mapping[str, Any], rows: int) -> pd.DataFrame | None:
    """The first ``rows`` rows kept for these inputs, or None when fewer are kept."""
    import pandas as pd

    name, described = _key(kind, inputs)
    try:
        meta = json.loads((folder / f"{name}.json").read_text("utf-8"))
        if (
            not isinstance(meta, dict) or meta.get("inputs") != described
            or not isinstance(meta.get("rows"), int) or meta["rows"] < rows
        ):  # fmt: skip
            return None
        table = pd.read_parquet(folder / f"{name}.parquet")
        if list(table.columns) != meta.get("columns"):  # another table put in its place
            return None
    except (OSError, ValueError, KeyError):  # missing, partly written or foreign: play again
        return None
    return table.head(rows).reset_index(drop=True) if len(table) >= rows else None


def store(folder: Path, kind: str, inputs: Mapping[str, Any], table: pd.DataFrame) -> Path | None:
    """Keep ``table`` for these inputs (each file written whole, then renamed into place);
    the Parquet file's path, or None when the folder cannot be written."""
    name, described = _key(kind, inputs)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for suffix, write in (
            (".parquet", lambda p: table.to_parquet(p, index=False)),
            (".json", lambda p: p.write_text(
                json.dumps({"inputs": described, "rows": len(table),
                            "columns": [str(c) for c in table.columns]},
                           ensure_ascii=False, indent=1), "utf-8")),
        ):  # fmt: skip
            part = folder / f"{name}{suffix}.{os.getpid()}.part"
            write(part)
            os.replace(part, folder / f"{name}{suffix}")
    except OSError:
        return None
    return folder / f"{name}.parquet"
