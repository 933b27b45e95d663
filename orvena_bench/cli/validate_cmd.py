"""``orvena-bench validate [FILES]``: prove scenario files well formed and solvable."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from orvena_bench.formats.catalog import load_catalog
from orvena_bench.formats.paths import catalog_path, scenarios_dir
from harness.validation.composition import render
from harness.validation.report import validate_files


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("validate", help="check scenario files: schema, ids, tokens, tools, privacy, "
                                        "the reference agent's run, and the composition")
    p.add_argument("files", nargs="*", type=Path,
                   help="scenario JSONL files (default: scenarios/*.jsonl)")
    p.add_argument("--static", action="store_true",
                   help="static checks only (skip the reference agent's run)")
    p.add_argument("--no-composition", action="store_true",
                   help="do not print the composition table")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    files = args.files or sorted(scenarios_dir().glob("*.jsonl"))
    if not files:
        print(f"orvena-bench validate: no scenario files in {scenarios_dir()}", file=sys.stderr)
        return 2
    catalog = load_catalog(catalog_path())
    solvable = None
    if not args.static:
        from harness.validation.solvable import reference_problems
        solvable = lambda item: reference_problems(item, catalog)  # noqa: E731
    report = validate_files(files, catalog, solvable=solvable)
    for problem in report.problems:
        print(problem)
    if not args.no_composition:
        print(render(report.composition))
    print(f"{len(report.scenarios)} scenarios in {len(files)} files: "
          f"{len(report.problems)} problems")
    return 0 if report.ok else 1
