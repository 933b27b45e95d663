"""``orvena-bench data``: the published dataset as a data folder.

``data fetch [REPO] [--to DIR]`` downloads it (default Orvena/orvena-bench) with huggingface_hub;
``data check DIR`` says whether a folder holds what the commands need. Point any command at the
folder with ``orvena-bench --data DIR COMMAND ...`` (or ``ORVENA_BENCH_ROOT=DIR``).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from orvena_bench.formats.dataset import REPO, fetch, layout_problems
from orvena_bench.formats.errors import FormatError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("data", help="fetch or check a data folder (the published dataset)",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    actions = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    f = actions.add_parser("fetch", help="download the dataset with huggingface_hub")
    f.add_argument("repo", nargs="?", default=REPO, help=f"dataset repository (default {REPO})")
    f.add_argument("--to", type=Path, metavar="DIR",
                   help="the data folder to fill (default: huggingface_hub's cache)")
    f.add_argument("--revision", help="branch, tag or commit (default: main)")
    f.add_argument("--without-results", action="store_true",
                   help="leave out results/ (the recorded runs)")
    f.set_defaults(func=run_fetch)
    c = actions.add_parser("check", help="check that a folder holds the card's data")
    c.add_argument("dir", type=Path, metavar="DIR")
    c.set_defaults(func=run_check)


def run_fetch(args: argparse.Namespace) -> int:
    root = fetch(args.repo, args.to, args.revision, with_results=not args.without_results)
    print(f"{args.repo} is in {root}\nuse it with: orvena-bench --data {root} COMMAND ...")
    return 0


def run_check(args: argparse.Namespace) -> int:
    problems = layout_problems(args.dir)
    if problems:
        raise FormatError("; ".join(problems))
    print(f"{args.dir}: a data folder ({', '.join(sorted(p.name for p in args.dir.iterdir()))})")
    return 0
