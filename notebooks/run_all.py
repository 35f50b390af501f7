"""Run the notebooks top to bottom and save them with their outputs.

    PYTHONPATH=. python notebooks/run_all.py      # every notebook, 20,000 hands a setting
    PYTHONPATH=. python notebooks/run_all.py --hands 1000 seed_claims.ipynb
    PYTHONPATH=. python notebooks/run_all.py --results ~/mjrules-results option_effects_hunan.ipynb

Each notebook reads the hands per setting from ``MJRULES_NOTEBOOK_HANDS`` and the worker
processes from ``MJRULES_NOTEBOOK_WORKERS``; this script sets both (by default 20,000 hands,
the full size of the committed results, and every core of the machine) and executes each
notebook in place with nbclient, one after the other.  With ``--results`` (read by the
notebooks from ``MJRULES_NOTEBOOK_RESULTS``) each setting's hands are kept in that folder as
they finish, so a full-size run stopped part-way plays only what is missing when run again.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

HERE = Path(__file__).resolve().parent
FULL = 20_000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", help="names under notebooks/ (default: all)")
    parser.add_argument("--hands", type=int, default=FULL, help=f"hands per setting ({FULL:,})")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                        help="worker processes (default: every core)")  # fmt: skip
    parser.add_argument("--results", type=Path, metavar="DIR",
                        help="keep each setting's hands in DIR and reuse those kept there")  # fmt: skip
    args = parser.parse_args()
    paths = [HERE / n for n in args.notebooks] or sorted(HERE.glob("*.ipynb"))
    os.environ["MJRULES_NOTEBOOK_HANDS"] = str(args.hands)
    os.environ["MJRULES_NOTEBOOK_WORKERS"] = str(args.workers)
    if args.results is not None:
        os.environ["MJRULES_NOTEBOOK_RESULTS"] = str(args.results.expanduser().resolve())
    root = str(HERE.parent)  # the kernel imports the project from its source tree
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))
    for path in paths:
        start = time.monotonic()
        notebook = nbformat.read(path, as_version=4)
        NotebookClient(notebook, timeout=None, kernel_name="python3",
                       resources={"metadata": {"path": str(HERE)}}).execute()  # fmt: skip
        nbformat.write(notebook, path)
        print(f"{path.name}: {args.hands:,} hands a setting, {time.monotonic() - start:.0f} s",
              file=sys.stderr)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
